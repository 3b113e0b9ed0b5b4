/**
 * A Swarm trial's way to the model: no mounted folder, a root-only secret with the key and the TCP
 * addresses of its relay; the entrypoint forwards 127.0.0.1:<port> there, and the relay (the real
 * `relay` listener) on to the run's gateway sockets, agent and plugin (real sockets, real HTTP).
 * A secret the agent could read, or one without a key or an address, is one line.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Gateway } from "../../src/gateway/server.ts";
import { msg } from "../../src/runtime/messages.ts";
import { MODEL_PLUGIN_SOCKET, MODEL_SOCKET } from "../../src/contract/model.ts";
import { modelAccessSettings } from "../../src/runtime/config.ts";
import { openModelAccess, pluginModelKey, routeLaterCallsToPlugins } from "../../src/runtime/relay/model-access.ts";
import { relayTcp } from "../../src/runtime/relay/socket-relay.ts";
import { tempDir } from "../helpers/cli.ts";
import { post, requestBody, scriptedModel } from "../gateway/support.ts";

const dir = tempDir("ssebench-model-secret-");
const gateway = new Gateway();
const run = gateway.issue("r", scriptedModel(), 10, dir.path);
const access = gateway.serveRun(run, join(dir.path, MODEL_SOCKET), join(dir.path, MODEL_PLUGIN_SOCKET));
// The trial's relay: one TCP port per gateway socket.
const agentRelay = relayTcp("127.0.0.1", 0, () => join(dir.path, MODEL_SOCKET));
const pluginRelay = relayTcp("127.0.0.1", 0, () => join(dir.path, MODEL_PLUGIN_SOCKET));
const secret = join(dir.path, "ssebench-model");
const noFolder = join(dir.path, "no-model-folder");
afterAll(async () => {
  agentRelay.stop(true);
  pluginRelay.stop(true);
  await access.close();
  dir.cleanup();
});

function writeSecret(doc: unknown, mode = 0o400): void {
  writeFileSync(secret, typeof doc === "string" ? doc : JSON.stringify(doc), { mode: 0o600 });
  chmodSync(secret, mode);
}

describe("model access through a Swarm secret", () => {
  test("a secret the agent could read, not JSON, without a key or a TCP address: one line each", () => {
    const open = () => openModelAccess(modelAccessSettings({ SSE_MODEL_DIR: noFolder, SSE_MODEL_FILE: secret, SSE_MODEL_PORT: "0" }));
    const good = { key: run.key, agent: `127.0.0.1:${agentRelay.port}` };
    writeSecret(good, 0o444);
    expect(open).toThrow(msg.modelFile(secret, "is readable by other users (mode 0444); give it mode 0400 or 0600"));
    writeSecret("{not json");
    expect(open).toThrow(msg.modelFile(secret, "is not JSON"));
    writeSecret({ ...good, key: "" });
    expect(open).toThrow(msg.modelFile(secret, 'has no "key"'));
    writeSecret({ ...good, agent: "/run/ssebench/model.sock" });
    expect(open).toThrow(msg.modelFile(secret, 'has no "agent" (host:port)'));
    writeSecret({ ...good, plugin: "nowhere" });
    expect(open).toThrow(msg.modelFile(secret, 'has no "plugin" (host:port)'));
    expect(openModelAccess(modelAccessSettings({ SSE_MODEL_DIR: noFolder, SSE_MODEL_FILE: join(dir.path, "absent") }))).toEqual({});
  });

  test("the key from the secret; calls reach the gateway over TCP, marked as the plugin's once routed there", async () => {
    writeSecret({ key: run.key, agent: `127.0.0.1:${agentRelay.port}`, plugin: `127.0.0.1:${pluginRelay.port}` });
    const vars = openModelAccess(modelAccessSettings({ SSE_MODEL_DIR: noFolder, SSE_MODEL_FILE: secret, SSE_MODEL_PORT: "0" }));
    expect(vars.SSE_API_KEY).toBe(run.key);
    const base = vars.SSE_BASE_URL as string;
    // Connections already open keep their socket: the agent's is closed, as its processes are gone by then.
    const streamed = await post(`${base}/v1/messages`, vars.SSE_API_KEY, requestBody("anthropic", "scripted-test", { stream: true }), { connection: "close" });
    expect(await streamed.text()).toContain("event: message_stop");
    expect(routeLaterCallsToPlugins()).toBe(true);
    const plain = await post(`${base}/v1/chat/completions`, vars.SSE_API_KEY, requestBody("chat", "scripted-test", { stream: false }), { "x-ssebench-plugin": "oracle" });
    expect(plain.status).toBe(200);
    await run.ledger?.flush();
    const lines = readFileSync(join(dir.path, "model-calls.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { caller: string; plugin: string | null });
    expect(lines.map((l) => [l.caller, l.plugin])).toEqual([
      ["agent", null],
      ["plugin", "oracle"],
    ]);
    expect([run.totals.calls, run.totals.plugin_calls, run.totals.answered]).toEqual([2, 1, 1]);
  });
});

describe("the plugin socket's own key (a Swarm relay exposes the plugin port to the agent too)", () => {
  test("the agent's key is refused on the plugin port; after grading the plugins get their key, whose calls are the plugin's", async () => {
    const own = new Gateway();
    const r = own.issue("rp", scriptedModel(), 10, dir.path);
    const pluginKey = "sk-ssebench-plugin-test-0123456789";
    const served = own.serveRun(r, join(dir.path, "p-model.sock"), join(dir.path, "p-plugin.sock"), pluginKey);
    const agentPort = relayTcp("127.0.0.1", 0, () => join(dir.path, "p-model.sock"));
    const pluginPort = relayTcp("127.0.0.1", 0, () => join(dir.path, "p-plugin.sock"));
    try {
      const chat = () => requestBody("chat", "scripted-test", { stream: false });
      // What an agent on the trial's network can do: the relay's plugin port with its own key.
      expect((await post(`http://127.0.0.1:${pluginPort.port}/v1/chat/completions`, r.key, chat())).status).toBe(401);
      writeSecret({ key: r.key, agent: `127.0.0.1:${agentPort.port}`, plugin: `127.0.0.1:${pluginPort.port}`, plugin_key: pluginKey });
      const vars = openModelAccess(modelAccessSettings({ SSE_MODEL_DIR: noFolder, SSE_MODEL_FILE: secret, SSE_MODEL_PORT: "0" }));
      expect(vars.SSE_API_KEY).toBe(r.key);
      expect(pluginModelKey()).toBe(pluginKey);
      expect(routeLaterCallsToPlugins()).toBe(true);
      const base = vars.SSE_BASE_URL as string;
      expect((await post(`${base}/v1/chat/completions`, r.key, chat())).status).toBe(401);
      expect((await post(`${base}/v1/chat/completions`, pluginKey, chat(), { "x-ssebench-plugin": "oracle" })).status).toBe(200);
      expect([r.totals.calls, r.totals.plugin_calls]).toEqual([1, 1]);
      writeSecret({ key: r.key, agent: `127.0.0.1:${agentPort.port}`, plugin_key: 7 });
      expect(() => openModelAccess(modelAccessSettings({ SSE_MODEL_DIR: noFolder, SSE_MODEL_FILE: secret, SSE_MODEL_PORT: "0" }))).toThrow(msg.modelFile(secret, 'has a malformed "plugin_key"'));
    } finally {
      agentPort.stop(true);
      pluginPort.stop(true);
      await served.close();
    }
  });
});
