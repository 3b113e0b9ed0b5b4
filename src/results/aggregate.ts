/** Trial rows → the scores per agent × model and the per-task matrix. No I/O. */
import { RETRYABLE_ERRORS } from "../jobs/rules.ts";
import { type Funnel, funnelOf } from "./funnel.ts";
import type { TrialRow } from "./load.ts";
import { meanPassAtK, tasksInterval } from "./stats.ts";

/** What `interval` is, as the JSON output names it (docs/jobs.md: why this method). */
export const INTERVAL_METHOD = "Wilson score interval over tasks, each task's mean over its trials";

export interface GroupScore {
  agent: string;
  model: string;
  trials: number;
  /** tasks with a trial */
  tasks: number;
  resolved: number;
  /**
   * the mean over tasks of each task's resolved / trials, infrastructure errors counted as
   * unresolved (resolved / trials when every task has as many trials); interval: INTERVAL_METHOD
   */
  rate: number;
  interval: [number, number];
  /** trials without an infrastructure error, and the rate over them (over the tasks with one) */
  graded: number;
  rate_without_infra: number | null;
  interval_without_infra: [number, number];
  /** pass@k for k = 1 … the fewest graded attempts any task has (k ≤ attempts) */
  pass_at_k: Record<string, number>;
  cost_total: number;
  cost_mean: number;
  /** cost_total / resolved: what a resolved task cost, the failed trials' spend included; null with none resolved */
  cost_per_resolved: number | null;
  /** the trials that passed each check of grading, in order (funnel.ts) */
  funnel: Funnel;
  tokens: number;
  seconds_mean: number;
  errors: Record<string, number>;
  /** the oracle plugin's verdicts: how many trials have one, by verdict, and how often it agrees with the grade */
  oracle: OracleScore;
  /** trials answered by another model than the model file's upstream_model (summary.json provenance.model) */
  model_mismatch: ModelMismatch;
}

export interface ModelMismatch {
  trials: number;
  /** the upstream_model(s) those trials asked for, and the models that answered instead */
  upstream_models: string[];
  answered: string[];
}

function mismatchOf(list: readonly TrialRow[]): ModelMismatch {
  const off = list.filter((r) => r.mismatch !== null).map((r) => r.mismatch as NonNullable<TrialRow["mismatch"]>);
  const distinct = (xs: string[]) => [...new Set(xs)].sort();
  return { trials: off.length, upstream_models: distinct(off.map((m) => m.upstream_model)), answered: distinct(off.flatMap((m) => m.answered)) };
}

export interface OracleScore {
  reviewed: number;
  verdicts: Record<string, number>;
  /** reviewed trials whose verdict can be set beside the grade (not unsure, graded passed/failed) */
  compared: number;
  agrees: number;
}

export interface TaskCell {
  passed: number;
  graded: number;
  errors: number;
  /** trials whose oracle verdict could be compared with the grade, and those that agree (only when any) */
  oracle_compared?: number;
  oracle_agrees?: number;
}

export interface Scores {
  /** how each group's interval is computed */
  interval_method: string;
  groups: GroupScore[];
  /** task label → group label (`agent/model`) → cell */
  tasks: Record<string, Record<string, TaskCell>>;
}

export const groupLabel = (agent: string, model: string) => `${agent}/${model}`;

/** Task labels carry the dataset only when the rows come from more than one, so two datasets' tasks never mix. */
export function taskLabeller(rows: readonly TrialRow[]): (r: TrialRow) => string {
  const datasets = new Set(rows.map((r) => r.dataset));
  return datasets.size > 1 ? (r) => `${r.dataset}/${r.task}` : (r) => r.task;
}

const mean = (xs: readonly number[]) => (xs.length > 0 ? xs.reduce((s, x) => s + x, 0) / xs.length : null);

const infra = (r: TrialRow) => r.status === "error" && RETRYABLE_ERRORS.has(r.errorType ?? "infra");

function oracleScore(list: readonly TrialRow[]): OracleScore {
  const o: OracleScore = { reviewed: 0, verdicts: {}, compared: 0, agrees: 0 };
  for (const r of list) {
    if (!r.oracle) continue;
    o.reviewed++;
    o.verdicts[r.oracle.verdict] = (o.verdicts[r.oracle.verdict] ?? 0) + 1;
    if (r.oracle.agrees === null) continue;
    o.compared++;
    if (r.oracle.agrees) o.agrees++;
  }
  return o;
}

export function score(rows: readonly TrialRow[]): Scores {
  const label = taskLabeller(rows);
  const byGroup = new Map<string, TrialRow[]>();
  for (const r of rows) {
    const key = groupLabel(r.agent, r.model);
    let list = byGroup.get(key);
    if (!list) byGroup.set(key, (list = []));
    list.push(r);
  }
  const tasks: Scores["tasks"] = {};
  const groups: GroupScore[] = [];
  for (const [key, list] of [...byGroup].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const perTask = new Map<string, TaskCell>();
    for (const r of list) {
      const t = label(r);
      let cell = perTask.get(t);
      if (!cell) perTask.set(t, (cell = { passed: 0, graded: 0, errors: 0 }));
      if (infra(r)) cell.errors++;
      else cell.graded++;
      if (r.status === "passed") cell.passed++;
      if (r.oracle && r.oracle.agrees !== null) {
        cell.oracle_compared = (cell.oracle_compared ?? 0) + 1;
        cell.oracle_agrees = (cell.oracle_agrees ?? 0) + (r.oracle.agrees ? 1 : 0);
      }
      (tasks[t] ??= {})[key] = cell;
    }
    const resolved = list.filter((r) => r.status === "passed").length;
    const graded = list.filter((r) => !infra(r)).length;
    const cells = [...perTask.values()];
    const means = cells.map((c) => c.passed / (c.graded + c.errors));
    const meansGraded = cells.filter((c) => c.graded > 0).map((c) => c.passed / c.graded);
    const samples = cells.map((c) => [c.graded, c.passed] as const);
    const counted = samples.filter(([n]) => n > 0).map(([n]) => n);
    const maxK = counted.length > 0 ? Math.min(...counted) : 0;
    const passAtK: Record<string, number> = {};
    for (let k = 1; k <= maxK; k++) passAtK[String(k)] = meanPassAtK(samples, k) as number;
    const errors: Record<string, number> = {};
    for (const r of list) if (r.status === "error") errors[r.errorType ?? "infra"] = (errors[r.errorType ?? "infra"] ?? 0) + 1;
    const cost = list.reduce((s, r) => s + r.spend, 0);
    const first = list[0] as TrialRow;
    groups.push({
      agent: first.agent,
      model: first.model,
      trials: list.length,
      tasks: cells.length,
      resolved,
      rate: mean(means) as number,
      interval: tasksInterval(means),
      graded,
      rate_without_infra: mean(meansGraded),
      interval_without_infra: tasksInterval(meansGraded),
      pass_at_k: passAtK,
      cost_total: cost,
      cost_mean: cost / list.length,
      cost_per_resolved: resolved > 0 ? cost / resolved : null,
      funnel: funnelOf(list.map((r) => r.stages)),
      tokens: list.reduce((s, r) => s + r.tokens, 0),
      seconds_mean: list.reduce((s, r) => s + r.seconds, 0) / list.length,
      errors: Object.fromEntries(Object.entries(errors).sort(([a], [b]) => (a < b ? -1 : 1))),
      oracle: oracleScore(list),
      model_mismatch: mismatchOf(list),
    });
  }
  const sortedTasks = Object.fromEntries(Object.entries(tasks).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { interval_method: INTERVAL_METHOD, groups, tasks: sortedTasks };
}

export interface Flip {
  task: string;
  group: string;
  a: TaskCell;
  b: TaskCell;
  /** resolved: more than half of the graded trials passed */
  change: "fixed" | "broken";
}

const resolvedCell = (c: TaskCell | undefined) => c !== undefined && c.graded > 0 && c.passed * 2 > c.graded;

/** Task × agent/model cells present in both whose resolved state differs. */
export function flips(a: Scores, b: Scores): Flip[] {
  const out: Flip[] = [];
  for (const [task, cells] of Object.entries(a.tasks)) {
    for (const [group, cellA] of Object.entries(cells)) {
      const cellB = b.tasks[task]?.[group];
      if (!cellB) continue;
      const was = resolvedCell(cellA);
      const now = resolvedCell(cellB);
      if (was !== now) out.push({ task, group, a: cellA, b: cellB, change: now ? "fixed" : "broken" });
    }
  }
  return out;
}
