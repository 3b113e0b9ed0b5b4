/** `ssebench gateway serve` as a real process: keys on stdout, calls over 127.0.0.1, SIGTERM → exit 0, bad flags. */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { msg } from "../../src/gateway/messages.ts";
import { repoRoot, ssebench, ssebenchBin, tempDir } from "../helpers/cli.ts";
import { post, requestBody } from "./support.ts";

const ledger = tempDir("ssebench-serve-ledger-");
afterAll(() => ledger.cleanup());

async function readUntil(stream: ReadableStream<Uint8Array>, done: (text: string) => boolean): Promise<string> {
  const reader = stream.getReader();
  let text = "";
  while (!done(text)) {
    const { value, done: ended } = await reader.read();
    if (ended) break;
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return text;
}

describe("ssebench gateway serve", () => {
  test("serves the scripted model with the printed key; SIGTERM stops it with exit 0", async () => {
    const proc = Bun.spawn([ssebenchBin, "gateway", "serve", "--model", "scripted", "--port", "0", "--budget", "1", "--ledger", ledger.path], {
      cwd: repoRoot,
      stdout: "pipe",
      stderr: "pipe",
    });
    const out = await readUntil(proc.stdout, (t) => t.includes("\n"));
    const err = await readUntil(proc.stderr, (t) => t.includes("\n"));
    const key = out.match(/^key for scripted: (sk-ssebench-\S+)$/m)?.[1] as string;
    const url = err.match(/listening on (http:\/\/127\.0\.0\.1:\d+) for scripted/)?.[1] as string;
    expect(key).toBeString();
    expect(url).toBeString();
    const r = await post(`${url}/v1/responses`, key, requestBody("responses", "scripted", { stream: true, tools: ["exec_command"] }));
    expect(await r.text()).toContain("response.completed");
    const models = await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
    expect(((await models.json()) as any).data.map((m: any) => m.id)).toEqual(["scripted"]);
    proc.kill("SIGTERM");
    expect(await proc.exited).toBe(0);
    const entry = JSON.parse(readFileSync(join(ledger.path, "model-calls.jsonl"), "utf8").trim());
    expect(entry).toMatchObject({ run: "serve-scripted", wire: "responses", status: 200, usage: { input: 100, output: 20 } });
  });

  test("a bad port is a usage error; an unknown model lists the models", async () => {
    expect(await ssebench(["gateway", "serve", "--port", "99999"])).toEqual({ exitCode: 2, stdout: "", stderr: `${msg.badPort("99999")}\n` });
    const r = await ssebench(["gateway", "serve", "--model", "nosuch"]);
    expect([r.exitCode, r.stderr]).toEqual([1, `${msg.unknownModel("nosuch", ["claude-sonnet-4-6", "gpt-5", "scripted"])}\n`]);
    const noKey = await ssebench(["gateway", "serve", "--model", "gpt-5"]);
    expect([noKey.exitCode, noKey.stderr]).toEqual([1, `${msg.keyMissing("models/gpt-5.yaml", "gpt-5", "OPENAI_API_KEY")}\n`]);
  });

  test("--models naming a file, and a --ledger that is a file, are one line each before anything is served", async () => {
    const file = join(repoRoot, "package.json");
    expect(await ssebench(["gateway", "serve", "--port", "0", "--models", file])).toEqual({ exitCode: 1, stdout: "", stderr: `${msg.modelsNotFolder(file)}\n` });
    const r = await ssebench(["gateway", "serve", "--port", "0", "--model", "scripted", "--ledger", file]);
    expect(r).toEqual({ exitCode: 1, stdout: "", stderr: `${msg.ledgerUnusable(file, `EEXIST: file already exists, mkdir '${file}'`)}\n` });
    expect(await ssebench(["gateway", "serve", "--port", "0", "--model", ""])).toEqual({ exitCode: 2, stdout: "", stderr: `${msg.emptyModelFlag()}\n` });
  });
});
