/**
 * Per-run keys: random, bound to one run and one model, with a USD budget; spend, token and call
 * totals accumulate as calls end. Held in memory by the process that owns the runs.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { ModelConfig } from "../formats/models/model-types.ts";
import type { Upstream } from "./scripted/provider.ts";
import type { Ledger } from "./ledger.ts";
import { noUsage, type Usage } from "../formats/models/model-usage.ts";

export const DEFAULT_BUDGET_USD = 10;

/** A model as the gateway serves it: its config, the upstream's key and how to reach it. */
export interface ServedModel {
  config: ModelConfig;
  /** the upstream's key (never the client's); undefined for a scripted model */
  key: string | undefined;
  upstream: Upstream;
}

export interface RunTotals {
  /** USD */
  spend: number;
  calls: number;
  /** the agent's calls the upstream answered with a 2xx status (plugins' not counted) */
  answered: number;
  /** of `calls` and `spend`: those on the plugin socket (grading-phase plugins) */
  plugin_calls: number;
  plugin_spend: number;
  tokens: Usage;
  /** calls the upstream failed (unreachable, silent, its key refused, rate-limited, its own 5xx) */
  upstream_failures: number;
  /** the first of them, as the ledger says it */
  first_upstream_error: string | null;
  /** the agent's last settled call was one of them (its calls ended on the provider, not on itself) */
  agent_last_failed_upstream: boolean;
  /** the distinct models the upstream's answers said they came from (the ledger's answered_model), in order */
  answered_models: string[];
}

export interface RunKey {
  key: string;
  runId: string;
  model: ServedModel;
  budget: number;
  totals: RunTotals;
  /** USD held for the calls in flight: their worst cases, until each is settled at what it cost */
  reserved: number;
  /** calls taken and not yet settled (an abandoned call until its upstream is read to the end) */
  inFlight: number;
  /** the forwarded calls not yet settled: how to stop each, and when it is settled */
  active: Set<{ stop: () => void; settled: Promise<void> }>;
  ledger: Ledger | undefined;
  seq: number;
}

const digest = (key: string): Buffer => createHash("sha256").update(key).digest();

/** Compares two keys in constant time: their SHA-256 digests, so neither the length nor a common prefix shows. */
export function sameKey(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

/** Keys by their digest: a lookup's time depends on the digest of what was sent, never on how much of a key it matches. */
export class KeyRing {
  private readonly keys = new Map<string, RunKey>();

  issue(runId: string, model: ServedModel, budget = DEFAULT_BUDGET_USD, ledger?: Ledger): RunKey {
    const key = `sk-ssebench-${randomBytes(32).toString("base64url")}`;
    const entry: RunKey = { key, runId, model, budget, ledger, seq: 0, reserved: 0, inFlight: 0, active: new Set(), totals: { spend: 0, calls: 0, answered: 0, plugin_calls: 0, plugin_spend: 0, tokens: noUsage(), upstream_failures: 0, first_upstream_error: null, agent_last_failed_upstream: false, answered_models: [] } };
    this.keys.set(digest(key).toString("hex"), entry);
    return entry;
  }

  get(key: string): RunKey | undefined {
    const entry = this.keys.get(digest(key).toString("hex"));
    return entry && sameKey(entry.key, key) ? entry : undefined;
  }

  revoke(key: string): void {
    this.keys.delete(digest(key).toString("hex"));
  }
}
