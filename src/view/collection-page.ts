/**
 * A job's or a folder's page: progress (a job), filters, the scores (report components: summary,
 * charts), the task × agent/model matrix whose cells filter the list, the list of trials (a page of
 * it) and a form to set two agents side by side. The parts that change while a job runs are
 * fragments the live updates replace (events.ts sends them rendered by the same functions).
 */
import { groupLabel, score, taskLabeller } from "../results/aggregate.ts";
import { costChart, heatMap, passAtKChart, summaryTable, trialsTable } from "../report/html.ts";
import { count, esc, page, pct, usd } from "../report/page.ts";
import { CLIENT_SCRIPT } from "./client.ts";
import type { Collection } from "./collection.ts";
import type { Progress } from "./job-state.ts";
import { type Filters, filterQuery, GRADES, href, matches, PAGE_SIZE } from "./query.ts";

const STATE_CLASS: Record<Progress["state"], string> = { running: "running", finished: "passed", stopped: "error" };

export const stateBadge = (p: Progress) => `<span class="badge ${STATE_CLASS[p.state]}">${p.state}</span>`;

/** Passed, failed and errors as shares of all the job's trials. */
export function progressBar(p: Progress): string {
  const share = (n: number) => (p.total > 0 ? `${((n / p.total) * 100).toFixed(2)}%` : "0");
  return `<div class="bar"><i class="p" style="width:${share(p.passed)}"></i><i class="f" style="width:${share(p.failed)}"></i><i class="e" style="width:${share(p.errors)}"></i></div>`;
}

/** The pass rate of the trials ended so far. */
export const passRate = (p: Progress) => (p.passed + p.failed + p.errors > 0 ? pct(p.passed / (p.passed + p.failed + p.errors)) : "-");

/** An ISO time to the minute, as people read it (UTC). */
export const when = (iso: unknown) => (typeof iso === "string" && /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(iso) ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : "");

export function progressHtml(p: Progress, running: Collection["running"]): string {
  const cards = [
    ["Trials", `${count(p.done)}/${count(p.total)}`, progressBar(p)],
    ["Passed so far", passRate(p), `${count(p.passed)} passed`],
    ["Failed", count(p.failed), ""],
    ["Errors", count(p.errors), ""],
    ["Spend", usd(p.spend), ""],
    ["State", stateBadge(p), p.running ? `${p.running} running` : ""],
  ];
  const list = running.length ? `<p>Running now: ${running.map((r) => `<a href="${esc(r.log)}">${esc(r.label)}</a>${r.tryNo > 1 ? ` (try ${r.tryNo})` : ""}`).join(" · ")}</p>` : "";
  return `<div class="cards">${cards.map(([k, v, sub]) => `<div class="card">${k}<b>${v}</b>${sub}</div>`).join("")}</div>${list}`;
}

function options(values: readonly string[], selected: string, any: string): string {
  return [`<option value="">${esc(any)}</option>`, ...values.map((v) => `<option${v === selected ? " selected" : ""}>${esc(v)}</option>`)].join("");
}

function filtersForm(c: Collection, f: Filters): string {
  const rows = c.items.map((i) => i.row);
  const agents = [...new Set(rows.map((r) => r.agent))].sort();
  const models = [...new Set(rows.map((r) => r.model))].sort();
  return `<form class="filters" method="get" action="${esc(c.base)}">
<label>Task <input type="search" name="task" value="${esc(f.task)}" placeholder="part of a name, or =NAME"></label>
<label>Agent <select name="agent">${options(agents, f.agent, "any")}</select></label>
<label>Model <select name="model">${options(models, f.model, "any")}</select></label>
<label>Grade <select name="grade">${options(GRADES, f.grade, "any")}</select></label>
<button type="submit">Filter</button> <a href="${esc(c.base)}">clear</a>
</form>`;
}

function compareForm(c: Collection, groups: readonly string[]): string {
  if (groups.length < 2) return "";
  return `<form class="filters" method="get" action="${esc(c.base)}/compare">
<label>Side by side: <select name="a">${options(groups, groups[0] as string, "agent/model")}</select></label>
<label>and <select name="b">${options(groups, groups[1] as string, "agent/model")}</select></label>
<label><span><input type="checkbox" name="differing" value="1"> only tasks where they differ</span></label>
<button type="submit">Compare</button>
</form>`;
}

function pager(c: Collection, f: Filters, total: number): string {
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  if (pages === 1) return `<p class="muted">${count(total)} trial${total === 1 ? "" : "s"}</p>`;
  const link = (n: number, text: string) => `<a href="${esc(c.base + filterQuery({ ...f, page: n }))}">${text}</a>`;
  const prev = f.page > 1 ? link(f.page - 1, "← previous") : "";
  const next = f.page < pages ? link(f.page + 1, "next →") : "";
  return `<p class="muted">${count(total)} trials · page ${f.page} of ${pages} ${prev} ${next}</p>`;
}

/** The parts of the page the live updates replace, by element id. */
export function collectionFragments(c: Collection, f: Filters): Record<string, string> {
  const all = c.items.filter((i) => matches(i.row, f, false));
  const rows = all.map((i) => i.row);
  const scores = score(rows);
  const label = taskLabeller(rows);
  const byLabel = new Map(scores.groups.map((g) => [groupLabel(g.agent, g.model), g]));
  const cellLink = (task: string, group: string) => {
    const g = byLabel.get(group);
    return g ? c.base + filterQuery({ task: `=${task}`, agent: g.agent, model: g.model }) : null;
  };
  const listed = all.filter((i) => matches(i.row, f));
  const start = (f.page - 1) * PAGE_SIZE;
  const shown = listed.slice(start, start + PAGE_SIZE);
  const out: Record<string, string> = {
    scores: rows.length ? `${summaryTable(scores)}<div class="side"><div>${passAtKChart(scores)}</div><div>${costChart(scores)}</div></div>` : '<p class="muted">No trial has ended yet.</p>',
    matrix: rows.length ? heatMap(scores, cellLink) : "",
    "trials-box": `${pager(c, f, listed.length)}${shown.length ? trialsTable(shown, label, start + 1) : ""}`,
  };
  if (c.job) out.progress = progressHtml(c.job.progress(), c.running);
  return out;
}

export function collectionPage(c: Collection, f: Filters): string {
  const parts = collectionFragments(c, f);
  const job = c.job?.job;
  const groups = [...new Set(c.items.map((i) => groupLabel(i.row.agent, i.row.model)))].sort();
  const meta = job
    ? `<p class="muted">Dataset ${esc(`${job.dataset?.name ?? "?"}@${job.dataset?.version ?? ""}`)} · created ${esc(when(job.created_at))} · ssebench ${esc(String(job.ssebench_version ?? ""))} · ${esc(c.job?.dir ?? "")}</p>`
    : c.job?.problem
      ? `<p class="error">${esc(c.job.problem)}</p>`
      : "";
  const live = c.job ? ' <span id="live" class="live">connecting…</span>' : "";
  const body = [
    `<nav class="crumbs"><a href="${href.index()}">all jobs and runs</a> › ${esc(c.title)}</nav>`,
    `<h1>${esc(c.title)}${live}</h1>`,
    meta,
    parts.progress === undefined ? "" : `<div id="progress">${parts.progress}</div>`,
    filtersForm(c, f),
    `<h2>Scores</h2><div id="scores">${parts.scores}</div>`,
    compareForm(c, groups),
    `<h2>Tasks × agents</h2><p class="muted">passed/graded; a cell lists its trials.</p><div id="matrix">${parts.matrix}</div>`,
    `<h2>Trials</h2><div id="trials-box">${parts["trials-box"]}</div>`,
  ].join("\n");
  const events = c.job ? ` data-events="${esc(href.events(`job=${encodeURIComponent(c.key)}${filterQuery(f).replace(/^\?/, "&")}`))}"` : "";
  return page({ title: `${c.title} · ssebench view`, body, script: CLIENT_SCRIPT, bodyAttributes: events.trim() });
}
