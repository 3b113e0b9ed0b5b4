/**
 * Results pushed home, on the host as root with real users: the entrypoint streams its results
 * and archive to a real receiver (the host's Unix socket) once the agent is gone; the run folder
 * the receiver writes holds what a local run's folder holds; the agent cannot read the token.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startResultsReceiver } from "../../src/run/backends/upload/receiver.ts";
import { fileTree } from "../helpers/file-tree.ts";
import { msg } from "../../src/runtime/messages.ts";
import { entrypointBin } from "../helpers/cli.ts";
import { dropUsers, ensureUsers, newRun, runEntrypoint, shAgent } from "./harness.ts";

setDefaultTimeout(60_000);
beforeAll(ensureUsers);
afterAll(dropUsers);

/** A receiver on a socket in a 0700 folder of the run, a run folder it writes, and the trial's upload file. */
function receiverFor(dirs: ReturnType<typeof newRun>, trial: string, addressing: { containerSocket: string } | { advertise: string }) {
  const hostDir = join(dirs.base, "upload");
  mkdirSync(hostDir, { mode: 0o700 });
  const sock = join(hostDir, "upload.sock");
  const receiver = startResultsReceiver({ listen: { unix: sock }, ...addressing });
  const runDir = join(dirs.base, "run");
  mkdirSync(join(runDir, "archive"), { recursive: true });
  writeFileSync(join(runDir, "result.json"), "");
  const up = receiver.expect(trial, runDir);
  const secretFile = join(hostDir, "upload.json");
  writeFileSync(secretFile, up.secretText, { mode: 0o600 });
  dirs.env.SSE_UPLOAD_FILE = secretFile;
  return { receiver, runDir, up, secretFile, sock };
}

describe("results upload from the entrypoint", () => {
  test("the run folder the receiver writes is the container's results and archive, minus links and FIFOs", async () => {
    const dirs = newRun();
    chmodSync(dirs.base, 0o755);
    const { receiver, runDir, up, secretFile } = receiverFor(dirs, "rt-upload", { containerSocket: join(dirs.base, "upload", "upload.sock") });
    try {
      const r = await runEntrypoint(
        dirs,
        shAgent(
          [
            'a="$SSE_ARCHIVE"',
            'mkdir -p "$a/notes/deep"',
            'echo kept > "$a/notes/deep/n.txt"',
            'ln -s /etc/passwd "$a/link"',
            'mkfifo "$a/fifo"',
            `cat ${secretFile} > "$a/token" 2>/dev/null || echo denied > "$a/token"`,
          ].join("; "),
        ),
      );
      expect(r.exitCode).toBe(0);
      const outcome = await up.outcome;
      expect(outcome).toMatchObject({ ok: true, skipped: [] });
      const local: Record<string, string> = { ...fileTree(dirs.results), "archive/": "", ...Object.fromEntries(Object.entries(fileTree(dirs.archive)).map(([k, v]) => [`archive/${k}`, v])) };
      delete local["archive/link"];
      delete local["archive/fifo"];
      const pushed = fileTree(runDir);
      // entrypoint.log goes on after the upload (the line that says it was accepted).
      expect(pushed["entrypoint.log"]).toBe(local["entrypoint.log"]?.slice(0, pushed["entrypoint.log"]?.length));
      delete local["entrypoint.log"];
      delete pushed["entrypoint.log"];
      expect(pushed).toEqual(local);
      expect(pushed["archive/token"]).toBe("denied\n");
      expect(pushed["archive/notes/deep/n.txt"]).toBe("kept\n");
      expect(JSON.parse(pushed["result.json"] as string).patch_result.status).toBe("failed");
      expect(r.stdout).toContain("msg=\"Results uploaded\"");
      expect(r.stdout).toContain("msg=\"Not uploaded\" entry=\"archive/fifo: a FIFO\"");
      expect(r.stdout).toContain("msg=\"Not uploaded\" entry=\"archive/link: a symbolic link\"");
    } finally {
      await receiver.close();
      dirs.cleanup();
    }
  });

  test("an archive past the receiver's limits (200,001 empty files, a 3 GB sparse file in archive/plugins) is cut to its bounds and the upload accepted", async () => {
    // (creating 200,001 files takes a minute on a busy machine)
    const dirs = newRun({ env: { TIMEOUT: "900" } });
    chmodSync(dirs.base, 0o755);
    const { receiver, runDir, up } = receiverFor(dirs, "rt-upload-big", { containerSocket: join(dirs.base, "upload", "upload.sock") });
    try {
      const flood = 'cd "$SSE_ARCHIVE" && echo "{}" > dialog.jsonl && mkdir -p many plugins && (cd many && seq 200001 | xargs touch) && truncate -s 3G plugins/huge.bin';
      const r = await runEntrypoint(dirs, shAgent(flood));
      expect(r.exitCode).toBe(0);
      expect(await up.outcome).toMatchObject({ ok: true });
      const entries = (dir: string) => Bun.spawnSync(["find", dir, "-mindepth", "1"]).stdout.toString().trim().split("\n").length;
      // SSE_MAX_ARCHIVE_FILES (100,000) entries stay, the shallowest first (the transcript among
      // them); then the sparse file goes for the bytes.
      expect(entries(join(runDir, "archive"))).toBe(99_999);
      expect(existsSync(join(runDir, "archive/dialog.jsonl"))).toBe(true);
      expect(existsSync(join(runDir, "archive/plugins/huge.bin"))).toBe(false);
    } finally {
      await receiver.close();
      dirs.cleanup();
    }
  }, 900_000);

  test("over TCP (a Swarm trial's relay), an upload that finds no relay yet waits for it and arrives once it listens", async () => {
    const dirs = newRun();
    // A port nothing listens on until the relay starts below.
    const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data: () => {} } });
    const port = probe.port;
    probe.stop(true);
    const { receiver, runDir, up, sock } = receiverFor(dirs, "rt-late", { advertise: `http://127.0.0.1:${port}` });
    let relay: Bun.Subprocess | undefined;
    try {
      const proc = Bun.spawn([entrypointBin, ...shAgent("true")], { env: dirs.env, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
      // The relay starts only once the entrypoint says it is waiting for one.
      let out = "";
      const decoder = new TextDecoder();
      for await (const chunk of proc.stdout) {
        out += decoder.decode(chunk);
        if (!relay && out.includes('msg="Waiting for the results relay"')) relay = Bun.spawn([entrypointBin, "relay", `127.0.0.1:${port}`, sock], { stdout: "ignore", stderr: "ignore" });
      }
      expect(await proc.exited).toBe(0);
      expect(relay).toBeDefined();
      expect(await up.outcome).toMatchObject({ ok: true });
      expect(out).toContain('msg="Results uploaded"');
      expect(JSON.parse(readFileSync(join(runDir, "result.json"), "utf8")).patch_result.status).toBe("failed");
    } finally {
      relay?.kill("SIGKILL");
      await receiver.close();
      dirs.cleanup();
    }
  });

  test("a run stopped by SIGTERM still pushes what it recorded, after the agent is killed", async () => {
    const dirs = newRun();
    chmodSync(dirs.base, 0o755);
    const hostDir = join(dirs.base, "upload");
    mkdirSync(hostDir, { mode: 0o700 });
    const sock = join(hostDir, "upload.sock");
    const receiver = startResultsReceiver({ listen: { unix: sock }, containerSocket: sock });
    const runDir = join(dirs.base, "run");
    mkdirSync(runDir);
    const up = receiver.expect("rt-term", runDir);
    writeFileSync(join(hostDir, "upload.json"), up.secretText, { mode: 0o600 });
    dirs.env.SSE_UPLOAD_FILE = join(hostDir, "upload.json");
    try {
      const r = await runEntrypoint(dirs, shAgent('touch "$SSE_ARCHIVE/started"; sleep 30'), {
        onStart: (proc) => {
          const poll = setInterval(() => {
            if (existsSync(join(dirs.archive, "started"))) {
              clearInterval(poll);
              proc.kill("SIGTERM");
            }
          }, 50);
        },
      });
      expect(r.exitCode).toBe(143);
      expect(await up.outcome).toMatchObject({ ok: true });
      const result = JSON.parse(readFileSync(join(runDir, "result.json"), "utf8"));
      expect(result.patch_result).toMatchObject({ status: "error", error_type: "interrupted" });
      expect(existsSync(join(runDir, "archive", "started"))).toBe(true);
    } finally {
      await receiver.close();
      dirs.cleanup();
    }
  });

  test("an upload file other users can read stops the run before the agent", async () => {
    const dirs = newRun();
    const secretFile = join(dirs.base, "upload.json");
    writeFileSync(secretFile, `{"url":"http://localhost/v1/uploads/x","token":"${"a".repeat(64)}"}\n`, { mode: 0o644 });
    chmodSync(secretFile, 0o444);
    dirs.env.SSE_UPLOAD_FILE = secretFile;
    try {
      const r = await runEntrypoint(dirs, shAgent('echo ran > "$SSE_ARCHIVE/ran"'));
      expect(r.exitCode).toBe(1);
      expect(r.stderr.trim()).toBe(msg.uploadFile(secretFile, "is readable by other users (mode 0444); give it mode 0400 or 0600"));
      expect(readdirSync(dirs.archive)).toEqual([]);
    } finally {
      dirs.cleanup();
    }
  });
});
