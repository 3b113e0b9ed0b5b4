/**
 * The oracle plugin's review (runtime/plugins/oracle/README.md): `$SSE_ARCHIVE/oracle/review.json`
 * and its copy `<run dir>/oracle-review.json`, which `ssebench results` reads (the run folder is
 * root's in the container; the archive was the agent's).
 */
import type { Wire } from "../models/model-types.ts";

export const VERDICTS = ["equivalent", "different but plausible", "wrong", "unsure"] as const;
export type Verdict = (typeof VERDICTS)[number];

export const ORACLE_REVIEW = "oracle-review.json";

export interface OracleReview {
  status: "ok" | "failed";
  verdict: Verdict | null;
  reasons: string;
  /** the run's grade (result.json patch_result.status) the verdict sits beside */
  grade: string | null;
  model: string;
  wire: Wire | null;
  /** input (not cached), output, cache_read, cache_write */
  tokens: { input: number; output: number; cache_read: number; cache_write: number };
  /** USD as the gateway reported it; null when unknown */
  cost: number | null;
  duration_ms: number;
  error?: string;
}

/**
 * Whether a verdict agrees with a grade: equivalent or plausible beside passed, wrong beside
 * failed. `null` when they cannot be compared (unsure, no verdict, an ungraded run).
 */
export function verdictAgrees(verdict: Verdict | null, grade: string | null): boolean | null {
  if (verdict === null || verdict === "unsure" || (grade !== "passed" && grade !== "failed")) return null;
  return (verdict === "wrong") === (grade === "failed");
}
