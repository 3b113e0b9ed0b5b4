/**
 * TypeScript shapes of the dataset formats, free of arktype so that light commands (tasks list on
 * the embedded manifest) can use them without paying for the validator. The arktype models in
 * *-model.ts files check values against these shapes; typecheck keeps the two in step.
 */
import type { ARCHES, CHECKS, LANGUAGES, ORIGINALITIES } from "../patterns.ts";

export type Language = (typeof LANGUAGES)[number];
export type Originality = (typeof ORIGINALITIES)[number];
export type Check = (typeof CHECKS)[number];
export type Arch = (typeof ARCHES)[number];

export interface TaskDescription {
  issue: string | null;
  crash_report: string[] | null;
  bug_description: string | null;
}

export interface TaskScripts {
  build: string | null;
  run: string | null;
  test: string | null;
}

export interface TaskFiles {
  patch: string | null;
  future_test: string | null;
  security_test: string | null;
  intent_test: string | null;
  poc: string[] | null;
}

/** A task's `sse/config.yaml` after validation: every key present, in model order. */
export interface TaskMetadata {
  id: string;
  project: string;
  repository: string;
  language: Language;
  source: string;
  task_description: TaskDescription;
  scripts: TaskScripts;
  files: TaskFiles;
  sanitizer: string | null;
  type: string | null;
  binary: string | null;
  trigger_commit: string | null;
  patch_commit: string | null;
  reference: string[] | null;
  originality: Originality | null;
}

export interface DatasetInfo {
  version: string;
}

export interface ManifestTask {
  id: string;
  language: string;
  project: string;
  repository: string;
  base: string;
  image: string;
  arch: Arch[];
  checks: Check[];
  /** SHA-256 of every file of the task folder, by POSIX path; null in hand-written manifests. */
  files?: Record<string, string> | null;
  metadata: TaskMetadata;
}

export interface Manifest {
  dataset: string;
  version: string;
  generated_from?: string | null;
  tasks: ManifestTask[];
}

export interface LockedImage {
  digest: string;
  files_sha256: string;
  revision: string;
}

export interface ImagesLock {
  dataset: string;
  version: string;
  images: Record<string, LockedImage>;
}

/** What `dataset publish` writes for one pushed image (spec §4.2). */
export interface PublicationRecord {
  task: string;
  dataset: string;
  version: string;
  image: string;
  tags: string[];
  digest: string;
  files_sha256: string;
  revision: string;
}
