/**
 * `dataset validate` (spec §1): loads a dataset folder, checks it in the reference's order and
 * keeps what the manifest needs (valid configs, parsed Dockerfiles, file lists).
 */
import { existsSync, readdirSync, readlinkSync, statSync } from "node:fs";
import { join } from "node:path";
import { formatProblem } from "../formats/schema/model-errors.ts";
import type { DatasetInfo, TaskMetadata } from "../formats/manifest/manifest-types.ts";
import { CONFIG_FILE, DATASET_FILE } from "../formats/patterns.ts";
import { checkDocument } from "../formats/check.ts";
import { compareCodePoints } from "../formats/compat/python-json.ts";
import { datasetMessages as dm, reportMessages as rm, taskMessages as tm } from "./messages.ts";
import { checkDockerfile } from "./task-dockerfile-checks.ts";
import { checkTaskSources } from "./task-sources-checks.ts";
import type { Dockerfile, StatFn } from "./dockerfile.ts";
import { pythonRepr } from "./python-text.ts";
import { isSymlink, treeStat, walkTaskFolder } from "./task-tree.ts";
import { readYamlFile } from "./yaml-file.ts";

export interface LoadedTask {
  /** the folder name, which must be the task id */
  id: string;
  dir: string;
  errors: string[];
  config?: TaskMetadata;
  dockerfile?: Dockerfile;
  /** regular files of the folder, POSIX paths, code-point sorted */
  files: string[];
}

export interface LoadedDataset {
  /** DIR as the user gave it: every message names it so */
  dir: string;
  errors: string[];
  info?: DatasetInfo;
  tasks: LoadedTask[];
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function loadDatasetInfo(dir: string, errors: string[]): DatasetInfo | undefined {
  const path = join(dir, DATASET_FILE);
  if (!existsSync(path)) {
    errors.push(dm.datasetFileMissing);
    return undefined;
  }
  const read = readYamlFile(path);
  if (!read.ok) {
    errors.push(dm.datasetFileUnreadable(read.cause));
    return undefined;
  }
  const checked = checkDocument<DatasetInfo>("dataset", read.data, read.nonStringKeys);
  if (checked.ok) return checked.value;
  for (const p of checked.problems) errors.push(dm.datasetFileProblem(formatProblem(p)));
  return undefined;
}

function loadConfig(task: LoadedTask, stat: StatFn): void {
  const path = join(task.dir, CONFIG_FILE);
  const info = stat(path);
  if (!info) return void task.errors.push(tm.configMissing);
  const read = info.isFile() ? readYamlFile(path, { knownFile: true }) : readYamlFile(path);
  if (!read.ok) return void task.errors.push(tm.configUnreadable(read.cause));
  const checked = checkDocument<TaskMetadata>("task", read.data, read.nonStringKeys);
  if (!checked.ok) {
    for (const p of checked.problems) task.errors.push(tm.configProblem(formatProblem(p)));
    return;
  }
  task.config = checked.value;
  if (checked.value.id !== task.id) task.errors.push(tm.idNotFolder(pythonRepr(checked.value.id)));
}

/** Runs the per-task checks (§1.2) on `<dir>/<id>`. */
export function loadTask(dir: string, id: string): LoadedTask {
  const task: LoadedTask = { id, dir: join(dir, id), errors: [], files: [] };
  if (isSymlink(task.dir)) {
    task.errors.push(tm.folderIsSymlink(readlinkSync(task.dir)));
    return task;
  }
  // Walked first so the checks can ask it instead of the file system; its problems come last.
  const tree = walkTaskFolder(task.dir);
  task.files = tree.files;
  const stat = treeStat(task.dir, tree);
  loadConfig(task, stat);
  task.dockerfile = checkDockerfile({ dir: task.dir, stat, errors: task.errors, config: task.config });
  checkTaskSources(task);
  task.errors.push(...tree.problems);
  return task;
}

/** The dataset-level checks (§1.1) and the task folder names, in order; tasks not yet loaded. */
export function openDataset(dir: string): { dataset: LoadedDataset; ids: string[] } {
  const dataset: LoadedDataset = { dir, errors: [], tasks: [] };
  if (!isDirectory(dir)) {
    dataset.errors.push(dm.notADirectory);
    return { dataset, ids: [] };
  }
  dataset.info = loadDatasetInfo(dir, dataset.errors);
  let ids: string[];
  try {
    ids = readdirSync(dir).filter((name) => !name.startsWith(".") && isDirectory(join(dir, name)));
  } catch (error) {
    dataset.errors.push(dm.datasetFileUnreadable(String(error)));
    return { dataset, ids: [] };
  }
  ids.sort(compareCodePoints);
  if (ids.length === 0) dataset.errors.push(dm.noTaskFolders);
  const seen = new Map<string, string>();
  for (const id of ids) {
    const lowered = id.toLowerCase();
    const first = seen.get(lowered);
    if (first !== undefined && first !== id) dataset.errors.push(dm.caseCollision(first, id, lowered));
    else seen.set(lowered, id);
  }
  return { dataset, ids };
}

/** Validates the dataset at `dir` (as given by the user). Never throws for bad input. */
export function loadDataset(dir: string): LoadedDataset {
  const { dataset, ids } = openDataset(dir);
  dataset.tasks = ids.map((id) => loadTask(dir, id));
  return dataset;
}

export function isValidDataset(d: LoadedDataset): boolean {
  return d.errors.length === 0 && d.tasks.every((t) => t.errors.length === 0);
}

/** The reference's `format_errors()`: dataset lines, then each failing task and its lines. */
export function formatErrors(d: LoadedDataset): string {
  const lines = d.errors.map((e) => `${d.dir}: ${e}`);
  for (const task of d.tasks) {
    if (task.errors.length === 0) continue;
    lines.push(`${task.id}:`, ...task.errors.map((e) => `  ${e}`));
  }
  return lines.join("\n");
}

/** The stderr text of an invalid dataset, ending in the `K of N tasks are invalid` line. */
export function invalidReport(d: LoadedDataset): string {
  const failing = d.tasks.filter((t) => t.errors.length > 0).length;
  return `${formatErrors(d)}\n${rm.invalid(d.dir, failing, d.tasks.length)}`;
}
