/** What `ssebench tasks list` and `tasks show` print, computed from an opened catalog. */
import { type Env, findTask, openCatalog, registryFromEnv, resolveImage } from "./client.ts";
import { type CaseImageRef, type TaskSummary, taskDetail, taskSummary } from "./image-refs.ts";
import { compareCodePoints } from "../formats/python-json.ts";

export interface Listing {
  tasks: TaskSummary[];
  warnings: string[];
}

export async function listTasks(options: { catalog?: string; env?: Env }): Promise<Listing> {
  const env = options.env ?? process.env;
  const catalog = await openCatalog({ catalog: options.catalog, env });
  const registry = registryFromEnv(env);
  const warnings = [...catalog.warnings];
  const sorted = [...catalog.manifest.tasks].sort((a, b) => compareCodePoints(a.id, b.id));
  const tasks = sorted.map((task) => {
    const image = resolveImage(catalog, task, registry);
    if (image.warning) warnings.push(image.warning);
    return taskSummary(task, image, registry);
  });
  return { tasks, warnings };
}

export interface Shown {
  detail: ReturnType<typeof taskDetail>;
  image: CaseImageRef;
  warnings: string[];
}

export async function showTask(options: { id: string; catalog?: string; env?: Env }): Promise<Shown> {
  const env = options.env ?? process.env;
  const catalog = await openCatalog({ catalog: options.catalog, env });
  const registry = registryFromEnv(env);
  const task = findTask(catalog, options.id);
  const image = resolveImage(catalog, task, registry);
  const warnings = [...catalog.warnings, ...(image.warning ? [image.warning] : [])];
  return { detail: taskDetail(task, image, registry), image, warnings };
}

/**
 * A table cell safe for a terminal: a catalog on the network could put escape sequences or line
 * breaks in a project name; those become U+FFFD (--json keeps the exact text).
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, "\uFFFD");
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
