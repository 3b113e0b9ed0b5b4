/**
 * `dataset verify --repeat N`: every repetition of a task must grade each check the same way. A
 * check that passed in some repetitions and not in others is a flaky PoC or test, reported per
 * check with the repetitions on each side. Pure: verify.ts runs the repetitions.
 */
import type { CheckRecord } from "../../formats/run/result.ts";
import { msg } from "../messages.ts";

/** What one check did in one repetition: the check record's status, or `not run`. */
export type CheckOutcome = CheckRecord["status"] | "not run";

export interface Disagreement {
  agent: string;
  /** `build`, `function_test`, `intent_test` or `poc <file>`; ` (original tree)` for a control run */
  check: string;
  /** outcome → the repetitions (1-based) that had it */
  outcomes: Partial<Record<CheckOutcome, number[]>>;
}

/** The name a check record is compared by across repetitions. */
export function checkKey(r: Pick<CheckRecord, "check" | "poc" | "tree">): string {
  const name = r.check === "poc" && r.poc ? `poc ${r.poc}` : r.check;
  return r.tree === "original" ? `${name} (original tree)` : name;
}

/** Each check's outcome in one run (its last record when a check ran twice). */
export function checkOutcomes(records: readonly CheckRecord[] | undefined): Map<string, CheckOutcome> {
  const outcomes = new Map<string, CheckOutcome>();
  for (const r of records ?? []) outcomes.set(checkKey(r), r.status);
  return outcomes;
}

const ORDER: readonly CheckOutcome[] = ["passed", "failed", "timeout", "error", "not run"];

/**
 * The checks whose outcome differs between repetitions, per agent in the order given. `runs[k]`
 * holds repetition k+1's check records per agent (undefined: the run gave no result).
 */
export function findDisagreements(agents: readonly string[], runs: readonly Record<string, readonly CheckRecord[] | undefined>[]): Disagreement[] {
  const found: Disagreement[] = [];
  for (const agent of agents) {
    const perRep = runs.map((r) => checkOutcomes(r[agent]));
    const keys = [...new Set(perRep.flatMap((m) => [...m.keys()]))];
    for (const check of keys) {
      const outcomes: Partial<Record<CheckOutcome, number[]>> = {};
      perRep.forEach((m, i) => {
        const o = m.get(check) ?? "not run";
        (outcomes[o] ??= []).push(i + 1);
      });
      if (Object.keys(outcomes).length > 1) found.push({ agent, check, outcomes: sortOutcomes(outcomes) });
    }
  }
  return found;
}

function sortOutcomes(o: Partial<Record<CheckOutcome, number[]>>): Partial<Record<CheckOutcome, number[]>> {
  const sorted: Partial<Record<CheckOutcome, number[]>> = {};
  for (const k of ORDER) if (o[k]) sorted[k] = o[k];
  return sorted;
}

/** `repetitions disagree on reference poc pocs/a.txt: passed in 1, 3; failed in 2` */
export function describeDisagreement(d: Disagreement): string {
  const sides = Object.entries(d.outcomes).map(([outcome, reps]) => msg.verifyOutcomeIn(outcome, reps as number[]));
  return msg.verifyDisagreement(d.agent, d.check, sides);
}

/**
 * One list of failures from every repetition's: a failure every repetition had is kept as it is,
 * one that only some had names them (`repetitions 1, 3: …`).
 */
export function mergeRepetitionFailures(perRep: readonly (readonly string[])[]): string[] {
  if (perRep.length === 1) return [...(perRep[0] ?? [])];
  const where = new Map<string, number[]>();
  perRep.forEach((failures, i) => {
    for (const f of new Set(failures)) {
      const reps = where.get(f) ?? [];
      reps.push(i + 1);
      where.set(f, reps);
    }
  });
  return [...where].map(([f, reps]) => (reps.length === perRep.length ? f : msg.verifyInRepetitions(reps, f)));
}
