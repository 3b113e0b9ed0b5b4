/**
 * Builds the manifest of a validated dataset (spec §2.1): one entry per task, sorted by id, with
 * checks derived from the config and the SHA-256 of every file of the task folder.
 */
import { realpathSync } from "node:fs";
import { basename } from "node:path";
import type { Check, Manifest, ManifestTask, TaskMetadata } from "../formats/manifest-types.ts";
import { DEFAULT_ARCH, REGISTRY_PREFIX, TASK_ID_PATTERN, isTaskId } from "../formats/patterns.ts";
import { UserError, describeCause } from "../errors.ts";
import { FileHashPool } from "./hash-files.ts";
import { datasetMessages as dm } from "./messages.ts";
import { pythonRepr } from "./python-text.ts";
import { type LoadedDataset, type LoadedTask, loadTask, openDataset } from "./validate.ts";

/** The checks the grader can run for a config (spec §2.1, order fixed). */
export function deriveChecks(config: Pick<TaskMetadata, "scripts" | "files">): Check[] {
  const { scripts, files } = config;
  const checks: Check[] = [];
  if (scripts.build) checks.push("build");
  if (scripts.run && files.poc && files.poc.length > 0) checks.push("poc");
  if (scripts.test) checks.push("function_test");
  if (scripts.test && files.future_test) checks.push("intent_test");
  return checks;
}

/**
 * The dataset's name: its folder's real name. The reference crashes on a name its model rejects;
 * here it is a dataset-level error (added to `dataset.errors`) and the result is undefined.
 */
export function datasetName(dataset: LoadedDataset): string | undefined {
  const name = basename(realpathSync(dataset.dir));
  if (isTaskId(name)) return name;
  dataset.errors.push(dm.badDatasetName(pythonRepr(name), TASK_ID_PATTERN));
  return undefined;
}

export type TaskFileHashes = Map<string, Promise<Record<string, string>>>;

/**
 * Validates like loadDataset() and, while it goes, hashes each task's files on the I/O threads
 * (the hashes of an invalid dataset are simply not used).
 */
export async function loadDatasetHashing(dir: string): Promise<{ dataset: LoadedDataset; hashes: TaskFileHashes }> {
  const { dataset, ids } = openDataset(dir);
  const pool = new FileHashPool();
  const hashes: TaskFileHashes = new Map();
  for (const id of ids) {
    const task = loadTask(dir, id);
    dataset.tasks.push(task);
    const files = pool.hashTask(task.dir, task.files);
    files.catch(() => undefined); // awaited (and reported) by buildManifest
    hashes.set(id, files);
    await pool.breathe();
  }
  return { dataset, hashes };
}

async function taskFiles(task: LoadedTask, hashes: TaskFileHashes): Promise<Record<string, string>> {
  try {
    return await (hashes.get(task.id) as Promise<Record<string, string>>);
  } catch (error) {
    throw new UserError(`${task.dir}: cannot read its files: ${describeCause(error)}`);
  }
}

function entry(dataset: string, task: LoadedTask, files: Record<string, string>): ManifestTask {
  const config = task.config as TaskMetadata;
  const image = task.dockerfile?.final.image ?? "";
  return {
    id: task.id,
    language: config.language,
    project: config.project,
    repository: config.repository,
    base: image.startsWith(REGISTRY_PREFIX) ? image.slice(REGISTRY_PREFIX.length) : image,
    image: `case/${dataset}/${task.id}`.toLowerCase(),
    arch: [...DEFAULT_ARCH],
    checks: deriveChecks(config),
    files,
    metadata: config,
  };
}

/** The manifest of a valid dataset (tasks are already in code-point order by id). */
export async function buildManifest(
  dataset: LoadedDataset,
  hashes: TaskFileHashes,
  name: string,
  generatedFrom?: string | null,
): Promise<Manifest> {
  const tasks: ManifestTask[] = [];
  for (const task of dataset.tasks) tasks.push(entry(name, task, await taskFiles(task, hashes)));
  return { dataset: name, version: dataset.info?.version ?? "", generated_from: generatedFrom ?? null, tasks };
}
