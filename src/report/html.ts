/**
 * `ssebench report`: one self-contained HTML file (inline CSS and SVG, no script, no network): the
 * summary table, a task × agent/model heat map, pass@k and cost-vs-success charts, and a section
 * per trial (trial-page.ts).
 */
import { groupLabel, type Scores, taskLabeller } from "../results/aggregate.ts";
import type { TrialRow } from "../results/load.ts";
import { esc, trialSection } from "./trial-page.ts";

const pct = (x: number | null) => (x === null ? "-" : `${(x * 100).toFixed(1)}%`);

const STYLE = `body{font:14px system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0}
td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}th{background:#f3f3f3}
.passed{color:#176c2f}.failed{color:#a4161a}.error,.timeout{color:#8a5a00}
pre{background:#f7f7f7;padding:8px;overflow:auto;max-height:30em}.diff .a{color:#176c2f}.diff .d{color:#a4161a}.diff .u{color:#5a3fa0}.diff .h{font-weight:bold}
section{border-top:1px solid #ddd;margin-top:1.5em}.turn b{display:block;margin-top:.5em}`;

function summaryTable(scores: Scores): string {
  const ks = [...new Set(scores.groups.flatMap((g) => Object.keys(g.pass_at_k)))];
  // The oracle plugin's column only when some run has a verdict.
  const oracle = scores.groups.some((g) => g.oracle.reviewed > 0);
  const head = ["Agent/model", "Trials", "Resolved", "Rate", "95% CI", "Rate w/o infra", ...ks.map((k) => `pass@${k}`), "Cost", "Cost/trial", "Tokens", "Mean s", "Errors", ...(oracle ? ["Oracle agrees"] : [])];
  const rows = scores.groups.map((g) => [
    groupLabel(g.agent, g.model), String(g.trials), String(g.resolved), pct(g.rate), `${pct(g.interval[0])}–${pct(g.interval[1])}`, pct(g.rate_without_infra),
    ...ks.map((k) => g.pass_at_k[k]?.toFixed(3) ?? "-"), `$${g.cost_total.toFixed(4)}`, `$${g.cost_mean.toFixed(4)}`, String(g.tokens), g.seconds_mean.toFixed(1),
    Object.entries(g.errors).map(([k, v]) => `${k} ${v}`).join(", ") || "-",
    ...(oracle ? [g.oracle.reviewed === 0 ? "-" : `${g.oracle.agrees}/${g.oracle.compared} of ${g.oracle.reviewed}`] : []),
  ]);
  return `<table id="summary"><tr>${head.map((h) => `<th>${esc(h)}</th>`).join("")}</tr>${rows.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join("")}</tr>`).join("")}</table>`;
}

function heatMap(scores: Scores): string {
  const labels = scores.groups.map((g) => groupLabel(g.agent, g.model));
  const rows = Object.entries(scores.tasks).map(([task, cells]) => {
    const tds = labels.map((l) => {
      const c = cells[l];
      if (!c) return "<td></td>";
      const rate = c.graded > 0 ? c.passed / c.graded : 0;
      return `<td style="background:hsl(${Math.round(rate * 120)},60%,80%)">${c.passed}/${c.graded}${c.errors ? ` +${c.errors} err` : ""}</td>`;
    });
    return `<tr><th>${esc(task)}</th>${tds.join("")}</tr>`;
  });
  return `<table id="heatmap"><tr><th>Task</th>${labels.map((l) => `<th>${esc(l)}</th>`).join("")}</tr>${rows.join("")}</table>`;
}

function passAtKChart(scores: Scores): string {
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

function costChart(scores: Scores): string {
  const maxCost = Math.max(1e-9, ...scores.groups.map((g) => g.cost_mean));
  const points = scores.groups.map((g) => {
    const cx = 50 + Math.round((g.cost_mean / maxCost) * 300);
    const cy = 170 - Math.round(g.rate * 150);
    return `<circle cx="${cx}" cy="${cy}" r="5" fill="#d0584a"/><text x="${cx + 8}" y="${cy + 4}" font-size="11">${esc(groupLabel(g.agent, g.model))}</text>`;
  });
  return `<svg id="cost" width="480" height="200" xmlns="http://www.w3.org/2000/svg"><line x1="50" y1="170" x2="370" y2="170" stroke="#888"/><line x1="50" y1="20" x2="50" y2="170" stroke="#888"/><text x="200" y="195" font-size="11">mean cost per trial (max $${maxCost.toFixed(4)})</text><text x="5" y="25" font-size="10">100%</text>${points.join("")}</svg>`;
}

export function renderReport(title: string, scores: Scores, rows: readonly TrialRow[]): string {
  const label = taskLabeller(rows);
  const oracle = rows.some((r) => r.oracle);
  const verdict = (r: TrialRow) => (r.oracle ? `${esc(r.oracle.verdict)}${r.oracle.agrees === null ? "" : r.oracle.agrees ? " (agrees)" : " (disagrees)"}` : "-");
  const list = rows.map((r, i) => `<tr><td><a href="#trial-${i + 1}">${i + 1}</a></td><td>${esc(label(r))}</td><td>${esc(groupLabel(r.agent, r.model))}</td><td class="${esc(r.status)}">${esc(r.status)}${r.errorType ? ` (${esc(r.errorType)})` : ""}</td>${oracle ? `<td>${verdict(r)}</td>` : ""}<td>${r.seconds.toFixed(1)}</td></tr>`);
  const sections = rows.map((r, i) => trialSection(`trial-${i + 1}`, `Trial ${i + 1}: ${label(r)} — ${groupLabel(r.agent, r.model)}`, r.runDir));
  return [
    "<!doctype html>",
    `<html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title><style>${STYLE}</style></head><body>`,
    `<h1>${esc(title)}</h1>`,
    "<h2>Summary</h2>", summaryTable(scores),
    "<h2>Tasks</h2>", heatMap(scores),
    "<h2>pass@k</h2>", passAtKChart(scores),
    "<h2>Cost and success</h2>", costChart(scores),
    "<h2>Trials</h2>",
    `<table id="trials"><tr><th>#</th><th>Task</th><th>Agent/model</th><th>Grade</th>${oracle ? "<th>Oracle</th>" : ""}<th>Seconds</th></tr>${list.join("")}</table>`,
    ...sections,
    "</body></html>",
    "",
  ].join("\n");
}
