/**
 * A stream the model pauses for longer than Bun's default 10 s idle timeout arrives whole, on the
 * run's path (the entrypoint's forwarder, the gateway's Unix socket) and on the TCP listener.
 * Without `idleTimeout: 0` this test fails (the stream is cut after ~12 s; 10.5 s still passed,
 * Bun checks timeouts every few seconds, hence 15 s).
 */
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Gateway } from "../../src/gateway/server.ts";
import { MODEL_KEY_FILE, MODEL_SOCKET } from "../../src/contract/model.ts";
import { modelAccessSettings } from "../../src/runtime/config.ts";
import { openModelAccess } from "../../src/runtime/relay/model-access.ts";
import { tempDir } from "../helpers/cli.ts";
import type { ModelConfig } from "../../src/formats/models/model-types.ts";
import { pausingUpstream, post, PRICE, requestBody } from "./support.ts";

setDefaultTimeout(60_000);
const dir = tempDir("ssebench-idle-");
// An upstream that sends one chunk, pauses 15 s, then ends the stream.
const upstream = pausingUpstream(15_000);
const config: ModelConfig = { name: "scripted-test", provider: "other", upstream_model: "u", base_url: `http://127.0.0.1:${upstream.port}/v1`, key_env: "X", wires: ["chat"], price: PRICE };
const model = { config, key: "k", upstream: (r: Request) => fetch(r) };
const gateway = new Gateway();
const run = gateway.issue("idle", model, 10, dir.path);
const access = gateway.serveRun(run, join(dir.path, MODEL_SOCKET));
writeFileSync(join(dir.path, MODEL_KEY_FILE), run.key);
const tcp = gateway.serveTcp("127.0.0.1", 0);
afterAll(async () => {
  await access.close();
  tcp.stop(true);
  upstream.stop(true);
  dir.cleanup();
});

test("a stream paused for 15 s arrives whole through the forwarder and the socket, and over TCP", async () => {
  const { SSE_BASE_URL: base } = openModelAccess(modelAccessSettings({ SSE_MODEL_DIR: dir.path, SSE_MODEL_PORT: "0" }));
  const body = requestBody("chat", "scripted-test", { stream: true });
  const [viaRun, viaTcp] = await Promise.all([
    post(`${base}/v1/chat/completions`, run.key, body).then((r) => r.text()),
    post(`http://127.0.0.1:${tcp.port}/v1/chat/completions`, run.key, body).then((r) => r.text()),
  ]);
  for (const text of [viaRun, viaTcp]) {
    expect(text).toContain('"content":"paused"');
    expect(text.trimEnd().endsWith("data: [DONE]")).toBe(true);
  }
});
