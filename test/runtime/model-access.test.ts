/**
 * The entrypoint's way to the model: the key read from the mounted folder, and 127.0.0.1:<port>
 * forwarded byte for byte to the run's gateway socket (real sockets, real HTTP), streams and large
 * bodies included. The socket answers its own run's key only.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { msg } from "../../src/runtime/messages.ts";
import { MODEL_KEY_FILE, MODEL_SOCKET } from "../../src/contract/model.ts";
import { modelAccessSettings } from "../../src/runtime/config.ts";
import { openModelAccess } from "../../src/runtime/relay/model-access.ts";
import { Gateway } from "../../src/gateway/server.ts";
import { tempDir } from "../helpers/cli.ts";
import { post, requestBody, scriptedModel } from "../gateway/support.ts";

const dir = tempDir("ssebench-model-access-");
const gateway = new Gateway();
const run = gateway.issue("r", scriptedModel(), 10, dir.path);
const other = gateway.issue("other", scriptedModel());
const access = gateway.serveRun(run, join(dir.path, MODEL_SOCKET));
writeFileSync(join(dir.path, MODEL_KEY_FILE), `${run.key}\n`, { mode: 0o600 });
afterAll(async () => {
  await access.close();
  dir.cleanup();
});

describe("model access inside the container", () => {
  const vars = openModelAccess(modelAccessSettings({ SSE_MODEL_DIR: dir.path, SSE_MODEL_PORT: "0" }));

  test("no socket: no variables", () => {
    expect(openModelAccess(modelAccessSettings({ SSE_MODEL_DIR: join(dir.path, "nowhere") }))).toEqual({});
  });

  test("the key from the file and a loopback base URL", () => {
    expect(vars.SSE_API_KEY).toBe(run.key);
    expect(vars.SSE_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  test("calls through the forwarder: streamed, not streamed, a 1 MB request body", async () => {
    const base = vars.SSE_BASE_URL as string;
    const plain = await post(`${base}/v1/chat/completions`, vars.SSE_API_KEY, requestBody("chat", "scripted-test", { stream: false, tools: ["bash"] }));
    expect(((await plain.json()) as any).choices[0].finish_reason).toBe("tool_calls");
    const streamed = await post(`${base}/v1/messages`, vars.SSE_API_KEY, requestBody("anthropic", "scripted-test", { stream: true }));
    expect(await streamed.text()).toContain("event: message_stop");
    const big = requestBody("responses", "scripted-test", { stream: true });
    (big.input as unknown[]).push({ role: "user", content: "x".repeat(1 << 20) });
    const r = await post(`${base}/responses`, vars.SSE_API_KEY, big);
    expect(await r.text()).toContain("response.completed");
    expect(run.totals.answered).toBe(3);
  });

  test("a socket without its key file, a port in use: one line each", () => {
    const bare = join(dir.path, "bare");
    mkdirSync(bare);
    writeFileSync(join(bare, MODEL_SOCKET), "");
    expect(() => openModelAccess(modelAccessSettings({ SSE_MODEL_DIR: bare }))).toThrow(msg.modelKeyUnreadable(bare, `ENOENT: no such file or directory, open '${join(bare, MODEL_KEY_FILE)}'`));
    const port = new URL(vars.SSE_BASE_URL as string).port;
    expect(() => openModelAccess(modelAccessSettings({ SSE_MODEL_DIR: dir.path, SSE_MODEL_PORT: port }))).toThrow(new RegExp(`^Cannot listen on 127\\.0\\.0\\.1:${port} for the model: `));
  });

  test("the run's socket refuses another run's key", async () => {
    const r = await post(`${vars.SSE_BASE_URL}/v1/chat/completions`, other.key, requestBody("chat", "scripted-test", { stream: false }));
    expect(r.status).toBe(401);
  });
});
