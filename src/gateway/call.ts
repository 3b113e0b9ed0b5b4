/**
 * One call through the gateway as the ledger sees it, and its recording: one ledger line and the
 * run's totals, once, when the call ends (a refusal at once; an answered call when it is settled).
 */
import type { Wire } from "../formats/models/model-types.ts";
import type { Usage } from "../formats/models/model-usage.ts";
import type { RunKey } from "./keys.ts";
import type { Caller, LedgerEntry } from "./ledger.ts";

/** A wire, or a wire's free token count (anthropic's count_tokens, gemini's countTokens). */
export type Route = Wire | "count_tokens" | "gemini_count_tokens";

/** The wire a route speaks. */
export function routeWire(route: Route): Wire {
  return route === "count_tokens" ? "anthropic" : route === "gemini_count_tokens" ? "gemini" : route;
}

/** A token count: free, so it is neither metered nor reserved. */
export function isCount(route: Route): boolean {
  return route === "count_tokens" || route === "gemini_count_tokens";
}

export interface Call {
  run: RunKey;
  caller: Caller;
  plugin: string | null;
  route: Route;
  path: string;
  stream: boolean;
  started: number;
  time: string;
  stripped: string[];
  /** the request's bytes, for the transcript (not kept for refusals) */
  request: Uint8Array | undefined;
}

export interface Ending {
  firstByte?: number;
  /** the client went away before the answer ended */
  aborted?: boolean;
  error?: string;
  response?: Uint8Array;
  /** the cost is the call's reserved upper bound: its usage never came */
  estimated?: boolean;
  /** the upstream failed the call (not the agent's request, not the gateway): why */
  upstreamFailure?: string;
  /** the model the upstream's answer says it came from */
  answeredModel?: string;
}

/** Distinct answering models a run's totals keep (an upstream naming a new one each call is not a memory leak). */
const ANSWERED_MODELS_MAX = 16;

const ok = (status: number) => status >= 200 && status < 300;
const cents = (usd: number) => Math.round(usd * 1e10) / 1e10;

/** Records the call in the ledger and the run's totals at `cost` (USD). */
export function record(call: Call, status: number, usage: Usage, cost: number, extra: Ending): void {
  const { run } = call;
  const t = run.totals;
  t.calls++;
  const plugin = call.caller === "plugin";
  if (!plugin && ok(status) && !(extra.aborted && extra.firstByte === undefined)) t.answered++;
  t.spend = cents(t.spend + cost);
  if (plugin) {
    t.plugin_calls++;
    t.plugin_spend = cents(t.plugin_spend + cost);
  }
  for (const k of ["input", "output", "cache_read", "cache_write"] as const) t.tokens[k] += usage[k];
  if (extra.upstreamFailure) {
    t.upstream_failures++;
    t.first_upstream_error ??= extra.upstreamFailure;
  }
  if (!plugin) t.agent_last_failed_upstream = extra.upstreamFailure !== undefined;
  const answered = extra.answeredModel;
  if (answered !== undefined && !t.answered_models.includes(answered) && t.answered_models.length < ANSWERED_MODELS_MAX) t.answered_models.push(answered);
  const entry: LedgerEntry = {
    seq: ++run.seq,
    time: call.time,
    run: run.runId,
    caller: call.caller,
    plugin: call.plugin,
    model: run.model.config.name,
    answered_model: answered ?? null,
    wire: call.route,
    path: call.path,
    stream: call.stream,
    status,
    ms: Math.round(performance.now() - call.started),
    first_byte_ms: extra.firstByte === undefined ? null : Math.round(extra.firstByte - call.started),
    usage,
    cost,
    estimated: extra.estimated ?? false,
    spent: t.spend,
    stripped: call.stripped,
    aborted: extra.aborted ?? false,
    error: extra.error ?? null,
  };
  run.ledger?.write(entry, call.request, extra.response);
}
