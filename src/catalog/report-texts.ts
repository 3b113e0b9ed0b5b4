/**
 * The text of each task's crash reports, for the task pages and `tasks show`. The manifest names
 * the reports (`task_description.crash_report`, paths under the task's `sse/`) but does not hold
 * them; they are read from the task folder beside a local manifest (`<dir>/<id>/sse/<path>`), only
 * when the file resolves inside the dataset folder (dataset-files.ts: no host file through a link)
 * and is the one the manifest lists (same SHA-256), so a folder that drifted from the catalog is
 * not shown as its text. The built-in demo dataset carries its own (embedded-reports.ts).
 */
import { readdir } from "node:fs/promises";
import { join, normalize } from "node:path";
import type { ManifestTask } from "../formats/manifest/manifest-types.ts";
import { readInside } from "./dataset-files.ts";

/** task id → report path (as the config names it) → text */
export type ReportTexts = ReadonlyMap<string, ReadonlyMap<string, string>>;

/** Bigger reports are cut here (the page says so): a page stays readable and start-up light. */
export const REPORT_LIMIT_BYTES = 256 * 1024;

/** A report path that stays inside `sse/` (the dataset validator refuses others; a served manifest may not). */
function insideSse(path: string): string | undefined {
  const clean = normalize(path);
  return clean.startsWith("/") || clean === ".." || clean.startsWith("../") ? undefined : `sse/${clean}`;
}

async function readReport(folder: string, file: string, sha256: string | undefined): Promise<string | undefined> {
  const read = await readInside(folder, file);
  if (!read.ok) return undefined;
  const bytes = read.bytes;
  if (sha256 !== undefined && Bun.CryptoHasher.hash("sha256", bytes, "hex") !== sha256) return undefined;
  const cut = bytes.length > REPORT_LIMIT_BYTES;
  const text = new TextDecoder().decode(cut ? bytes.subarray(0, REPORT_LIMIT_BYTES) : bytes);
  return cut ? `${text}\n[… cut at ${REPORT_LIMIT_BYTES / 1024} KiB]` : text;
}

/**
 * The reports of one task found in its folder `<folder>/<id>` (a task whose manifest entry has no
 * files trusts the folder); only files that resolve inside the dataset folder `folder` are read.
 */
export async function taskReportTexts(task: ManifestTask, folder: string): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  for (const path of task.metadata.task_description.crash_report ?? []) {
    const relative = insideSse(path);
    if (!relative) continue;
    if (task.files && !Object.hasOwn(task.files, relative)) continue;
    const text = await readReport(folder, join(folder, task.id, relative), task.files?.[relative]);
    if (text !== undefined) texts.set(path, text);
  }
  return texts;
}

/** Every task's reports from the task folders in the dataset folder `dir` (tasks without a folder have none). */
export async function readReportTexts(tasks: readonly ManifestTask[], dir: string): Promise<ReportTexts> {
  const all = new Map<string, ReadonlyMap<string, string>>();
  // One listing instead of a failed lookup per task: a big catalog served alone has no folders.
  const folders = new Set(await readdir(dir).catch(() => []));
  for (const task of tasks) {
    if (!folders.has(task.id) || !task.metadata.task_description.crash_report?.length) continue;
    const texts = await taskReportTexts(task, dir);
    if (texts.size > 0) all.set(task.id, texts);
  }
  return all;
}
