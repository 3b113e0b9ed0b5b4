/** `ssebench results` as text tables, CSV and the flips of --compare. No I/O. */
import { renderTable } from "../output/terminal.ts";
import { type Flip, type GroupScore, groupLabel, type Scores, type TaskCell } from "./aggregate.ts";
import { FUNNEL_STAGES } from "./funnel.ts";
import { msg } from "./messages.ts";
import type { DateSplit } from "./split.ts";

/** Untrusted names (they come from run folders) never reach the terminal as control characters. */
const printable = (text: string) => text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, "\uFFFD");
const pct = (x: number | null) => (x === null ? "-" : `${(x * 100).toFixed(1)}%`);
const interval = ([lo, hi]: [number, number]) => `${(lo * 100).toFixed(1)}-${(hi * 100).toFixed(1)}%`;
const usd = (x: number) => `$${x.toFixed(x < 1 ? 4 : 2)}`;
const errors = (e: Record<string, number>) => Object.entries(e).map(([k, v]) => `${k} ${v}`).join(", ") || "-";

/** pass@1 … the largest k any group has ("-" where a group has too few attempts). */
function commonKs(groups: readonly GroupScore[]): string[] {
  const counts = groups.map((g) => Object.keys(g.pass_at_k).length);
  const k = counts.length > 0 ? Math.max(...counts) : 0;
  return Array.from({ length: k }, (_, i) => String(i + 1));
}

const HEADERS = ["AGENT/MODEL", "TRIALS", "TASKS", "RESOLVED", "RATE", "95% CI", "RATE W/O INFRA", "95% CI W/O INFRA"];
const TAIL = ["COST", "COST/TRIAL", "COST/RESOLVED", "TOKENS", "MEAN S", "ERRORS"];

/** The oracle's columns only when some run has a verdict: runs without the plugin print as before. */
const anyOracle = (groups: readonly GroupScore[]) => groups.some((g) => g.oracle.reviewed > 0);
const oracleCell = (g: GroupScore) => (g.oracle.reviewed === 0 ? "-" : `${g.oracle.agrees}/${g.oracle.compared} of ${g.oracle.reviewed}`);

function groupCells(g: GroupScore, ks: readonly string[], oracle: boolean): string[] {
  return [
    printable(groupLabel(g.agent, g.model)),
    String(g.trials),
    String(g.tasks),
    String(g.resolved),
    pct(g.rate),
    interval(g.interval),
    g.rate_without_infra === null ? "-" : `${pct(g.rate_without_infra)} of ${g.graded}`,
    g.graded > 0 ? interval(g.interval_without_infra) : "-",
    ...ks.map((k) => g.pass_at_k[k]?.toFixed(3) ?? "-"),
    usd(g.cost_total),
    usd(g.cost_mean),
    g.cost_per_resolved === null ? "-" : usd(g.cost_per_resolved),
    String(g.tokens),
    g.seconds_mean.toFixed(1),
    printable(errors(g.errors)),
    ...(oracle ? [oracleCell(g)] : []),
  ];
}

const cellText = (c: TaskCell | undefined) =>
  c === undefined ? "" : `${c.passed}/${c.graded}${c.errors ? ` +${c.errors} err` : ""}${c.oracle_compared ? ` oracle ${c.oracle_agrees ?? 0}/${c.oracle_compared}` : ""}`;

/** The trials passing each check in order, and those whose PoC stopped but whose tests then failed. */
function renderFunnel(groups: readonly GroupScore[]): string {
  const share = (n: number, of: number) => `${n} (${pct(of > 0 ? n / of : 0)})`;
  const table = renderTable(
    ["AGENT/MODEL", "TRIALS", "BUILD", "+ POC", "+ FUNCTION TEST", "+ INTENT TEST", "POC FIXED, TESTS FAILED"],
    groups.map((g) => [printable(groupLabel(g.agent, g.model)), String(g.trials), ...FUNNEL_STAGES.map((s) => share(g.funnel[s], g.trials)), String(g.funnel.poc - g.funnel.intent_test)]),
  );
  return `Funnel: the trials passing each check of grading in order\n${table}`;
}

/** The agent × model table, the line naming its interval, the funnel. */
export function renderGroups(scores: Scores): string {
  const ks = commonKs(scores.groups);
  const oracle = anyOracle(scores.groups);
  const summary = renderTable([...HEADERS, ...ks.map((k) => `PASS@${k}`), ...TAIL, ...(oracle ? ["ORACLE AGREES"] : [])], scores.groups.map((g) => groupCells(g, ks, oracle)));
  return `${summary}95% CI: ${scores.interval_method}\n${mismatchNotes(scores.groups)}\n${renderFunnel(scores.groups)}`;
}

/** A line per group some of whose answers came from another model than its model file asks for. */
function mismatchNotes(groups: readonly GroupScore[]): string {
  return groups
    .filter((g) => g.model_mismatch.trials > 0)
    .map((g) => `${printable(msg.modelMismatch(groupLabel(g.agent, g.model), g.model_mismatch.trials, g.trials, g.model_mismatch.upstream_models, g.model_mismatch.answered))}\n`)
    .join("");
}

export function renderScores(scores: Scores): string {
  const labels = scores.groups.map((g) => groupLabel(g.agent, g.model));
  const matrix = renderTable(
    ["TASK (passed/graded)", ...labels.map(printable)],
    Object.entries(scores.tasks).map(([task, cells]) => [printable(task), ...labels.map((l) => cellText(cells[l]))]),
  );
  return `${renderGroups(scores)}\n${matrix}`;
}

const csvField = (v: string) => (/[",\n\r]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

/** One row per agent × model; numbers unformatted (rates as fractions). */
export function renderCsv(scores: Scores): string {
  const ks = commonKs(scores.groups);
  const oracle = anyOracle(scores.groups);
  const header = ["agent", "model", "trials", "tasks", "resolved", "rate", "ci_low", "ci_high", "graded", "rate_without_infra", "ci_low_without_infra", "ci_high_without_infra", ...ks.map((k) => `pass_at_${k}`), "cost_total", "cost_mean", "cost_per_resolved", "tokens", "seconds_mean", "errors", ...FUNNEL_STAGES.map((s) => `funnel_${s}`), ...(oracle ? ["oracle_reviewed", "oracle_compared", "oracle_agrees"] : [])];
  const rows = scores.groups.map((g) =>
    [
      g.agent, g.model, g.trials, g.tasks, g.resolved, g.rate, g.interval[0], g.interval[1], g.graded, g.rate_without_infra ?? "", g.interval_without_infra[0], g.interval_without_infra[1],
      ...ks.map((k) => g.pass_at_k[k] ?? ""), g.cost_total, g.cost_mean, g.cost_per_resolved ?? "", g.tokens, g.seconds_mean, Object.entries(g.errors).map(([k, v]) => `${k}:${v}`).join(" "),
      ...FUNNEL_STAGES.map((s) => g.funnel[s]),
      ...(oracle ? [g.oracle.reviewed, g.oracle.compared, g.oracle.agrees] : []),
    ].map((v) => csvField(String(v))).join(","),
  );
  return `${[header.join(","), ...rows].join("\n")}\n`;
}

export function renderFlips(list: readonly Flip[], a: string, b: string): string {
  return renderTable(
    ["TASK", "AGENT/MODEL", printable(a), printable(b), "CHANGE"],
    list.map((f) => [printable(f.task), printable(f.group), cellText(f.a), cellText(f.b), f.change]),
  );
}

const points = (x: number) => `${x > 0 ? "+" : ""}${(x * 100).toFixed(1)}`;

/** --split-by date: each group's rate on both sides and their difference, then both sides' tables. */
export function renderDateSplit(split: DateSplit): string {
  const side = (s: Scores, group: string) => s.groups.find((g) => groupLabel(g.agent, g.model) === group);
  const rows = split.differences.map((d) => {
    const key = groupLabel(d.agent, d.model);
    const [b, a] = [side(split.before, key), side(split.after, key)];
    const cells = (g: GroupScore | undefined) => (g ? [String(g.tasks), pct(g.rate), interval(g.interval)] : ["0", "-", "-"]);
    const diff = d.difference === null || d.interval === null ? ["-", "-"] : [`${points(d.difference)} pts`, `${points(d.interval[0])} to ${points(d.interval[1])} pts`];
    return [printable(key), ...cells(b), ...cells(a), ...diff];
  });
  const taskCount = (s: Scores) => Object.keys(s.tasks).length;
  const undated = split.undated.length > 0 ? `; ${split.undated.length} without a day, left out: ${split.undated.map(printable).join(", ")}` : "";
  const head = `Tasks by the day they were published: ${taskCount(split.before)} before ${split.cutoff}, ${taskCount(split.after)} on or after it${undated}\n`;
  const table = renderTable(["AGENT/MODEL", "TASKS BEFORE", "RATE", "95% CI", "TASKS AFTER", "RATE", "95% CI", "AFTER - BEFORE", "95% CI"], rows);
  const groups = (title: string, s: Scores) => `\n${title}\n${s.groups.length > 0 ? renderGroups(s) : "no task\n"}`;
  return `${head}\n${table}95% CI of a rate: ${split.before.interval_method}; of a difference: ${split.difference_method}\n${groups(`Published before ${split.cutoff}:`, split.before)}${groups(`Published on or after ${split.cutoff}:`, split.after)}`;
}
