/**
 * The agent-facing listener on 127.0.0.1 (default port 3000, the reference's MCP URL): `/mcp`
 * (Streamable HTTP, the `test_patch` tool; the SDK is loaded on first use, off the agent's start
 * path) and plain HTTP under `/sse/v1/` for agents without MCP. Every route is gated by the
 * difficulty level (403 with the reason) and answers 403 once the agent phase has ended.
 */
import { readFileSync } from "node:fs";
import { UserError } from "../../errors.ts";
import { CallLog } from "./calls.ts";
import { allowed, type CheckKind, type Level } from "./levels.ts";
import { Limits, MAX_REQUEST_BODY, MAX_REQUESTS, MAX_UNREAD_DIFFS } from "./limits.ts";
import { CHECK_NAMES, toolMsg } from "./messages.ts";
import { PhaseEnded, type ToolService } from "./service.ts";

export const DEFAULT_PORT = 3000;
const CHECKS: readonly CheckKind[] = ["build", "poc", "function_test", "intent_test"];

export interface ToolApi {
  url: string;
  calls: CallLog;
  /** The agent phase is over: refuse every call, stop a running check, wait for it. */
  endPhase: () => Promise<void>;
  stop: () => void;
}

export function toolPort(raw: string | undefined): number {
  if (raw === undefined || raw === "") return DEFAULT_PORT;
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) throw new UserError(toolMsg.badPort(raw));
  return Number(raw);
}

export function startToolApi(o: { service: ToolService; level: Level; port: number; taskFile: string; callsFile: string }): ToolApi {
  const { service, level } = o;
  const calls = new CallLog(o.callsFile);
  const json = (status: number, body: unknown) => Response.json(body, { status });

  const limits = new Limits();

  async function route(req: Request, path: string): Promise<{ res: Response; via: "mcp" | "http"; record: boolean; checks?: string[]; outcome?: string; diff?: Uint8Array }> {
    if (service.phaseEnded) {
      // MCP clients show a JSON-RPC error's message; everyone else reads `error`.
      const body = path === "/mcp" ? { jsonrpc: "2.0", id: null, error: { code: -32000, message: toolMsg.phaseEnded() } } : { error: toolMsg.phaseEnded() };
      return { res: json(403, body), via: path === "/mcp" ? "mcp" : "http", record: true, outcome: "refused" };
    }
    if (path === "/mcp") {
      const { handleMcp } = await import("./mcp.ts");
      return { res: await handleMcp(req, { service, level, calls }), via: "mcp", record: false };
    }
    const get = req.method === "GET";
    if (get && path === "/sse/v1/project") return { res: new Response(readFileSync(o.taskFile), { headers: { "content-type": "application/json" } }), via: "http", record: true, outcome: "ok" };
    if (get && path === "/sse/v1/capabilities") return { res: json(200, capabilities(service, level)), via: "http", record: true, outcome: "ok" };
    if (get && path === "/sse/v1/diff") {
      // A diff may be hundreds of MB: only a few may wait to be read at once.
      if (!limits.holdDiff()) return { res: json(429, { error: toolMsg.unreadDiffs(MAX_UNREAD_DIFFS) }), via: "http", record: true, outcome: "refused" };
      let change;
      try {
        change = await service.diff();
      } catch (e) {
        limits.releaseDiff();
        throw e;
      }
      if ("tooLarge" in change) return { res: json(422, { error: toolMsg.tooLarge(service.maxMb) }), via: "http", record: true, outcome: "failed", diff: new Uint8Array() };
      return { res: new Response(null, { headers: { "content-type": "text/x-diff" } }), via: "http", record: true, outcome: "ok", diff: change.patch };
    }
    if (req.method === "POST" && path === "/sse/v1/test_patch") {
      const r = await service.testPatch();
      return { res: json(200, { ok: r.outcome === "passed" || r.outcome === "none", text: r.text }), via: "http", record: true, checks: r.checks, outcome: r.outcome };
    }
    const kind = req.method === "POST" && path.startsWith("/sse/v1/check/") ? (path.slice(14) as CheckKind) : undefined;
    if (kind && CHECKS.includes(kind)) {
      if (!allowed(level, kind)) return { res: json(403, { error: toolMsg.notAvailable(level.n, level.name, CHECK_NAMES[kind]) }), via: "http", record: true, outcome: "refused" };
      if (!service.has(kind)) return { res: json(404, { error: toolMsg.taskHasNo(CHECK_NAMES[kind]) }), via: "http", record: true, outcome: "not_found" };
      const r = await service.check(kind);
      return { res: json(r.outcome === "infra" ? 500 : 200, { code: r.code, stdout: r.stdout, stderr: r.stderr }), via: "http", record: true, checks: r.checks, outcome: r.outcome };
    }
    return { res: json(404, { error: toolMsg.noSuchRoute(req.method, path) }), via: "http", record: true, outcome: "not_found" };
  }

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: o.port,
    // A check may take many minutes; Bun's default would cut a pending reply after 10 s.
    idleTimeout: 0,
    maxRequestBodySize: MAX_REQUEST_BODY,
    async fetch(req) {
      const startedAt = performance.now();
      const wall = new Date();
      const path = new URL(req.url).pathname;
      const via = path === "/mcp" ? "mcp" : "http";
      if (!limits.enter()) {
        const res = json(429, via === "mcp" ? { jsonrpc: "2.0", id: null, error: { code: -32000, message: toolMsg.tooManyRequests(MAX_REQUESTS) } } : { error: toolMsg.tooManyRequests(MAX_REQUESTS) });
        calls.write({ via, call: `${req.method} ${path}`, level: level.n, checks: [], outcome: "refused", http_status: 429 }, startedAt, wall);
        return res;
      }
      let r;
      try {
        r = await route(req, path);
      } catch (e) {
        const ended = e instanceof PhaseEnded;
        r = { res: json(ended ? 403 : 500, { error: ended ? toolMsg.phaseEnded() : toolMsg.internal() }), via: "http" as const, record: true, outcome: ended ? "refused" : "infra" };
      }
      const diff = "diff" in r ? r.diff : undefined;
      let bytes = diff;
      try {
        // Small answers (JSON, the MCP reply) are read whole; a diff's bytes are at hand.
        bytes ??= new Uint8Array(await r.res.arrayBuffer());
      } catch {
        r = { ...r, res: json(500, { error: toolMsg.internal() }), outcome: "infra" };
        bytes = new Uint8Array(await r.res.arrayBuffer());
      }
      if (r.record) calls.write({ via: r.via, call: `${req.method} ${path}`, level: level.n, checks: r.checks ?? [], outcome: r.outcome ?? "ok", http_status: r.res.status }, startedAt, wall);
      return limits.answer(r.res, bytes, { diff: diff !== undefined });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    calls,
    endPhase: () => service.end(),
    stop: () => void server.stop(true),
  };
}

function capabilities(service: ToolService, level: Level) {
  const can = (k: CheckKind) => allowed(level, k) && service.has(k);
  return {
    difficulty: level.n,
    level: level.name,
    can_build: can("build"),
    can_run_poc: can("poc"),
    can_function_test: can("function_test"),
    can_intent_test: can("intent_test"),
    poc_count: service.pocCount,
    has_function_test: service.has("function_test"),
    has_intent_test: service.has("intent_test"),
  };
}
