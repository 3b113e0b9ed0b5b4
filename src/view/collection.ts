/**
 * A set of trials the viewer shows on one page: a job (its ended trials, in plan order, each with
 * its attempt; the running ones beside) or a folder of runs (what `results DIR` scans). Each trial
 * links to its run folder's page when it has one.
 */
import { trialLogName } from "../jobs/store.ts";
import { groupLabel } from "../results/aggregate.ts";
import type { TrialRow } from "../results/load.ts";
import type { JobState } from "./job-state.ts";
import type { Folder, Library } from "./library.ts";
import { href } from "./query.ts";

export interface TrialItem {
  row: TrialRow;
  href: string | null;
  attempt?: number;
  note?: string;
}

export interface RunningItem {
  label: string;
  tryNo: number;
  log: string;
}

export interface Collection {
  kind: "job" | "folder";
  key: string;
  /** the page's path */
  base: string;
  title: string;
  items: TrialItem[];
  job?: JobState;
  running: RunningItem[];
}

export function jobCollection(library: Library, key: string, job: JobState): Collection {
  const items: TrialItem[] = [];
  const running: RunningItem[] = [];
  const root = library.roots.find((r) => r.dir === job.results);
  for (const t of job.trials()) {
    if (t.running) running.push({ label: `${t.spec.task} ${groupLabel(t.spec.agent, t.spec.model)} #${t.spec.attempt}`, tryNo: t.tries + 1, log: href.log(key, trialLogName(t.spec.trial, t.tries + 1)) });
    const run = job.runOf(t);
    if (!run) continue;
    const link = run.rel && root ? href.run(root.id, run.rel) : null;
    items.push({ row: run.row, href: link, attempt: t.spec.attempt, note: link ? undefined : (t.record?.error_msg ?? "no run folder") });
  }
  return { kind: "job", key, base: href.job(key), title: `Job ${job.name}`, items, job, running };
}

export function folderCollection(library: Library, folder: Folder): Collection {
  const items = library.folderRows(folder).map((row): TrialItem => {
    const at = row.runDir ? library.locate(row.runDir) : undefined;
    return { row, href: at ? href.run(at.root.id, at.rel) : null };
  });
  return { kind: "folder", key: folder.key, base: href.folder(folder.key), title: `Runs in ${folder.dir}`, items, running: [] };
}

/** The collection a page path names (`/jobs/KEY`, `/folders/N`). */
export function collectionAt(library: Library, kind: string, key: string): Collection | undefined {
  if (kind === "jobs") {
    const job = library.jobKeys().get(key);
    return job ? jobCollection(library, key, job) : undefined;
  }
  const folder = library.folders.find((f) => f.key === key);
  return folder ? folderCollection(library, folder) : undefined;
}
