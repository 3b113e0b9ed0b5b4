/** What `ssebench tasks list` and `tasks show` print, computed from an opened catalog. */
import { join } from "node:path";
import { type Catalog, type Env, findTask, openCatalog, registryFromEnv, resolveImage } from "./client.ts";
import { type CaseImageRef, caseImageRef, type TaskSummary, taskDetail, taskSummary } from "./image-refs.ts";
import { messages } from "./messages.ts";
import { usageError } from "../errors.ts";
import type { ManifestTask } from "../formats/manifest/manifest-types.ts";
import { LANGUAGES } from "../formats/patterns.ts";
import { compareCodePoints } from "../formats/compat/python-json.ts";

export interface Listing {
  tasks: TaskSummary[];
  /** each listed task's vulnerability type (`metadata.type`), in the same order */
  types: (string | null)[];
  /** how many tasks the catalog has before the filters */
  total: number;
  /** the catalog's location, for messages */
  location: string;
  warnings: string[];
}

export interface TaskFilter {
  /** exactly this language (one of LANGUAGES) */
  language?: string;
  /** text the vulnerability type contains, any case */
  type?: string;
}

/** The filter as given on the command line; an unknown language is a usage error (exit 2). */
export function checkFilter(filter: TaskFilter): TaskFilter {
  const language = filter.language?.trim().toLowerCase();
  if (language !== undefined && !(LANGUAGES as readonly string[]).includes(language)) {
    throw usageError(messages.unknownLanguage(filter.language ?? "", LANGUAGES));
  }
  const type = filter.type?.trim().toLowerCase();
  return { language: language || undefined, type: type || undefined };
}

function matches(task: ManifestTask, { language, type }: TaskFilter): boolean {
  if (language !== undefined && task.language !== language) return false;
  return type === undefined || (task.metadata.type ?? "").toLowerCase().includes(type);
}

/** What a listing keeps of a task (not its files nor the rest of its metadata). */
interface Listed {
  summary: TaskSummary;
  type: string | null;
  warning?: string;
}

function listed(task: ManifestTask, image: CaseImageRef, registry: string): Listed {
  return { summary: taskSummary(task, image, registry), type: task.metadata.type ?? null, warning: image.warning };
}

function sortedListing(rows: Listed[], { total, location, warnings: first }: { total: number; location: string; warnings: string[] }): Listing {
  rows.sort((a, b) => compareCodePoints(a.summary.id, b.summary.id));
  const warnings = [...first];
  for (const row of rows) if (row.warning) warnings.push(row.warning);
  return { total, location, tasks: rows.map((r) => r.summary), types: rows.map((r) => r.type), warnings };
}

/**
 * A local manifest is listed task by task (local-listing.ts), keeping of each task only what the
 * listing shows; anything that path does not take goes the ordinary way, with its messages.
 */
async function listStreamed(env: Env, catalog: string | undefined, filter: TaskFilter, registry: string): Promise<Listing | undefined> {
  const { streamLocalCatalog } = await import("./local-listing.ts");
  const rows: Listed[] = [];
  const streamed = await streamLocalCatalog({ catalog, env }, (task, manifest, lock) => {
    if (matches(task, filter)) rows.push(listed(task, caseImageRef(manifest, task, lock, registry), registry));
  });
  return streamed && sortedListing(rows, streamed);
}

export async function listTasks(options: { catalog?: string; env?: Env; filter?: TaskFilter }): Promise<Listing> {
  const env = options.env ?? process.env;
  const filter = checkFilter(options.filter ?? {});
  const registry = registryFromEnv(env);
  const streamed = await listStreamed(env, options.catalog, filter, registry);
  if (streamed) return streamed;
  const catalog = await openCatalog({ catalog: options.catalog, env });
  const rows = catalog.manifest.tasks.filter((task) => matches(task, filter)).map((task) => listed(task, resolveImage(catalog, task, registry), registry));
  return sortedListing(rows, { total: catalog.manifest.tasks.length, location: catalog.location, warnings: catalog.warnings });
}

export interface Shown {
  detail: ReturnType<typeof taskDetail>;
  image: CaseImageRef;
  /** report path → text, for the crash reports this catalog has the text of */
  reports: ReadonlyMap<string, string>;
  warnings: string[];
}

/**
 * The crash reports' text: built into the binary for the demo; for another built-in dataset
 * (debian), from its task folder in the ssebench home (the checkout, or the copy the binary
 * carries, which the caller finds); else from a local task folder.
 */
async function reportsOf(catalog: Catalog, task: ManifestTask, homeDatasets?: () => Promise<string | undefined>): Promise<ReadonlyMap<string, string>> {
  if (!task.metadata.task_description.crash_report?.length) return new Map();
  const { taskReportTexts } = await import("./report-texts.ts");
  if (catalog.embedded) {
    const builtIn = (await import("./embedded-reports.ts")).embeddedReportTexts().get(task.id);
    if (builtIn) return builtIn;
    const datasets = await homeDatasets?.();
    return datasets ? taskReportTexts(task, join(datasets, catalog.manifest.dataset)) : new Map();
  }
  if (!catalog.localDir) return new Map();
  return taskReportTexts(task, catalog.localDir);
}

/** `homeDatasets`: the datasets/ folder of the ssebench home, where built-in datasets other than the demo keep their task folders. */
export async function showTask(options: { id: string; catalog?: string; env?: Env; homeDatasets?: () => Promise<string | undefined> }): Promise<Shown> {
  const env = options.env ?? process.env;
  const catalog = await openCatalog({ catalog: options.catalog, env });
  const registry = registryFromEnv(env);
  const task = findTask(catalog, options.id);
  const image = resolveImage(catalog, task, registry);
  const warnings = [...catalog.warnings, ...(image.warning ? [image.warning] : [])];
  return { detail: taskDetail(task, image, registry), image, reports: await reportsOf(catalog, task, options.homeDatasets), warnings };
}

/**
 * A table cell safe for a terminal: a catalog on the network could put escape sequences or line
 * breaks in a project name; those become U+FFFD (--json keeps the exact text).
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, "\uFFFD");
}

/** Text of several lines for a terminal: line breaks and tabs kept, other control characters shown as U+FFFD. */
export function printableLines(text: string): string {
  return text.replace(/\r\n?/g, "\n").replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g, "\uFFFD");
}

/**
 * The task statement, what an agent is given to work from: the issue, each crash report (its
 * text, or where it is when this catalog does not have it) and the bug description, each under
 * a heading line.
 */
export function describeStatement({ detail, reports }: Shown): string {
  const d = detail.metadata.task_description;
  const parts: string[] = [];
  const block = (heading: string, text: string) => parts.push(`${heading}\n${printableLines(text).replace(/\n+$/, "")}\n`);
  if (d.issue?.trim()) block("Issue:", d.issue);
  for (const path of d.crash_report ?? []) {
    const text = reports.get(path);
    if (text === undefined) parts.push(`Crash report ${printable(path)}: ${messages.reportNotInCatalog(printable(path))}\n`);
    else block(`Crash report ${printable(path)}:`, text);
  }
  if (d.bug_description?.trim()) block("Bug description:", d.bug_description);
  return parts.join("\n");
}

/** `tasks show` for people: one `name  value` line per field, the description fields last. */
export function describeTask({ detail, image }: Shown): [string, string][] {
  const m = detail.metadata;
  const rows: [string, string | null | undefined][] = [
    ["id", detail.id],
    ["language", detail.language],
    ["project", detail.project],
    ["repository", detail.repository],
    ["base", detail.base],
    ["image", detail.image],
    ["pinned", image.pinned ? `yes, by the images lock (${image.tagRef} locally)` : "no, named by the dataset's tag"],
    ["arch", detail.arch.join(", ")],
    ["checks", detail.checks.join(", ") || "(none)"],
    ["files", String(detail.files?.entries.length ?? 0)],
    ["source", m.source],
    ["sanitizer", m.sanitizer],
    ["type", m.type],
    ["originality", m.originality],
  ];
  return rows.filter((r): r is [string, string] => typeof r[1] === "string" && r[1] !== "").map(([k, v]) => [k, printable(v)]);
}
