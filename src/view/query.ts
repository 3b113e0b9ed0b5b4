/**
 * The viewer's URLs: where each page is, and a collection's filters (task, agent, model, grade, page)
 * as query parameters, so a filtered view is a link and works without the page's script.
 */
import type { TrialRow } from "../results/load.ts";

export interface Filters {
  /** a part of the task's name, any case */
  task: string;
  agent: string;
  model: string;
  /** passed, failed or error */
  grade: string;
  /** 1-based page of the trial list */
  page: number;
}

export const PAGE_SIZE = 100;
export const GRADES = ["passed", "failed", "error"] as const;

const param = (q: URLSearchParams, name: string) => (q.get(name) ?? "").slice(0, 200);

export function parseFilters(q: URLSearchParams): Filters {
  const page = Number.parseInt(param(q, "page"), 10);
  const grade = param(q, "grade");
  return {
    task: param(q, "task").trim(),
    agent: param(q, "agent"),
    model: param(q, "model"),
    grade: (GRADES as readonly string[]).includes(grade) ? grade : "",
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}

/** The query string of these filters (empty ones left out), with `?` when there is any. */
export function filterQuery(f: Partial<Filters>): string {
  const q = new URLSearchParams();
  for (const key of ["task", "agent", "model", "grade"] as const) if (f[key]) q.set(key, f[key] as string);
  if (f.page && f.page > 1) q.set("page", String(f.page));
  const s = q.toString();
  return s ? `?${s}` : "";
}

/** `=NAME`: exactly that task (or `<dataset>/<task>`, as the matrix labels it); else a part of its name. */
function taskMatches(r: Pick<TrialRow, "task" | "dataset">, wanted: string): boolean {
  if (wanted.startsWith("=")) return r.task === wanted.slice(1) || `${r.dataset}/${r.task}` === wanted.slice(1);
  return r.task.toLowerCase().includes(wanted.toLowerCase());
}

/** Whether a row passes the filters (`grade` false: all but the grade, as the scores take them). */
export function matches(r: Pick<TrialRow, "task" | "dataset" | "agent" | "model" | "status">, f: Filters, grade = true): boolean {
  if (f.task && !taskMatches(r, f.task)) return false;
  if (f.agent && r.agent !== f.agent) return false;
  if (f.model && r.model !== f.model) return false;
  return !grade || !f.grade || r.status === f.grade;
}

const segments = (path: string) => path.split("/").map(encodeURIComponent).join("/");

export const href = {
  index: () => "/",
  job: (key: string, f: Partial<Filters> = {}) => `/jobs/${encodeURIComponent(key)}${filterQuery(f)}`,
  folder: (key: string, f: Partial<Filters> = {}) => `/folders/${encodeURIComponent(key)}${filterQuery(f)}`,
  compare: (base: string, a: string, b: string, task = "", differing = false) => {
    const q = new URLSearchParams({ a, b });
    if (task) q.set("task", task);
    if (differing) q.set("differing", "1");
    return `${base}/compare?${q}`;
  },
  run: (root: number, rel: string) => `/runs/${root}/${segments(rel)}`,
  file: (root: number, rel: string, path: string) => `/runs/${root}/${segments(rel)}?file=${encodeURIComponent(path)}`,
  log: (jobKey: string, name: string) => `/jobs/${encodeURIComponent(jobKey)}/logs/${encodeURIComponent(name)}`,
  events: (query: string) => `/api/events?${query}`,
};
