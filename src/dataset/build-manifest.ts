/**
 * Builds the manifest of a validated dataset (spec §2.1): one entry per task, sorted by id, with
 * checks derived from the config and the SHA-256 of every file of the task folder.
 */
import { realpathSync } from "node:fs";
import { basename } from "node:path";
import type { Check, Manifest, ManifestTask, TaskMetadata } from "../formats/manifest/manifest-types.ts";
import { DEFAULT_ARCH, REGISTRY_PREFIX, TASK_ID_PATTERN, isTaskId } from "../formats/patterns.ts";
import { UserError, describeCause } from "../errors.ts";
import { hashFiles } from "./hash-files.ts";
import { datasetMessages as dm } from "./messages.ts";
import { pythonRepr } from "./python-text.ts";
import type { LoadedDataset, LoadedTask } from "./validate.ts";

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

function entry(dataset: string, task: LoadedTask): ManifestTask {
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
    files: taskFiles(task),
    metadata: config,
  };
}

function taskFiles(task: LoadedTask): Record<string, string> {
  try {
    return hashFiles(task.dir, task.files);
  } catch (error) {
    throw new UserError(`${task.dir}: cannot read its files: ${describeCause(error)}`);
  }
}

/** The manifest of a valid dataset (tasks are already in code-point order by id). */
export function buildManifest(dataset: LoadedDataset, name: string, generatedFrom?: string | null): Manifest {
  return {
    dataset: name,
    version: dataset.info?.version ?? "",
    generated_from: generatedFrom ?? null,
    tasks: dataset.tasks.map((task) => entry(name, task)),
  };
}
