import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { uploadMsg as m } from "../../../../src/run/backends/upload/messages.ts";
import { type ExpectedUpload, startResultsReceiver } from "../../../../src/run/backends/upload/receiver.ts";
import { entry, pax, tarball } from "./tar-bytes.ts";

const root = mkdtempSync(join(tmpdir(), "push-receiver-"));
const receiver = startResultsReceiver({ listen: { hostname: "127.0.0.1", port: 0 }, limits: { maxBytes: 64 * 1024, maxFiles: 20 } });
afterAll(async () => {
  await receiver.close();
  rmSync(root, { recursive: true, force: true });
});

let n = 0;
let runDir: string;
let up: ExpectedUpload;
beforeEach(() => {
  runDir = join(root, `run-${++n}`);
  mkdirSync(join(runDir, "archive"), { recursive: true });
  writeFileSync(join(runDir, "result.json"), "");
  up = receiver.expect(`trial-${n}`, runDir);
});

const secret = (u: ExpectedUpload) => JSON.parse(u.secretText) as { url: string; token: string };

async function send(body: Uint8Array, token = secret(up).token, url = secret(up).url) {
  const r = await fetch(url, { method: "PUT", headers: { authorization: `Bearer ${token}`, "content-type": "application/x-tar" }, body });
  return { status: r.status, body: (await r.json()) as { error?: string; files?: number; bytes?: number } };
}

/** What a refused upload must leave: the run folder as createRunDir made it, nothing staged. */
function untouched(): void {
  expect(readdirSync(runDir).sort()).toEqual(["archive", "result.json"]);
  expect(readdirSync(join(runDir, "archive"))).toEqual([]);
  expect(statSync(join(runDir, "result.json")).size).toBe(0);
}

async function refused(body: Uint8Array, why: string, status = 422): Promise<void> {
  const r = await send(body);
  const reason = m.refused(up.trialId, why);
  expect(r).toEqual({ status, body: { error: reason } });
  expect(await up.outcome).toEqual({ ok: false, reason });
  untouched();
}

describe("results receiver", () => {
  test("an honest tarball made by GNU tar lands in the run folder as a local run's files; host files are kept", async () => {
    const src = join(root, `src-${n}`);
    const deep = join(src, "archive", "a".repeat(60), "b".repeat(60));
    mkdirSync(deep, { recursive: true });
    mkdirSync(join(src, "grading"));
    writeFileSync(join(src, "result.json"), '{"status":"passed"}\n');
    writeFileSync(join(src, "grading", "build.log"), "ok\n");
    writeFileSync(join(deep, "notes.txt"), "deep\n");
    writeFileSync(join(src, "model-calls.jsonl"), "forged\n");
    writeFileSync(join(runDir, "model-calls.jsonl"), "host\n");
    const tar = spawnSync("tar", ["--format=pax", "-C", src, "-cf", "-", "."], { maxBuffer: 1 << 24 });
    expect(tar.status).toBe(0);
    const r = await send(new Uint8Array(tar.stdout));
    expect(r).toEqual({ status: 201, body: { files: 8, bytes: 35 } });
    const outcome = await up.outcome;
    expect(outcome).toMatchObject({ ok: true, skipped: ["model-calls.jsonl"] });
    expect(readFileSync(join(runDir, "result.json"), "utf8")).toBe('{"status":"passed"}\n');
    expect(readFileSync(join(runDir, "grading", "build.log"), "utf8")).toBe("ok\n");
    expect(readFileSync(join(runDir, "archive", "a".repeat(60), "b".repeat(60), "notes.txt"), "utf8")).toBe("deep\n");
    expect(readFileSync(join(runDir, "model-calls.jsonl"), "utf8")).toBe("host\n");
    expect(readdirSync(runDir).filter((f) => f.startsWith(".upload-"))).toEqual([]);
  });

  test("a replay of an accepted upload is refused and changes nothing", async () => {
    const body = tarball([entry({ name: "result.json", data: "{}\n" })]);
    expect((await send(body)).status).toBe(201);
    writeFileSync(join(runDir, "result.json"), "kept\n");
    expect(await send(body)).toEqual({ status: 409, body: { error: m.replay(up.trialId) } });
    expect(readFileSync(join(runDir, "result.json"), "utf8")).toBe("kept\n");
  });

  test("a wrong token is refused without spending the trial's upload", async () => {
    const body = tarball([entry({ name: "result.json", data: "{}\n" })]);
    expect(await send(body, "0".repeat(64))).toEqual({ status: 401, body: { error: m.badToken(up.trialId) } });
    const noAuth = await fetch(secret(up).url, { method: "PUT", body });
    expect(noAuth.status).toBe(401);
    untouched();
    expect((await send(body)).status).toBe(201);
    expect(readFileSync(join(runDir, "result.json"), "utf8")).toBe("{}\n");
  });

  test("another trial's token does not open this trial", async () => {
    const other = receiver.expect(`other-${n}`, runDir);
    const r = await send(tarball([entry({ name: "x", data: "1" })]), secret(other).token);
    expect(r.status).toBe(401);
    other.cancel();
    untouched();
  });

  test("a trial's own advertised address goes into its secret", () => {
    const other = receiver.expect(`adv-${n}`, runDir, { advertise: "http://trial-relay:8080/" });
    expect(secret(other).url).toBe(`http://trial-relay:8080/v1/uploads/adv-${n}`);
    other.cancel();
    up.cancel();
  });

  test("an unknown trial and a bad route are 404", async () => {
    const base = secret(up).url.replace(/trial-\d+$/, "");
    expect((await send(tarball([]), secret(up).token, `${base}nobody`)).body).toEqual({ error: m.unknownTrial("nobody") });
    const r = await fetch(secret(up).url, { method: "POST" });
    expect(r.status).toBe(404);
    const bad = await fetch(`${base}%E0%A4%A`, { method: "PUT" });
    expect(bad.status).toBe(404);
    expect(((await bad.json()) as { error: string }).error).toBe(m.badTrialId("%E0%A4%A"));
    up.cancel();
  });

  test("hostile: a symbolic link", async () => {
    await refused(tarball([entry({ name: "archive/leak", type: "2", linkname: "/ssebench/reference.patch" })]), m.notAllowed("archive/leak", "a symbolic link"));
  });

  test("hostile: a hard link", async () => {
    await refused(tarball([entry({ name: "result.json", data: "{}" }), entry({ name: "x", type: "1", linkname: "result.json" })]), m.notAllowed("x", "a hard link"));
  });

  test("hostile: a character device", async () => {
    await refused(tarball([entry({ name: "dev", type: "3" })]), m.notAllowed("dev", "a character device"));
  });

  test("hostile: a FIFO", async () => {
    await refused(tarball([entry({ name: "pipe", type: "6" })]), m.notAllowed("pipe", "a FIFO"));
  });

  test("hostile: .. in a name", async () => {
    await refused(tarball([entry({ name: "archive/../../escape", data: "x" })]), m.badName("archive/../../escape", "goes up with '..'"));
    expect(existsSync(join(root, "escape"))).toBe(false);
  });

  test("hostile: .. through the ustar prefix field", async () => {
    await refused(tarball([entry({ name: "escape", prefix: "..", data: "x" })]), m.badName("../escape", "goes up with '..'"));
  });

  test("hostile: .. through a pax path", async () => {
    await refused(tarball([pax({ path: "../../escape" }), entry({ name: "innocent", data: "x" })]), m.badName("../../escape", "goes up with '..'"));
  });

  test("hostile: an absolute name", async () => {
    await refused(tarball([entry({ name: "/tmp/push-escape", data: "x" })]), m.badName("/tmp/push-escape", "is an absolute path"));
    expect(existsSync("/tmp/push-escape")).toBe(false);
  });

  test("hostile: a pax linkpath", async () => {
    await refused(tarball([pax({ linkpath: "/etc/shadow" }), entry({ name: "f", data: "x" })]), m.paxKey("linkpath"));
  });

  test("hostile: files larger than the limit together", async () => {
    const big = new Uint8Array(40 * 1024);
    await refused(tarball([entry({ name: "a", data: big }), entry({ name: "b", data: big })]), m.tooManyBytes(64 * 1024), 413);
  });

  test("hostile: a size field far beyond the data (refused before any byte is written)", async () => {
    await refused(tarball([entry({ name: "a", data: "x", size: 8 ** 11 - 1 })]), m.tooManyBytes(64 * 1024), 413);
  });

  test("hostile: too many files", async () => {
    const many = Array.from({ length: 21 }, (_, i) => entry({ name: `f${i}`, data: "x" }));
    await refused(tarball(many), m.tooManyFiles(20), 413);
  });

  test("hostile: truncated in the middle of a file", async () => {
    const whole = tarball([entry({ name: "result.json", data: "y".repeat(2000) })], false);
    await refused(whole.subarray(0, 1000), m.truncated("result.json"));
  });

  test("hostile: no end marker", async () => {
    await refused(tarball([entry({ name: "result.json", data: "{}" })], false), m.truncated());
  });

  test("hostile: a wrong header checksum", async () => {
    await refused(tarball([entry({ name: "result.json", data: "{}", badChecksum: true })]), m.badChecksum());
  });

  test("hostile: not a tarball", async () => {
    await refused(new TextEncoder().encode("x".repeat(1024)), m.notUstar());
  });

  test("hostile: the same name twice", async () => {
    await refused(tarball([entry({ name: "grading/a", data: "1" }), entry({ name: "grading/a", data: "2" })]), m.duplicate("grading/a"));
  });

  test("hostile: a file below a file", async () => {
    await refused(tarball([entry({ name: "a", data: "1" }), entry({ name: "a/b", data: "2" })]), m.underFile("a/b"));
  });

  test("hostile: data after the end marker", async () => {
    const body = Buffer.concat([tarball([entry({ name: "a", data: "1" })]), Buffer.from("junk")]);
    await refused(body, m.afterEnd());
  });

  test("a symlink already in the staging path's way is never followed (files are created O_EXCL|O_NOFOLLOW)", async () => {
    // The run folder is the host's; a link there named like an uploaded file stays a link, and the upload's file is kept out.
    const outside = join(root, `outside-${n}`);
    writeFileSync(outside, "untouched\n");
    symlinkSync(outside, join(runDir, "agent.log"));
    const r = await send(tarball([entry({ name: "agent.log", data: "from the container\n" })]));
    expect(r.status).toBe(201);
    expect(await up.outcome).toMatchObject({ ok: true, skipped: ["agent.log"] });
    expect(lstatSync(join(runDir, "agent.log")).isSymbolicLink()).toBe(true);
    expect(readFileSync(outside, "utf8")).toBe("untouched\n");
  });

  test("modes lose setuid and group/world write bits", async () => {
    const r = await send(tarball([entry({ name: "tool", data: "#!/bin/sh\n", mode: 0o4777 })]));
    expect(r.status).toBe(201);
    expect(statSync(join(runDir, "tool")).mode & 0o7777).toBe(0o755);
  });

  test("a trial expected again after its upload settled gets a fresh token; the old one opens nothing", async () => {
    expect(() => receiver.expect(up.trialId, runDir)).toThrow(m.expectedTwice(up.trialId));
    const body = tarball([entry({ name: "result.json", data: "{}\n" })]);
    expect((await send(body)).status).toBe(201);
    const again = receiver.expect(up.trialId, runDir);
    expect(secret(again).token).not.toBe(secret(up).token);
    expect((await send(body, secret(up).token)).status).toBe(401);
    again.cancel();
  });

  test("cancel settles the outcome as 'no results were uploaded', and a later upload is refused", async () => {
    up.cancel();
    expect(await up.outcome).toEqual({ ok: false, reason: m.noUpload(up.trialId) });
    expect((await send(tarball([entry({ name: "a", data: "1" })]))).status).toBe(409);
    untouched();
  });
});

test("the receiver serves on a Unix socket; the secret names the container's socket path", async () => {
  const dir = mkdtempSync(join(tmpdir(), "push-sock-"));
  const sock = join(dir, "upload.sock");
  const r = startResultsReceiver({ listen: { unix: sock }, containerSocket: "/run/ssebench-upload/upload.sock" });
  try {
    const run = join(dir, "run");
    mkdirSync(run);
    const up2 = r.expect("sock-trial", run);
    const s = JSON.parse(up2.secretText) as { url: string; token: string; socket: string };
    expect(s.url).toBe("http://localhost/v1/uploads/sock-trial");
    expect(s.socket).toBe("/run/ssebench-upload/upload.sock");
    const res = await fetch(s.url, { unix: sock, method: "PUT", headers: { authorization: `Bearer ${s.token}` }, body: tarball([entry({ name: "result.json", data: "{}" })]) });
    expect(res.status).toBe(201);
    expect(readFileSync(join(run, "result.json"), "utf8")).toBe("{}");
  } finally {
    await r.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
