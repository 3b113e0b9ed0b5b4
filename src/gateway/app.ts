/**
 * The gateway's Hono app: the three wires (Anthropic Messages + count_tokens, OpenAI Chat
 * Completions, OpenAI Responses) and GET /models, at /v1/... and without /v1. Each call: the run's
 * key (401 unknown, 403 another model), the budget (400 once spent: 429 makes agents retry for
 * hours), hosted tools stripped, the model renamed to the upstream's, forwarded with the upstream's
 * key, the answer passed through byte for byte while its usage is metered, then one ledger line.
 */
import { Hono } from "hono";
import type { Wire } from "../formats/models/model-types.ts";
import { stripHostedTools } from "./hosted-tools.ts";
import type { RunKey } from "./keys.ts";
import type { Caller, LedgerEntry } from "./ledger.ts";
import { msg } from "./messages.ts";
import { providerError } from "./provider-errors.ts";
import { bodyShape, MAX_DEPTH } from "./wires/walk.ts";
import { costOf, noUsage, StreamMeter, type Usage, usageOfBody } from "../formats/models/model-usage.ts";

type Json = Record<string, unknown>;
type Route = Wire | "count_tokens";

const UPSTREAM_PATHS: Record<Route, string> = {
  anthropic: "/messages",
  count_tokens: "/messages/count_tokens",
  chat: "/chat/completions",
  responses: "/responses",
};
const PASSED_HEADERS = ["accept", "anthropic-version", "anthropic-beta", "openai-beta"];

/** The key a client sent, in any of the usual headers. */
export function clientKey(headers: Headers): string | undefined {
  const bearer = headers.get("authorization")?.match(/^Bearer\s+(\S+)$/i)?.[1];
  return bearer ?? headers.get("x-api-key") ?? headers.get("api-key") ?? undefined;
}

export type KeyLookup = (key: string) => RunKey | undefined;

function upstreamRequest(run: RunKey, route: Route, incoming: Request, body: Json, signal: AbortSignal): Request {
  const { config, key } = run.model;
  const base = (config.base_url ?? "http://scripted.invalid/v1").replace(/\/+$/, "");
  // The agent's query string stays here: only anthropic's ?beta=true (claude-code's) goes on, as itself.
  const beta = route === "anthropic" && new URL(incoming.url).searchParams.get("beta") === "true";
  const url = `${base}${UPSTREAM_PATHS[route]}${beta ? "?beta=true" : ""}`;
  const headers = new Headers({ "content-type": "application/json", "user-agent": "ssebench-gateway" });
  for (const name of PASSED_HEADERS) {
    const value = incoming.headers.get(name);
    if (value) headers.set(name, value);
  }
  if (route === "anthropic" || route === "count_tokens") {
    if (!headers.has("anthropic-version")) headers.set("anthropic-version", "2023-06-01");
    if (key) headers.set("x-api-key", key);
  } else if (key) headers.set("authorization", `Bearer ${key}`);
  return new Request(url, { method: "POST", headers, body: JSON.stringify(body), signal });
}

interface Call {
  run: RunKey;
  caller: Caller;
  plugin: string | null;
  route: Route;
  path: string;
  stream: boolean;
  started: number;
  time: string;
  stripped: string[];
  request: Uint8Array | undefined;
}

/** Records the call in the ledger and the run's totals; returns its cost (USD). */
function record(call: Call, status: number, usage: Usage, extra: { firstByte?: number; aborted?: boolean; error?: string; response?: Uint8Array }): number {
  const { run } = call;
  const cost = status >= 200 && status < 300 ? costOf(usage, run.model.config.price) : 0;
  const t = run.totals;
  t.calls++;
  const plugin = call.caller === "plugin";
  if (!plugin && status >= 200 && status < 300 && !(extra.aborted && extra.firstByte === undefined)) t.answered++;
  t.spend = Math.round((t.spend + cost) * 1e10) / 1e10;
  if (plugin) {
    t.plugin_calls++;
    t.plugin_spend = Math.round((t.plugin_spend + cost) * 1e10) / 1e10;
  }
  for (const k of ["input", "output", "cache_read", "cache_write"] as const) t.tokens[k] += usage[k];
  const entry: LedgerEntry = {
    seq: ++run.seq,
    time: call.time,
    run: run.runId,
    caller: call.caller,
    plugin: call.plugin,
    model: run.model.config.name,
    wire: call.route,
    path: call.path,
    stream: call.stream,
    status,
    ms: Math.round(performance.now() - call.started),
    first_byte_ms: extra.firstByte === undefined ? null : Math.round(extra.firstByte - call.started),
    usage,
    cost,
    spent: t.spend,
    stripped: call.stripped,
    aborted: extra.aborted ?? false,
    error: extra.error ?? null,
  };
  run.ledger?.write(entry, call.request, extra.response);
  return cost;
}

/** Passes the upstream's stream through untouched, metering each chunk as it goes by. */
function meteredStream(call: Call, upstream: Response, abort: AbortController): ReadableStream<Uint8Array> {
  const reader = (upstream.body as ReadableStream<Uint8Array>).getReader();
  const meter = new StreamMeter(call.route as Wire);
  const decoder = new TextDecoder();
  const chunks: Uint8Array[] = [];
  let firstByte: number | undefined;
  let done = false;
  const finish = (aborted: boolean, error?: string) => {
    if (done) return;
    done = true;
    meter.end();
    record(call, upstream.status, meter.usage, { firstByte, aborted, error, response: concat(chunks) });
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done: ended } = await reader.read();
        if (ended) {
          finish(false);
          controller.close();
          return;
        }
        firstByte ??= performance.now();
        chunks.push(value);
        meter.push(decoder.decode(value, { stream: true }));
        controller.enqueue(value);
      } catch (e) {
        finish(abort.signal.aborted, abort.signal.aborted ? undefined : String(e));
        controller.error(e);
      }
    },
    cancel() {
      abort.abort();
      reader.cancel().catch(() => {});
      finish(true);
    },
  });
}

function concat(chunks: Uint8Array[]): Uint8Array {
  return Buffer.concat(chunks);
}

/** A plugin's name as it gave it (`x-ssebench-plugin`), kept only when it is a plugin name. */
function pluginName(headers: Headers): string | null {
  const name = headers.get("x-ssebench-plugin") ?? "";
  return /^[a-z0-9][a-z0-9_-]{0,63}$/.test(name) ? name : null;
}

async function handle(lookup: KeyLookup, caller: Caller, route: Route, incoming: Request): Promise<Response> {
  const sent = clientKey(incoming.headers);
  if (!sent) return providerError(route, 401, msg.noKey());
  const run = lookup(sent);
  if (!run) return providerError(route, 401, msg.unknownKey());
  const raw = new Uint8Array(await incoming.arrayBuffer());
  const call: Call = { run, caller, plugin: caller === "plugin" ? pluginName(incoming.headers) : null, route, path: new URL(incoming.url).pathname, stream: false, started: performance.now(), time: new Date().toISOString(), stripped: [], request: raw };
  /** A refusal of the run's call: logged and counted, its body not kept (it costs nothing, so it could fill the disk for free). */
  const refuse = (status: number, message: string, code?: string) => {
    call.request = undefined;
    record(call, status, noUsage(), { error: message });
    return providerError(route, status, message, code);
  };
  let body: Json;
  try {
    body = JSON.parse(new TextDecoder().decode(raw)) as Json;
    if (body === null || typeof body !== "object" || Array.isArray(body)) throw new Error("not an object");
  } catch {
    return refuse(400, msg.badJson());
  }
  call.stream = body.stream === true;
  const { config } = run.model;
  if (typeof body.model !== "string") return refuse(400, msg.modelNotName());
  if (bodyShape(body).tooDeep) return refuse(400, msg.tooDeep(MAX_DEPTH));
  if (body.model !== config.name) return refuse(403, msg.otherModel(shortened(body.model), config.name));
  const wire: Wire = route === "count_tokens" ? "anthropic" : route;
  if (!config.wires.includes(wire)) return refuse(400, msg.wireNotServed(config.name, wire));
  if (run.totals.spend >= run.budget) return refuse(400, msg.budgetSpent(run.totals.spend, run.budget), "budget_exceeded");
  call.stripped = stripHostedTools(wire, config.provider, body);
  body.model = config.upstream_model ?? config.name;
  if (route === "chat" && call.stream) body.stream_options = { ...(body.stream_options as Json | undefined), include_usage: true };
  const abort = new AbortController();
  const onClientGone = () => abort.abort();
  incoming.signal.addEventListener("abort", onClientGone, { once: true });
  let upstream: Response;
  try {
    upstream = await run.model.upstream(upstreamRequest(run, route, incoming, body, abort.signal));
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    record(call, 502, noUsage(), { error: detail, aborted: abort.signal.aborted });
    return providerError(route, 502, msg.upstreamFailed(detail));
  }
  const type = upstream.headers.get("content-type") ?? "application/json";
  const ok = upstream.status >= 200 && upstream.status < 300;
  if (ok && type.startsWith("text/event-stream") && upstream.body) {
    return new Response(meteredStream(call, upstream, abort), {
      status: upstream.status,
      headers: { "content-type": type, "cache-control": "no-cache" },
    });
  }
  const bytes = new Uint8Array(await upstream.arrayBuffer());
  const firstByte = performance.now();
  let usage = noUsage();
  if (ok && route !== "count_tokens") {
    try {
      usage = usageOfBody(wire, JSON.parse(new TextDecoder().decode(bytes)));
    } catch {
      // an answer that is not JSON has no usage to meter
    }
  }
  const cost = record(call, upstream.status, usage, { firstByte, response: bytes });
  // What the call cost and the run has spent: a client cannot know the prices (the oracle plugin reads them).
  return new Response(bytes, { status: upstream.status, headers: { "content-type": type, "x-ssebench-cost": String(cost), "x-ssebench-spent": String(run.totals.spend) } });
}

/** An agent's text in a message, cut short: it goes into the answer and the ledger line. */
function shortened(text: string): string {
  return text.length > 64 ? `${text.slice(0, 64)}…` : text;
}

/** GET /models (the key's model only) and GET /models/{id} (that model, else 404). */
function models(lookup: KeyLookup, incoming: Request, id?: string): Response {
  const sent = clientKey(incoming.headers);
  const run = sent ? lookup(sent) : undefined;
  if (!run) return providerError("models", 401, sent ? msg.unknownKey() : msg.noKey());
  const { name, provider, wires } = run.model.config;
  // `wires` is ssebench's: a client (the oracle plugin) picks an API the model speaks.
  const entry = { id: name, object: "model", created: 0, owned_by: provider, type: "model", display_name: name, wires };
  if (id === undefined) return Response.json({ object: "list", data: [entry] });
  return id === name ? Response.json(entry) : providerError("models", 404, msg.otherModel(id, name));
}

/**
 * `caller` marks every call of this app in the ledger: the run's plugin socket gets its own app
 * (`plugin`), so the marking depends on which socket a call came through, never on what it says.
 */
export function createGatewayApp(lookup: KeyLookup, caller: Caller = "agent"): Hono {
  const app = new Hono();
  for (const prefix of ["/v1", ""]) {
    app.post(`${prefix}/messages/count_tokens`, (c) => handle(lookup, caller, "count_tokens", c.req.raw));
    app.post(`${prefix}/messages`, (c) => handle(lookup, caller, "anthropic", c.req.raw));
    app.post(`${prefix}/chat/completions`, (c) => handle(lookup, caller, "chat", c.req.raw));
    app.post(`${prefix}/responses`, (c) => handle(lookup, caller, "responses", c.req.raw));
    app.get(`${prefix}/models`, (c) => models(lookup, c.req.raw));
    app.get(`${prefix}/models/:id`, (c) => models(lookup, c.req.raw, c.req.param("id")));
  }
  app.notFound((c) => providerError("chat", 404, msg.notFound(shortened(new URL(c.req.url).pathname))));
  // Never a stack on the terminal nor in an answer: one line, and a provider-shaped 500.
  app.onError((e) => {
    process.stderr.write(`${msg.internalError(e instanceof Error ? e.message : String(e))}\n`);
    return providerError("chat", 500, msg.internalError(e instanceof Error ? e.message : String(e)));
  });
  return app;
}
