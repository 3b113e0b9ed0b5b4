/**
 * Which trials a job still has to run, and which outcomes are worth another try: an
 * infrastructure error (the engine, a pull, the grader crashing or running out of memory, the
 * model's provider failing the agent's calls, an interruption) says nothing about the agent, so it is retried; a grade, or an agent's own time-out, never.
 */
import type { TrialSpec } from "./plan.ts";
import type { TrialRecord } from "./store.ts";

export const RETRYABLE_ERRORS: ReadonlySet<string> = new Set(["infra", "grader", "upstream", "interrupted"]);

export function isInfraError(r: Pick<TrialRecord, "status" | "error_type">): boolean {
  return r.status === "error" && RETRYABLE_ERRORS.has(r.error_type ?? "infra");
}

/** The record that stands for each trial: its first final one, else its last. */
export function latestByTrial(records: readonly TrialRecord[]): Map<string, TrialRecord> {
  const byTrial = new Map<string, TrialRecord>();
  for (const r of records) {
    const seen = byTrial.get(r.trial);
    if (seen && !isInfraError(seen)) continue;
    byTrial.set(r.trial, r);
  }
  return byTrial;
}

export interface Pending {
  todo: TrialSpec[];
  /** runs each trial has had so far (the next one is tries + 1) */
  tries: Map<string, number>;
}

/** Trials with no final record, in plan order. */
export function pendingTrials(trials: readonly TrialSpec[], records: readonly TrialRecord[]): Pending {
  const latest = latestByTrial(records);
  const tries = new Map<string, number>();
  for (const r of records) tries.set(r.trial, (tries.get(r.trial) ?? 0) + 1);
  const todo = trials.filter((t) => {
    const r = latest.get(t.trial);
    return r === undefined || isInfraError(r);
  });
  return { todo, tries };
}

/** Seconds before retry n (1-based): 5, 10, 20, 40, then 60. */
export function backoffSeconds(retry: number): number {
  return Math.min(60, 5 * 2 ** (retry - 1));
}
