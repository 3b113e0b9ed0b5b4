/** `ssebench-entrypoint relay`: TCP to a Unix socket, here in front of a real results receiver. */
import { expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startResultsReceiver } from "../../src/run/backends/upload/receiver.ts";
import { msg } from "../../src/runtime/messages.ts";
import { entrypointBin } from "../helpers/cli.ts";
import { entry, tarball } from "../run/backends/upload/tar-bytes.ts";

test("an upload through the relay reaches the receiver's socket; the relay runs with no_new_privs; SIGTERM ends the relay", async () => {
  const dir = mkdtempSync(join(tmpdir(), "push-relay-"));
  const sock = join(dir, "upload.sock");
  const receiver = startResultsReceiver({ listen: { unix: sock } });
  const relay = Bun.spawn([entrypointBin, "relay", "127.0.0.1:0", sock], { stdout: "pipe", stderr: "pipe" });
  try {
    const reader = relay.stdout.getReader();
    let text = "";
    while (!text.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    const port = /127\.0\.0\.1:(\d+) -> /.exec(text)?.[1];
    expect(port).toBeDefined();
    // Set by the relay itself, as by the sandbox (its container is a plain `docker run` on a swarm's manager).
    expect(readFileSync(`/proc/${relay.pid}/status`, "utf8")).toContain("NoNewPrivs:\t1\n");
    const run = join(dir, "run");
    mkdirSync(run);
    const up = receiver.expect("relayed", run);
    const { token } = JSON.parse(up.secretText) as { token: string };
    const body = tarball([entry({ name: "result.json", data: "{}\n" })]);
    const r = await fetch(`http://127.0.0.1:${port}/v1/uploads/relayed`, { method: "PUT", headers: { authorization: `Bearer ${token}` }, body });
    expect(r.status).toBe(201);
    expect(readFileSync(join(run, "result.json"), "utf8")).toBe("{}\n");
    relay.kill("SIGTERM");
    expect(await relay.exited).toBe(0);
  } finally {
    relay.kill("SIGKILL");
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("relay without an address and an absolute socket path is a usage error", async () => {
  const p = Bun.spawn([entrypointBin, "relay", "nowhere"], { stdout: "pipe", stderr: "pipe" });
  expect(await p.exited).toBe(2);
  expect((await new Response(p.stderr).text()).trim()).toBe(msg.relayUsage());
});

test("relay with several HOST:PORT SOCKET pairs listens on each; an odd argument count is a usage error", async () => {
  const dir = mkdtempSync(join(tmpdir(), "push-relay-pairs-"));
  const socks = ["a.sock", "b.sock"].map((n) => join(dir, n));
  const servers = socks.map((unix, i) => Bun.serve({ unix, fetch: () => new Response(`server ${i}`) } as unknown as Parameters<typeof Bun.serve>[0]));
  const relay = Bun.spawn([entrypointBin, "relay", "127.0.0.1:0", socks[0] as string, "127.0.0.1:0", socks[1] as string], { stdout: "pipe", stderr: "pipe" });
  try {
    const reader = relay.stdout.getReader();
    let text = "";
    while (text.split("\n").length < 3) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    const ports = [...text.matchAll(/127\.0\.0\.1:(\d+) -> (\S+)/g)].map((m) => [m[1], m[2]]);
    expect(ports.map((p) => p[1])).toEqual(socks);
    expect(await Promise.all(ports.map(async ([port]) => (await fetch(`http://127.0.0.1:${port}/`)).text()))).toEqual(["server 0", "server 1"]);
    const odd = Bun.spawn([entrypointBin, "relay", "127.0.0.1:0", socks[0] as string, "127.0.0.1:0"], { stdout: "pipe", stderr: "pipe" });
    expect(await odd.exited).toBe(2);
    expect((await new Response(odd.stderr).text()).trim()).toBe(msg.relayUsage());
  } finally {
    relay.kill("SIGKILL");
    for (const s of servers) s.stop(true);
    rmSync(dir, { recursive: true, force: true });
  }
});
