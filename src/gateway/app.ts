/**
 * The gateway's Hono app: the four wires (Anthropic Messages + count_tokens, OpenAI Chat
 * Completions, OpenAI Responses at /v1/... and without /v1; Gemini generateContent,
 * streamGenerateContent and countTokens at /v1beta/models/{model}:{method}, /v1/… and without a
 * version) and GET /models. Each call: the run's
 * key (401 unknown, 403 another model), a slot among the run's calls in flight (429 beyond), the
 * body within its bounds (413, 408), hosted tools stripped, the model renamed to the upstream's,
 * the call's worst case reserved against the budget (400 when nothing fits: 429 makes agents retry
 * for hours), forwarded with the upstream's key (forward.ts), then one ledger line when it is settled.
 */
import type { Server } from "bun";
import { Hono } from "hono";
import type { Wire } from "../formats/models/model-types.ts";
import { noUsage } from "../formats/models/model-usage.ts";
import { type Reservation, reserve } from "./budget.ts";
import { type Call, isCount, record, type Route, routeWire } from "./call.ts";
import { forward } from "./forward.ts";
import { stripHostedTools } from "./hosted-tools.ts";
import type { RunKey } from "./keys.ts";
import type { Caller } from "./ledger.ts";
import { DEFAULT_LIMITS, type GatewayLimits, readRequestBody } from "./limits.ts";
import { msg } from "./messages.ts";
import { providerError } from "./provider-errors.ts";
import { ADAPTERS } from "./wires/adapters.ts";
import { type GeminiMethod, geminiTarget } from "./wires/gemini.ts";
import { bodyShape, MAX_DEPTH } from "./wires/walk.ts";
import type { Json } from "./wires/wire-adapter.ts";

const UPSTREAM_PATHS: Record<Exclude<Route, "gemini" | "gemini_count_tokens">, string> = {
  anthropic: "/messages",
  count_tokens: "/messages/count_tokens",
  chat: "/chat/completions",
  responses: "/responses",
};

/** What a gemini path names: the model and the method (the other wires name the model in the body). */
interface PathTarget {
  model: string;
  method: GeminiMethod;
}
const PASSED_HEADERS = ["accept", "anthropic-version", "anthropic-beta", "openai-beta"];

/** The key a client sent, in any of the usual headers (gemini clients: x-goog-api-key, or `?key=`). */
export function clientKey(headers: Headers, url?: string): string | undefined {
  const bearer = headers.get("authorization")?.match(/^Bearer\s+(\S+)$/i)?.[1];
  const header = bearer ?? headers.get("x-api-key") ?? headers.get("api-key") ?? headers.get("x-goog-api-key");
  return header ?? (url ? (new URL(url).searchParams.get("key") ?? undefined) : undefined);
}

export type KeyLookup = (key: string) => RunKey | undefined;

/** The upstream's URL: its base and the route's path; a gemini path names the upstream model and the method. */
function upstreamUrl(run: RunKey, route: Route, incoming: Request, target: PathTarget | undefined): string {
  const { config } = run.model;
  const base = (config.base_url ?? "http://scripted.invalid/v1").replace(/\/+$/, "");
  const query = new URL(incoming.url).searchParams;
  // The agent's query string stays here: only anthropic's ?beta=true (claude-code's) and gemini's
  // ?alt=sse (a stream as server-sent events, not one JSON array) go on, as themselves.
  if (route === "gemini" || route === "gemini_count_tokens") {
    const model = encodeURIComponent(config.upstream_model ?? config.name);
    const sse = target?.method === "streamGenerateContent" && query.get("alt") === "sse";
    return `${base}/models/${model}:${target?.method ?? "generateContent"}${sse ? "?alt=sse" : ""}`;
  }
  const beta = route === "anthropic" && query.get("beta") === "true";
  return `${base}${UPSTREAM_PATHS[route]}${beta ? "?beta=true" : ""}`;
}

function upstreamRequest(run: RunKey, route: Route, incoming: Request, target: PathTarget | undefined, body: string, signal: AbortSignal): Request {
  const { key } = run.model;
  const url = upstreamUrl(run, route, incoming, target);
  const headers = new Headers({ "content-type": "application/json", "user-agent": "ssebench-gateway" });
  for (const name of PASSED_HEADERS) {
    const value = incoming.headers.get(name);
    if (value) headers.set(name, value);
  }
  if (route === "anthropic" || route === "count_tokens") {
    if (!headers.has("anthropic-version")) headers.set("anthropic-version", "2023-06-01");
    if (key) headers.set("x-api-key", key);
  } else if (route === "gemini" || route === "gemini_count_tokens") {
    if (key) headers.set("x-goog-api-key", key);
  } else if (key) headers.set("authorization", `Bearer ${key}`);
  return new Request(url, { method: "POST", headers, body, signal });
}

/** A plugin's name as it gave it (`x-ssebench-plugin`), kept only when it is a plugin name. */
function pluginName(headers: Headers): string | null {
  const name = headers.get("x-ssebench-plugin") ?? "";
  return /^[a-z0-9][a-z0-9_-]{0,63}$/.test(name) ? name : null;
}

/** How an app serves its calls: the keys it answers, who calls, the limits and where it reports. */
export interface Serving {
  lookup: KeyLookup;
  caller: Caller;
  limits: GatewayLimits;
  /** one line per dropped connection */
  log: (line: string) => void;
  /** a call the upstream failed (the gateway says the first of a run at once) */
  upstreamFailed: (run: RunKey, detail: string) => void;
}

const stderrLine = (line: string) => process.stderr.write(`${line}\n`);

/** A refusal that leaves the rest of an unread body behind: the connection goes with it. */
function closing(response: Response): Response {
  response.headers.set("connection", "close");
  return response;
}

async function handle(s: Serving, route: Route, incoming: Request, server: Server<undefined> | undefined, target?: PathTarget): Promise<Response> {
  const sent = clientKey(incoming.headers, incoming.url);
  if (!sent) return closing(providerError(route, 401, msg.noKey()));
  const run = s.lookup(sent);
  if (!run) return closing(providerError(route, 401, msg.unknownKey()));
  const call: Call = { run, caller: s.caller, plugin: s.caller === "plugin" ? pluginName(incoming.headers) : null, route, path: new URL(incoming.url).pathname, stream: false, started: performance.now(), time: new Date().toISOString(), stripped: [], request: undefined };
  /** A refusal of the run's call: logged and counted, its body not kept (it costs nothing, so it could fill the disk for free). */
  const refuse = (status: number, message: string, code?: string) => {
    call.request = undefined;
    record(call, status, noUsage(), 0, { error: message });
    return providerError(route, status, message, code);
  };
  if (run.inFlight >= s.limits.maxCalls) {
    const busy = closing(refuse(429, msg.tooManyCalls(s.limits.maxCalls)));
    busy.headers.set("retry-after", "1");
    return busy;
  }
  run.inFlight++;
  let handed = false;
  let slot = true;
  const done = () => {
    if (slot) run.inFlight--;
    slot = false;
  };
  try {
    const read = await readRequestBody(incoming, s.limits.maxBodyBytes, s.limits.bodyMs);
    if (!read.ok) {
      if (read.why === "too_large") return closing(refuse(413, msg.bodyTooLarge(s.limits.maxBodyBytes)));
      s.log(read.why === "client_left" ? msg.clientLeft(run.runId, read.received) : msg.bodyDropped(run.runId, msg.bodyTooSlow(s.limits.bodyMs / 1000)));
      return closing(refuse(read.why === "client_left" ? 499 : 408, read.why === "client_left" ? msg.clientLeft(run.runId, read.received) : msg.bodyTooSlow(s.limits.bodyMs / 1000)));
    }
    // From here the call's own bounds apply (upstream idle, drain): a paused stream must not be cut.
    server?.timeout(incoming, 0);
    call.request = read.bytes;
    const prepared = prepare(call, read.bytes, refuse, target);
    if (prepared instanceof Response) return prepared;
    const { body, reservation } = prepared;
    const forwarding = { call, adapter: ADAPTERS[routeWire(route)], reservation, limits: s.limits, done, upstreamFailed: (detail: string) => s.upstreamFailed(run, detail) };
    // The call is forward's now: it frees the slot when the call is settled, a stream's after its end.
    handed = true;
    const text = JSON.stringify(body);
    return await forward(forwarding, (signal) => upstreamRequest(run, route, incoming, target, text, signal));
  } finally {
    if (!handed) done();
  }
}

/**
 * The checks of a call's body, the hosted tools stripped, the model renamed and the budget's
 * reservation: the body to forward, or the refusal.
 */
function prepare(call: Call, raw: Uint8Array, refuse: (status: number, message: string, code?: string) => Response, target: PathTarget | undefined): { body: Json; reservation: Reservation | undefined } | Response {
  const { run, route } = call;
  let body: Json;
  try {
    body = JSON.parse(new TextDecoder().decode(raw)) as Json;
    if (body === null || typeof body !== "object" || Array.isArray(body)) throw new Error("not an object");
  } catch {
    return refuse(400, msg.badJson());
  }
  // A gemini path names the model and whether the answer streams; the body names neither.
  call.stream = target ? target.method === "streamGenerateContent" : body.stream === true;
  const { config } = run.model;
  const model = target ? target.model : body.model;
  if (typeof model !== "string") return refuse(400, msg.modelNotName());
  const wire: Wire = routeWire(route);
  const shape = bodyShape(body, wire === "gemini");
  if (shape.tooDeep) return refuse(400, msg.tooDeep(MAX_DEPTH));
  if (model !== config.name) return refuse(403, msg.otherModel(shortened(model), config.name));
  if (!config.wires.includes(wire)) return refuse(400, msg.wireNotServed(config.name, wire));
  const spent = () => refuse(400, msg.budgetSpent(run.totals.spend, run.budget), "budget_exceeded");
  if (run.totals.spend >= run.budget) return spent();
  const adapter = ADAPTERS[wire];
  const stored = isCount(route) ? undefined : adapter.storedContent(body);
  if (stored) return refuse(400, msg.storedContent(stored));
  call.stripped = stripHostedTools(wire, config.provider, body);
  if (!target) body.model = config.upstream_model ?? config.name;
  if (route === "chat" && call.stream) body.stream_options = { ...(body.stream_options as Json | undefined), include_usage: true };
  if (isCount(route)) return { body, reservation: undefined };
  const reservation = reserve(run, adapter, body, Buffer.byteLength(JSON.stringify(body)), shape);
  return reservation ? { body, reservation } : spent();
}

/** An agent's text in a message, cut short: it goes into the answer and the ledger line. */
function shortened(text: string): string {
  return text.length > 64 ? `${text.slice(0, 64)}…` : text;
}

/** GET /models (the key's model only) and GET /models/{id} (that model, else 404). */
function models(lookup: KeyLookup, incoming: Request, id?: string): Response {
  const sent = clientKey(incoming.headers, incoming.url);
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
export function createGatewayApp(lookup: KeyLookup, caller: Caller = "agent", options: Partial<Omit<Serving, "lookup" | "caller">> = {}): Hono<{ Bindings: Server<undefined> | undefined }> {
  const app = new Hono<{ Bindings: Server<undefined> | undefined }>();
  const log = options.log ?? stderrLine;
  const serving: Serving = { lookup, caller, limits: options.limits ?? DEFAULT_LIMITS, log, upstreamFailed: options.upstreamFailed ?? (() => {}) };
  for (const prefix of ["/v1", ""]) {
    for (const [path, route] of [["/messages/count_tokens", "count_tokens"], ["/messages", "anthropic"], ["/chat/completions", "chat"], ["/responses", "responses"]] as const) {
      app.post(`${prefix}${path}`, (c) => handle(serving, route, c.req.raw, c.env));
    }
    app.get(`${prefix}/models`, (c) => models(lookup, c.req.raw));
    app.get(`${prefix}/models/:id`, (c) => models(lookup, c.req.raw, c.req.param("id")));
  }
  for (const prefix of ["/v1beta", "/v1", ""]) {
    app.post(`${prefix}/models/:target`, (c) => {
      const target = geminiTarget(c.req.param("target"));
      if (!target) return providerError("gemini", 404, msg.notFound(shortened(new URL(c.req.url).pathname)));
      return handle(serving, target.method === "countTokens" ? "gemini_count_tokens" : "gemini", c.req.raw, c.env, target);
    });
  }
  app.notFound((c) => providerError("chat", 404, msg.notFound(shortened(new URL(c.req.url).pathname))));
  // Never a stack on the terminal nor in an answer: one line, and a provider-shaped 500.
  app.onError((e) => {
    log(msg.internalError(e instanceof Error ? e.message : String(e)));
    return providerError("chat", 500, msg.internalError(e instanceof Error ? e.message : String(e)));
  });
  return app;
}
