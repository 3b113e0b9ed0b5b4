/**
 * arktype models of `manifest.json` (spec §2.1) and `images.lock.json` (§4.1) plus the publication
 * record that `dataset publish` writes (§4.2). Loaded lazily: importing arktype costs ~100 ms.
 */
import "../schema/ark-setup.ts";
import { type } from "arktype";
import {
  ARCHES,
  CHECKS,
  COMMIT_PATTERN,
  DIGEST_PATTERN,
  SHA256_PATTERN,
  TASK_ID_MAX_LENGTH,
  TASK_ID_PATTERN,
  VERSION_PATTERN,
} from "../patterns.ts";
import type { ImagesLock, Manifest, PublicationRecord, TaskMetadata } from "./manifest-types.ts";
import type { ModelInfo } from "../schema/model-info.ts";
import { taskConfigModel } from "../task/task-config.ts";

const taskId = type(new RegExp(TASK_ID_PATTERN)).and(`string <= ${TASK_ID_MAX_LENGTH}`);
const datasetName = type(new RegExp(TASK_ID_PATTERN));
const version = type(new RegExp(VERSION_PATTERN));
const sha256 = type(new RegExp(SHA256_PATTERN));
const digest = type(new RegExp(DIGEST_PATTERN));
const commit = type(new RegExp(COMMIT_PATTERN));

export const manifestTaskModel = type({
  "+": "reject",
  id: taskId.describe("Task id, the name of the task's folder."),
  language: type("string").describe("Language of the project, from the task config."),
  project: type("string").describe("Project name, from the task config."),
  repository: type("string").describe("Upstream repository, from the task config."),
  base: type("string >= 1").describe("Base image of the case image, without the registry prefix."),
  image: type("string >= 1").describe("Case image name, without registry and tag."),
  arch: type.enumerated(...ARCHES).array().atLeastLength(1).describe("Architectures the case image is built for."),
  checks: type.enumerated(...CHECKS).array().describe("Checks the grader runs for this task."),
  files: type({ "[string]": sha256 })
    .or("null")
    .describe("SHA-256 of every file of the task folder, by path relative to it.")
    .default(null),
  metadata: taskConfigModel.describe("The task's validated sse/config.yaml, every key present."),
});

export const manifestModel = type({
  "+": "reject",
  dataset: datasetName.describe("Dataset name: the name of the dataset folder."),
  version: version.describe("Dataset version, from dataset.yaml."),
  generated_from: type("string | null").describe("Commit the manifest was generated from, if recorded.").default(null),
  tasks: manifestTaskModel.array().describe("Every task of the dataset, sorted by id."),
});

export const lockedImageModel = type({
  "+": "reject",
  digest: digest.describe("Registry digest of the case image, to pull it as <image>@<digest>."),
  files_sha256: sha256.describe("Digest of the task's manifest files the image was built from."),
  revision: commit.describe("Commit of the dataset repository the image was built and verified at."),
});

export const imagesLockModel = type({
  "+": "reject",
  dataset: datasetName.describe("Dataset name, as in the manifest."),
  version: version.describe("Dataset version, as in the manifest."),
  images: type({ "[string]": lockedImageModel }).describe("Published image of each task that has one, by task id."),
});

export const publicationRecordModel = type({
  "+": "reject",
  task: taskId.describe("Task id."),
  dataset: datasetName.describe("Dataset name."),
  version: version.describe("Dataset version."),
  image: type("string >= 1").describe("Case image name, without registry and tag."),
  tags: type("string[]").describe("Tags pushed, in push order."),
  digest: digest.describe("Digest the registry reported for the pushed tags."),
  files_sha256: sha256.describe("Digest of the task's files when the image was published."),
  revision: commit.describe("Commit of the dataset repository the image was built at."),
});

export const manifestModels: ModelInfo[] = [
  {
    name: "Manifest",
    title: "SSEBench dataset manifest",
    description: "Every task of a dataset version, generated from its folders.",
    fields: ["dataset", "version", "generated_from", "tasks"],
  },
  {
    name: "ManifestTask",
    title: "ManifestTask",
    description: "One task of the dataset.",
    fields: ["id", "language", "project", "repository", "base", "image", "arch", "checks", "files", "metadata"],
  },
];

export const lockModels: ModelInfo[] = [
  {
    name: "ImagesLock",
    title: "SSEBench dataset images lock",
    description: "The published case images of a dataset version, by digest.",
    fields: ["dataset", "version", "images"],
  },
  { name: "LockedImage", title: "LockedImage", description: "One published case image.", fields: ["digest", "files_sha256", "revision"] },
];

export const recordModels: ModelInfo[] = [
  {
    name: "PublicationRecord",
    title: "SSEBench publication record",
    description: "What publishing one case image recorded.",
    fields: ["task", "dataset", "version", "image", "tags", "digest", "files_sha256", "revision"],
  },
];

// Compile-time proof that the arktype models produce the shapes of manifest-types.ts.
type Holds<T extends true> = T;
export type ModelsMatchTypes = [
  Holds<typeof manifestModel.infer extends Manifest ? true : false>,
  Holds<typeof taskConfigModel.infer extends TaskMetadata ? true : false>,
  Holds<typeof imagesLockModel.infer extends ImagesLock ? true : false>,
  Holds<typeof publicationRecordModel.infer extends PublicationRecord ? true : false>,
];
