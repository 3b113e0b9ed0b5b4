/**
 * A trial's page: the run folder's sections (run-view.ts: grade, checks with their logs, the patch,
 * the conversation, the ledger, the files, each file a link to itself) under a header that says
 * which job, trial and try it is, with links to the trial's other tries.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { groupLabel } from "../results/aggregate.ts";
import { badge, esc, page } from "../report/page.ts";
import { readRun, VIEW_CAPS } from "../report/run-folder.ts";
import { runHtml } from "../report/run-view.ts";
import { trialLogName } from "../jobs/store.ts";
import { CLIENT_SCRIPT } from "./client.ts";
import { insideResults } from "../results/load.ts";
import type { Library, Root } from "./library.ts";
import { href } from "./query.ts";

/** The job whose trial ran in this folder, the trial, and all its tries. */
function trialOf(library: Library, root: Root, rel: string) {
  for (const [key, job] of library.jobKeys()) {
    if (job.results !== root.dir) continue;
    const records = job.allRecords();
    const mine = records.find((r) => insideResults(r.run_dir) === rel);
    if (mine) return { key, job, trial: mine, tries: records.filter((r) => r.trial === mine.trial) };
  }
  return undefined;
}

export function runPage(library: Library, root: Root, rel: string, dir: string): string {
  const r = readRun(dir, VIEW_CAPS);
  const t = trialOf(library, root, rel);
  const crumbs = [`<a href="${href.index()}">all jobs and runs</a>`];
  if (t) crumbs.push(`<a href="${esc(href.job(t.key))}">job ${esc(t.key)}</a>`);
  else {
    const folder = library.folders.find((f) => f.root === root);
    if (folder) crumbs.push(`<a href="${esc(href.folder(folder.key))}">${esc(folder.dir)}</a>`);
  }
  crumbs.push(esc(rel.split("/").pop() as string));
  const title = `${r.task} — ${groupLabel(r.agent, r.model)}${t ? ` #${t.trial.attempt}` : ""}`;
  const tries = t && t.tries.length > 1
    ? `<p>Tries of this trial: ${t.tries
        .map((x) => {
          const at = insideResults(x.run_dir);
          const label = `${x.try}: ${badge(x.status, x.error_type ?? "")}`;
          return at && at !== rel ? `<a href="${esc(href.run(root.id, at))}">${label}</a>` : at === rel ? `<b>${label}</b>` : label;
        })
        .join(" · ")}</p>`
    : "";
  const logName = t ? trialLogName(t.trial.trial, t.trial.try) : "";
  const log = t && existsSync(join(t.job.dir, "logs", logName)) ? `<p class="muted">The job's log of this try: <a href="${esc(href.log(t.key, logName))}">${esc(logName)}</a></p>` : "";
  const body = [
    `<nav class="crumbs">${crumbs.join(" › ")}</nav>`,
    `<h1>${esc(title)}</h1>`,
    tries,
    log,
    runHtml(r, { file: (path) => href.file(root.id, rel, path) }, 2),
  ].join("\n");
  return page({ title: `${title} · ssebench view`, body, script: CLIENT_SCRIPT });
}
