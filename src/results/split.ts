/**
 * `results --split-by date --cutoff DAY`: the scores of the tasks published before a day (a
 * model's training cutoff, say) beside those of the tasks published on or after it, and how much
 * each agent × model's resolved rate differs between them. A task's day comes with its runs
 * (summary.json provenance.task_dates, recorded from the task's upstream/sources.yaml); tasks
 * without one are named and left out. No I/O.
 */
import { groupLabel, score, type Scores, taskLabeller } from "./aggregate.ts";
import type { TrialRow } from "./load.ts";
import { differenceInterval } from "./stats.ts";

export interface GroupDifference {
  agent: string;
  model: string;
  /** rates over each side's tasks (null when the group has no trial there) */
  before: number | null;
  after: number | null;
  /** after - before, with Newcombe's 95 % interval from both sides' intervals */
  difference: number | null;
  interval: [number, number] | null;
}

export interface DateSplit {
  by: "date";
  cutoff: string;
  /** tasks published before the cutoff, and on or after it */
  before: Scores;
  after: Scores;
  differences: GroupDifference[];
  difference_method: string;
  /** tasks whose runs recorded no day: in neither side */
  undated: string[];
}

export const DIFFERENCE_METHOD = "Newcombe's hybrid score interval from both sides' intervals";

export function splitByDate(rows: readonly TrialRow[], cutoff: string): DateSplit {
  const label = taskLabeller(rows);
  const days = new Map<string, string>();
  for (const r of rows) if (r.published !== null && !days.has(label(r))) days.set(label(r), r.published);
  const dayOf = (r: TrialRow) => days.get(label(r));
  const before = score(rows.filter((r) => (dayOf(r) ?? cutoff) < cutoff));
  const after = score(rows.filter((r) => dayOf(r) !== undefined && (dayOf(r) as string) >= cutoff));
  const undated = [...new Set(rows.map(label).filter((t) => !days.has(t)))].sort();
  const keys = [...new Set([...before.groups, ...after.groups].map((g) => groupLabel(g.agent, g.model)))].sort();
  const differences = keys.map((key): GroupDifference => {
    const b = before.groups.find((g) => groupLabel(g.agent, g.model) === key);
    const a = after.groups.find((g) => groupLabel(g.agent, g.model) === key);
    const any = (a ?? b) as NonNullable<typeof a>;
    return {
      agent: any.agent,
      model: any.model,
      before: b?.rate ?? null,
      after: a?.rate ?? null,
      difference: a && b ? a.rate - b.rate : null,
      interval: a && b ? differenceInterval(b, a) : null,
    };
  });
  return { by: "date", cutoff, before, after, differences, difference_method: DIFFERENCE_METHOD, undated };
}
