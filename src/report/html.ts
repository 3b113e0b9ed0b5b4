/**
 * The components of a set of trials' scores, shared by `ssebench report` (one self-contained HTML
 * file: inline CSS and SVG, no script, nothing fetched) and `ssebench view` (the same tables on its
 * pages, with links): the summary table, the task × agent/model heat map, the pass@k and
 * cost-vs-success charts and the list of trials; each trial's section is run-view.ts's.
 */
import { groupLabel, type Scores, taskLabeller } from "../results/aggregate.ts";
import { FUNNEL_STAGES } from "../results/funnel.ts";
import type { TrialRow } from "../results/load.ts";
import { badge, esc, page, pct, usd } from "./page.ts";
import { REPORT_CAPS, readRun } from "./run-folder.ts";
import { runHtml } from "./run-view.ts";

/** The scores per agent × model, the line naming the interval's method, and the funnel of the checks. */
export function summaryTable(scores: Scores): string {
  const ks = [...new Set(scores.groups.flatMap((g) => Object.keys(g.pass_at_k)))];
  // The oracle plugin's column only when some run has a verdict.
  const oracle = scores.groups.some((g) => g.oracle.reviewed > 0);
  const head = ["Agent/model", "Trials", "Tasks", "Resolved", "Rate", "95% CI", "Rate w/o infra", ...ks.map((k) => `pass@${k}`), "Cost", "Cost/trial", "Cost/resolved", "Tokens", "Mean s", "Errors", ...(oracle ? ["Oracle agrees"] : [])];
  const rows = scores.groups.map((g) => [
    groupLabel(g.agent, g.model), String(g.trials), String(g.tasks), String(g.resolved), pct(g.rate), `${pct(g.interval[0])}–${pct(g.interval[1])}`, pct(g.rate_without_infra),
    ...ks.map((k) => g.pass_at_k[k]?.toFixed(3) ?? "-"), usd(g.cost_total), usd(g.cost_mean), g.cost_per_resolved === null ? "-" : usd(g.cost_per_resolved), String(g.tokens), g.seconds_mean.toFixed(1),
    Object.entries(g.errors).map(([k, v]) => `${k} ${v}`).join(", ") || "-",
    ...(oracle ? [g.oracle.reviewed === 0 ? "-" : `${g.oracle.agrees}/${g.oracle.compared} of ${g.oracle.reviewed}`] : []),
  ]);
  return `${table("summary", head, rows)}<p class="muted">95% CI: ${esc(scores.interval_method)}</p>${funnelTable(scores)}`;
}

function table(id: string, head: readonly string[], rows: readonly (readonly string[])[]): string {
  return `<table id="${id}"><tr>${head.map((h) => `<th>${esc(h)}</th>`).join("")}</tr>${rows.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join("")}</tr>`).join("")}</table>`;
}

/** The trials passing each check in order; the PoC fixed but the tests failed is the plausible-but-wrong patch. */
export function funnelTable(scores: Scores): string {
  const share = (n: number, of: number) => `${n} (${pct(of > 0 ? n / of : 0)})`;
  const head = ["Funnel: trials passing", "Trials", "Build", "+ PoC", "+ Function test", "+ Intent test", "PoC fixed, tests failed"];
  const rows = scores.groups.map((g) => [groupLabel(g.agent, g.model), String(g.trials), ...FUNNEL_STAGES.map((s) => share(g.funnel[s], g.trials)), String(g.funnel.poc - g.funnel.intent_test)]);
  return table("funnel", head, rows);
}

/** A cell's link (the viewer's filtered list of its trials); none in the static report. */
export type CellLink = (task: string, group: string) => string | null;

export function heatMap(scores: Scores, link: CellLink = () => null): string {
  const labels = scores.groups.map((g) => groupLabel(g.agent, g.model));
  const rows = Object.entries(scores.tasks).map(([task, cells]) => {
    const tds = labels.map((l) => {
      const c = cells[l];
      if (!c) return "<td></td>";
      const rate = c.graded > 0 ? c.passed / c.graded : 0;
      const text = `${c.passed}/${c.graded}${c.errors ? ` +${c.errors} err` : ""}`;
      const href = link(task, l);
      return `<td style="background:hsl(${Math.round(rate * 120)},60%,80%)">${href ? `<a href="${esc(href)}">${text}</a>` : text}</td>`;
    });
    return `<tr><th>${esc(task)}</th>${tds.join("")}</tr>`;
  });
  return `<table id="heatmap"><tr><th>Task</th>${labels.map((l) => `<th>${esc(l)}</th>`).join("")}</tr>${rows.join("")}</table>`;
}

export function passAtKChart(scores: Scores): string {
  const bars: string[] = [];
  let x = 40;
  for (const g of scores.groups) {
    const name = groupLabel(g.agent, g.model);
    const entries = Object.entries(g.pass_at_k);
    // Each group is as wide as its bars or its label, whichever is wider.
    const width = Math.max(entries.length * 22, Math.ceil(name.length * 6.5) + 10);
    entries.forEach(([k, v], i) => {
      const h = Math.round(v * 150);
      const bx = x + i * 22;
      bars.push(`<rect x="${bx}" y="${170 - h}" width="18" height="${h}" fill="#4a7bd0"><title>${esc(name)} pass@${k} ${v.toFixed(3)}</title></rect><text x="${bx + 9}" y="185" font-size="10" text-anchor="middle">@${k}</text>`);
    });
    bars.push(`<text x="${x + width / 2}" y="200" font-size="11" text-anchor="middle">${esc(name)}</text>`);
    x += width + 20;
  }
  return `<svg id="passk" width="${x + 20}" height="210" xmlns="http://www.w3.org/2000/svg"><line x1="35" y1="170" x2="${x}" y2="170" stroke="#888"/><text x="5" y="25" font-size="10">1.0</text><text x="5" y="170" font-size="10">0</text>${bars.join("")}</svg>`;
}

export function costChart(scores: Scores): string {
  const maxCost = Math.max(1e-9, ...scores.groups.map((g) => g.cost_mean));
  const points = scores.groups.map((g) => {
    const cx = 50 + Math.round((g.cost_mean / maxCost) * 300);
    const cy = 170 - Math.round(g.rate * 150);
    return `<circle cx="${cx}" cy="${cy}" r="5" fill="#d0584a"/><text x="${cx + 8}" y="${cy + 4}" font-size="11">${esc(groupLabel(g.agent, g.model))}</text>`;
  });
  return `<svg id="cost" width="480" height="200" xmlns="http://www.w3.org/2000/svg"><line x1="50" y1="170" x2="370" y2="170" stroke="#888"/><line x1="50" y1="20" x2="50" y2="170" stroke="#888"/><text x="200" y="195" font-size="11">mean cost per trial (max $${maxCost.toFixed(4)})</text><text x="5" y="25" font-size="10">100%</text>${points.join("")}</svg>`;
}

export interface TrialLine {
  row: TrialRow;
  /** where the trial's details are: an anchor of the report, a page of the viewer */
  href: string | null;
  /** the trial's attempt, for a job's trials */
  attempt?: number;
  /** what the row says when it has no run folder (the trial failed before it had one) */
  note?: string;
}

/** The list of trials; the oracle's column only when some trial has a verdict. */
export function trialsTable(lines: readonly TrialLine[], label: (r: TrialRow) => string, first = 1): string {
  const oracle = lines.some((l) => l.row.oracle);
  const attempts = lines.some((l) => l.attempt !== undefined);
  const verdict = (r: TrialRow) => (r.oracle ? `${esc(r.oracle.verdict)}${r.oracle.agrees === null ? "" : r.oracle.agrees ? " (agrees)" : " (disagrees)"}` : "-");
  const rows = lines.map(({ row: r, href, attempt, note }, i) => {
    const n = String(i + first);
    const grade = `${badge(r.status)}${r.errorType ? ` <span class="muted">${esc(r.errorType)}</span>` : ""}${note ? ` <span class="muted">${esc(note)}</span>` : ""}`;
    return `<tr><td>${href ? `<a href="${esc(href)}">${n}</a>` : n}</td><td>${esc(label(r))}</td><td>${esc(groupLabel(r.agent, r.model))}</td>${attempts ? `<td class="num">${attempt ?? ""}</td>` : ""}<td class="${esc(r.status)}">${grade}</td>${oracle ? `<td>${verdict(r)}</td>` : ""}<td class="num">${usd(r.spend)}</td><td class="num">${r.seconds.toFixed(1)}</td></tr>`;
  });
  const head = `<tr><th>#</th><th>Task</th><th>Agent/model</th>${attempts ? '<th class="num">Attempt</th>' : ""}<th>Grade</th>${oracle ? "<th>Oracle</th>" : ""}<th class="num">Spend</th><th class="num">Seconds</th></tr>`;
  return `<table id="trials">${head}${rows.join("")}</table>`;
}

export function renderReport(title: string, scores: Scores, rows: readonly TrialRow[]): string {
  const label = taskLabeller(rows);
  const lines = rows.map((row, i) => ({ row, href: `#trial-${i + 1}` }));
  const sections = rows.map((r, i) => {
    const heading = `<h2>Trial ${i + 1}: ${esc(label(r))} — ${esc(groupLabel(r.agent, r.model))}</h2>`;
    const body = r.runDir ? runHtml(readRun(r.runDir, REPORT_CAPS), {}, 3) : "<p>No run folder (the trial failed before it had one).</p>";
    return `<section id="trial-${i + 1}">${heading}\n${body}</section>`;
  });
  const body = [
    `<h1>${esc(title)}</h1>`,
    "<h2>Summary</h2>", summaryTable(scores),
    "<h2>Tasks</h2>", heatMap(scores),
    "<h2>pass@k</h2>", passAtKChart(scores),
    "<h2>Cost and success</h2>", costChart(scores),
    "<h2>Trials</h2>", trialsTable(lines, label),
    ...sections,
  ].join("\n");
  return page({ title, body });
}
