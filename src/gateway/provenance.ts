/**
 * Which model answered a run (summary.json `provenance.model`): the model file's upstream_model and
 * the models the upstream's answers said they came from (the ledger's answered_model). An answer
 * naming another model than the configured one is a mismatch — a proxy (LiteLLM) or server (vLLM)
 * that routes the name elsewhere, or serves what it was started with — except a dated snapshot of
 * it (`gpt-5` answered by `gpt-5-2025-08-07`, `claude-x` by `claude-x-20260101`), which vendors
 * report for an alias. Gemini's `models/` prefix is not part of the name.
 */
import type { ModelProvenance } from "../formats/run/summary.ts";
import type { ModelConfig } from "../formats/models/model-types.ts";

const SNAPSHOT = /^(\d{8}|\d{4}-\d{2}-\d{2})$/;

/** Does `answered` name the model `configured` names? */
export function sameModel(configured: string, answered: string): boolean {
  const [c, a] = [configured, answered].map((n) => n.replace(/^models\//, "")) as [string, string];
  return a === c || (a.startsWith(`${c}-`) && SNAPSHOT.test(a.slice(c.length + 1)));
}

export function modelProvenance(config: ModelConfig, answered: readonly string[]): ModelProvenance {
  const upstream = config.upstream_model ?? null;
  return {
    name: config.name,
    upstream_model: upstream,
    answered: [...answered],
    mismatch: upstream !== null && answered.some((a) => !sameModel(upstream, a)),
  };
}
