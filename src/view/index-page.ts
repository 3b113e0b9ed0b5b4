/**
 * The viewer's first page: every job (progress, pass rate so far, spend, state) and every folder of
 * runs it serves. Only the jobs' own files are read (job.json, trials.jsonl, lock, logs/), never the
 * run folders, so it is quick however many trials there are. The jobs table is a live fragment.
 */
import { count, esc, page, usd } from "../report/page.ts";
import { CLIENT_SCRIPT } from "./client.ts";
import { passRate, progressBar, stateBadge, when } from "./collection-page.ts";
import type { Library } from "./library.ts";
import { href } from "./query.ts";

export function jobsTable(library: Library): string {
  const keys = library.jobKeys();
  if (keys.size === 0) return '<p class="muted">No job yet. A job started with <code>ssebench run … --job NAME</code> in a results folder served here shows up on its own.</p>';
  const rows = [...keys].map(([key, job]) => {
    const p = job.progress();
    const plan = job.job;
    const td = (html: string) => `<td>${html}</td>`;
    const num = (text: string) => `<td class="num">${text}</td>`;
    const cells = [
      td(`<a href="${esc(href.job(key))}">${esc(key)}</a>${job.problem ? ` <span class="error">${esc(job.problem)}</span>` : ""}`),
      td(esc(plan ? `${plan.dataset?.name ?? "?"}@${plan.dataset?.version ?? ""}` : "?")),
      td(esc(when(plan?.created_at))),
      td(`${count(p.done)}/${count(p.total)}${progressBar(p)}`),
      num(count(p.passed)),
      num(count(p.failed)),
      num(count(p.errors)),
      num(passRate(p)),
      num(usd(p.spend)),
      td(`${stateBadge(p)}${p.running ? ` <span class="muted">${p.running} running</span>` : ""}`),
    ];
    return `<tr data-job="${esc(key)}">${cells.join("")}</tr>`;
  });
  const head = '<tr><th>Job</th><th>Dataset</th><th>Created</th><th>Trials ended</th><th class="num">Passed</th><th class="num">Failed</th><th class="num">Errors</th><th class="num">Pass rate</th><th class="num">Spend</th><th>State</th></tr>';
  return `<table id="jobs">${head}${rows.join("")}</table>`;
}

export function indexPage(library: Library): string {
  const folders = library.folders.map((f) => `<li><a href="${esc(href.folder(f.key))}">${esc(f.dir)}</a> <span class="muted">every run below it, as <code>ssebench results</code> scans them</span></li>`);
  const body = [
    `<h1>ssebench view <span id="live" class="live">connecting…</span></h1>`,
    "<h2>Jobs</h2>",
    `<div id="jobs-box">${jobsTable(library)}</div>`,
    folders.length ? `<h2>Folders of runs</h2><ul>${folders.join("")}</ul>` : "",
  ].join("\n");
  return page({ title: "ssebench view", body, script: CLIENT_SCRIPT, bodyAttributes: `data-events="${esc(href.events("index=1"))}"` });
}
