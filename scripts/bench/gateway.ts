/**
 * Gateway overhead: bun scripts/bench/gateway.ts [--calls N] [--paced-calls N] [--concurrency C] [--no-ledger]
 *
 * A streamed Chat Completions call (about 60 events) to the scripted model served over HTTP on
 * 127.0.0.1, once with every event at once ("instant": the gateway's absolute cost per call) and
 * once paced like a model (5 ms between events), measured three ways in the same run:
 *   direct   client → scripted upstream (baseline)
 *   gateway  client → gateway (TCP) → scripted upstream over HTTP: keys, the budget's reservation
 *            (worst case held, cap set, settled at the end), stripping, metering, ledger
 *   run path client → 127.0.0.1 forwarder (the entrypoint's) → gateway Unix socket → upstream over HTTP
 *   swarm    client → forwarder → TCP → the trial's relay → gateway Unix socket → upstream (a Swarm
 *            trial's path, docs/backends.md; here on loopback, so without the overlay's own hop)
 * Per call: time to the first byte and to the last; then throughput with C concurrent clients.
 * Prints medians and the ratio of each path to the direct one.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { ModelConfig } from "../../src/formats/models/model-types.ts";
import type { ModelScript } from "../../src/formats/models/model-script.ts";
import { scriptedUpstream, serveScripted } from "../../src/gateway/scripted/provider.ts";
import { Gateway } from "../../src/gateway/server.ts";
import { MODEL_KEY_FILE, MODEL_SOCKET } from "../../src/contract/model.ts";
import { modelAccessSettings } from "../../src/runtime/config.ts";
import { openModelAccess } from "../../src/runtime/relay/model-access.ts";
import { relayTcp } from "../../src/runtime/relay/socket-relay.ts";
import { tempDir } from "../../test/helpers/cli.ts";

const { values } = parseArgs({
  options: {
    calls: { type: "string", default: "300" },
    "paced-calls": { type: "string", default: "20" },
    concurrency: { type: "string", default: "8" },
    "no-ledger": { type: "boolean", default: false },
  },
});
const concurrency = Number(values.concurrency);
const keepLedger = !values["no-ledger"];

async function scenario(label: string, delayMs: number, calls: number): Promise<void> {
const script: ModelScript = {
  turns: [{ text: "word ".repeat(200), calls: [] }],
  no_tools: "word ".repeat(200),
  usage: { input: 1000, output: 200, cache_read: 0, cache_write: 0 },
  delay_ms: delayMs,
};
const upstream = serveScripted(scriptedUpstream(script, "bench"));
const config: ModelConfig = { name: "bench", provider: "other", upstream_model: "bench", base_url: upstream.url, key_env: "X", wires: ["chat"], price: { input: 1, output: 1, cache_read: 0, cache_write: 0 } };
const dir = tempDir("ssebench-bench-gw-");
const gateway = new Gateway();
const model = { config, key: "upstream-key", upstream: (r: Request) => fetch(r) };
const tcpRun = gateway.issue("bench-tcp", model, 1e9, keepLedger ? dir.path : undefined);
const tcp = gateway.serveTcp("127.0.0.1", 0);
mkdirSync(join(dir.path, "socket-run"));
const socketRun = gateway.issue("bench-socket", model, 1e9, keepLedger ? join(dir.path, "socket-run") : undefined);
const access = gateway.serveRun(socketRun, join(dir.path, MODEL_SOCKET));
writeFileSync(join(dir.path, MODEL_KEY_FILE), socketRun.key);
const forwarded = openModelAccess(modelAccessSettings({ SSE_MODEL_DIR: dir.path, SSE_MODEL_PORT: "0" }));
// The swarm path's two hops with the same relay code: the entrypoint's forwarder to a TCP target, the relay to the socket.
const relay = relayTcp("127.0.0.1", 0, () => join(dir.path, MODEL_SOCKET));
const swarmForwarder = relayTcp("127.0.0.1", 0, () => `127.0.0.1:${relay.port}`);

const body = JSON.stringify({ model: "bench", stream: true, messages: [{ role: "user", content: "go" }] });
const paths = {
  direct: { url: `${upstream.url}/chat/completions`, key: "upstream-key" },
  gateway: { url: `http://127.0.0.1:${tcp.port}/v1/chat/completions`, key: tcpRun.key },
  "run path": { url: `${forwarded.SSE_BASE_URL}/v1/chat/completions`, key: socketRun.key },
  swarm: { url: `http://127.0.0.1:${swarmForwarder.port}/v1/chat/completions`, key: socketRun.key },
};
type Path = keyof typeof paths;

async function call(path: Path): Promise<{ first: number; total: number }> {
  const { url, key } = paths[path];
  const start = performance.now();
  const r = await fetch(url, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body });
  const reader = (r.body as ReadableStream<Uint8Array>).getReader();
  let first = 0;
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    if (!first) first = performance.now() - start;
    text += new TextDecoder().decode(value);
  }
  if (!text.includes("[DONE]")) throw new Error(`${path}: incomplete stream`);
  return { first, total: performance.now() - start };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};

const order = Object.keys(paths) as Path[];
for (const p of order) for (let i = 0; i < Math.min(30, calls); i++) await call(p); // warm-up
const latency: Record<string, { first: number[]; total: number[] }> = {};
for (const p of order) latency[p] = { first: [], total: [] };
// Interleaved, so drift on a shared machine hits every path alike.
for (let i = 0; i < calls; i++) {
  for (const p of order) {
    const t = await call(p);
    latency[p]?.first.push(t.first);
    latency[p]?.total.push(t.total);
  }
}
const throughput: Record<string, number> = {};
for (const p of order) {
  const start = performance.now();
  let left = calls;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left-- > 0) await call(p);
    }),
  );
  throughput[p] = calls / ((performance.now() - start) / 1000);
}

const base = latency.direct as { first: number[]; total: number[] };
console.log(`\n${label}: streamed chat call, ${calls} calls per path, ${concurrency} concurrent for throughput, ledger ${keepLedger ? "on" : "off"}`);
console.log("path       first byte ms (ratio)   whole call ms (ratio)   calls/s (ratio)");
for (const p of order) {
  const l = latency[p] as { first: number[]; total: number[] };
  const f = median(l.first);
  const t = median(l.total);
  const th = throughput[p] as number;
  console.log(
    `${p.padEnd(10)} ${f.toFixed(3).padStart(8)} (${(f / median(base.first)).toFixed(2)}x)      ${t.toFixed(3).padStart(8)} (${(t / median(base.total)).toFixed(2)}x)      ${th.toFixed(0).padStart(6)} (${(th / (throughput.direct as number)).toFixed(2)}x)`,
  );
}
console.log(`metered: ${tcpRun.totals.calls + socketRun.totals.calls} calls, ${tcpRun.totals.tokens.output + socketRun.totals.tokens.output} output tokens`);
swarmForwarder.stop(true);
relay.stop(true);
await access.close();
tcp.stop(true);
upstream.stop();
dir.cleanup();
}

await scenario("instant", 0, Number(values.calls));
await scenario("paced (5 ms between events)", 5, Number(values["paced-calls"]));
process.exit(0);
