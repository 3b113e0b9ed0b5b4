/**
 * One agent must not starve the other trials of a job (issue 27 item 3): `ssebench gateway serve`
 * as a real process with its file-descriptor limit at 512, two runs' keys; one run opens 600
 * connections that send their headers and stall their bodies. A normal call of the other run is
 * still answered (within the issue's 30 s; a fetch timeout, not a measurement), the stalled run
 * holds at most its cap of calls in flight, and each dropped connection is one line on stderr.
 */
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_LIMITS } from "../../src/gateway/limits.ts";
import { msg } from "../../src/gateway/messages.ts";
import { repoRoot, ssebenchBin, tempDir } from "../helpers/cli.ts";
import { requestBody } from "./support.ts";

setDefaultTimeout(120_000);
const dir = tempDir("ssebench-serve-limits-");
afterAll(() => dir.cleanup());

async function readLines(stream: ReadableStream<Uint8Array>, count: number): Promise<string> {
  const reader = stream.getReader();
  let text = "";
  while (text.split("\n").length <= count) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return text;
}

test("600 stalled request bodies of one run at an fd limit of 512: another run's call is answered; one line per dropped connection", async () => {
  const models = join(dir.path, "models");
  mkdirSync(join(models, "scripts"), { recursive: true });
  cpSync(join(repoRoot, "models/scripts/smoke.yaml"), join(models, "scripts/smoke.yaml"));
  for (const name of ["greedy", "other"]) {
    writeFileSync(join(models, `${name}.yaml`), `name: ${name}\nprovider: scripted\nwires: [chat]\nprice: {input: 3, output: 15}\nscript: scripts/smoke.yaml\n`);
  }
  const proc = Bun.spawn(["prlimit", "--nofile=512:512", ssebenchBin, "gateway", "serve", "--models", models, "--port", "0"], { cwd: dir.path, stdout: "pipe", stderr: "pipe" });
  const out = await readLines(proc.stdout, 2);
  const keys = Object.fromEntries([...out.matchAll(/^key for (\w+): (sk-ssebench-\S+)$/gm)].map((m) => [m[1], m[2]]));
  const listening = await readLines(proc.stderr, 1);
  const url = listening.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/)?.[1] as string;
  expect(url).toBeString();
  const port = Number(new URL(url).port);

  const stalled: { end: () => void }[] = [];
  let refused = 0;
  for (let i = 0; i < 600; i++) {
    const socket = await Bun.connect({
      hostname: "127.0.0.1",
      port,
      socket: {
        data: (_s, d) => {
          if (d.toString().startsWith("HTTP/1.1 429")) refused++;
        },
        error: () => {},
      },
    });
    socket.write(`POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${keys.greedy}\r\nContent-Length: 1000\r\n\r\n{"model":`);
    stalled.push(socket);
  }

  const timed = await fetch(`${url}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${keys.other}` }, body: JSON.stringify(requestBody("chat", "other", { stream: true })), signal: AbortSignal.timeout(30_000) });
  expect(await timed.text()).toContain("[DONE]");
  for (let i = 0; i < 200 && refused < 600 - DEFAULT_LIMITS.maxCalls; i++) await Bun.sleep(20);
  expect(refused).toBe(600 - DEFAULT_LIMITS.maxCalls);

  for (const s of stalled) s.end();
  await Bun.sleep(1000);
  proc.kill("SIGTERM");
  expect(await proc.exited).toBe(0);
  const stderr = (await readLines(proc.stderr, Number.POSITIVE_INFINITY)).trim().split("\n");
  expect(stderr).toHaveLength(DEFAULT_LIMITS.maxCalls);
  expect(new Set(stderr)).toEqual(new Set([msg.clientLeft("serve-greedy", 9)]));
});
