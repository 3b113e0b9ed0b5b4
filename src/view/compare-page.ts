/**
 * Two agents (agent/model groups) of a job or folder side by side: their score rows, then one row
 * per task with each side's trials (grades linking to the trials' pages) and which side resolved
 * it (more than half of its graded trials passed, as `results --compare` counts it).
 */
import { groupLabel, score, type TaskCell, taskLabeller } from "../results/aggregate.ts";
import { summaryTable } from "../report/html.ts";
import { badge, esc, page } from "../report/page.ts";
import { CLIENT_SCRIPT } from "./client.ts";
import type { Collection, TrialItem } from "./collection.ts";
import { href } from "./query.ts";

const resolved = (c: TaskCell | undefined) => c !== undefined && c.graded > 0 && c.passed * 2 > c.graded;

function side(items: readonly TrialItem[], cell: TaskCell | undefined): string {
  if (items.length === 0) return '<td class="muted">no trial</td>';
  const grades = items.map((i) => {
    const b = badge(i.row.status, i.attempt !== undefined ? `#${i.attempt}` : "");
    return i.href ? `<a href="${esc(i.href)}">${b}</a>` : b;
  });
  return `<td>${cell ? `<b>${cell.passed}/${cell.graded}</b> ` : ""}${grades.join(" ")}</td>`;
}

export function comparePage(c: Collection, a: string, b: string, taskFilter: string, differing: boolean): string {
  const pick = (g: string) => c.items.filter((i) => groupLabel(i.row.agent, i.row.model) === g && (!taskFilter || i.row.task.toLowerCase().includes(taskFilter.toLowerCase())));
  const [itemsA, itemsB] = [pick(a), pick(b)];
  const rows = [...itemsA, ...itemsB].map((i) => i.row);
  const scores = score(rows);
  const label = taskLabeller(rows);
  const byTask = (items: readonly TrialItem[]) => {
    const m = new Map<string, TrialItem[]>();
    for (const i of items) m.set(label(i.row), [...(m.get(label(i.row)) ?? []), i]);
    return m;
  };
  const [tasksA, tasksB] = [byTask(itemsA), byTask(itemsB)];
  let shown = 0;
  const body = Object.entries(scores.tasks).flatMap(([task, cells]) => {
    const [ca, cb] = [cells[a], cells[b]];
    const [ra, rb] = [resolved(ca), resolved(cb)];
    if (differing && ra === rb) return [];
    shown++;
    const verdict = ra && rb ? "both" : ra ? `${a} only` : rb ? `${b} only` : "neither";
    return [`<tr><th>${esc(task)}</th>${side(tasksA.get(task) ?? [], ca)}${side(tasksB.get(task) ?? [], cb)}<td>${esc(verdict)}</td></tr>`];
  });
  const toggle = href.compare(c.base, a, b, taskFilter, !differing);
  const html = [
    `<nav class="crumbs"><a href="${href.index()}">all jobs and runs</a> › <a href="${esc(c.base)}">${esc(c.title)}</a> › side by side</nav>`,
    `<h1>${esc(a)} and ${esc(b)}</h1>`,
    rows.length ? summaryTable(scores) : '<p class="muted">Neither has a trial here.</p>',
    `<p>${shown} tasks${differing ? " where they differ" : ""} · <a href="${esc(toggle)}">${differing ? "show every task" : "only tasks where they differ"}</a></p>`,
    `<table id="compare"><tr><th>Task</th><th>${esc(a)}</th><th>${esc(b)}</th><th>Resolved by</th></tr>${body.join("")}</table>`,
  ].join("\n");
  return page({ title: `${a} and ${b} · ssebench view`, body: html, script: CLIENT_SCRIPT });
}
