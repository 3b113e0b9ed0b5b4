/**
 * How a task's images are named: `<registry>/<base>` for the base image, and for the case image
 * `<registry>/<image>@<digest>` when the images lock pins it, else `<registry>/<image>:<version>`.
 * A lock pins a task only when it is for the manifest's dataset and version, has an entry for the
 * task, and that entry was built from the files the manifest lists (a task without `files`
 * trusts the lock), as in spec §4.4 / §5.2.
 */
import { filesDigest } from "../dataset/files-digest.ts";
import { compareCodePoints } from "../formats/compat/python-json.ts";
import { OrderedMap } from "./go-json.ts";
import { messages } from "./messages.ts";
import type { ImagesLock, Manifest, ManifestTask } from "../formats/manifest/manifest-types.ts";

export const DEFAULT_REGISTRY = "ghcr.io/42-b3yond-6ug/ssebench";

/** The registry prefix without trailing slashes ("" stays "", giving bare names). */
export function normaliseRegistry(prefix: string): string {
  return prefix.trim().replace(/\/+$/, "");
}

function prefixed(registry: string, name: string): string {
  return registry ? `${registry}/${name}` : name;
}

/** The case image of one task, as `ssebench run` pulls it. */
export interface CaseImageRef {
  /** what to pull: the digest reference when pinned, else the tag reference */
  ref: string;
  pinned: boolean;
  /** `<registry>/<image>:<version>`, the local name of the image */
  tagRef: string;
  digest?: string;
  /** set when the lock has an entry for this task that does not match its files */
  warning?: string;
}

export function lockIsForManifest(lock: ImagesLock, manifest: Manifest): boolean {
  return lock.dataset === manifest.dataset && lock.version === manifest.version;
}

/** The warning for a lock of another dataset or version, or undefined when it fits. */
export function lockMismatchWarning(lock: ImagesLock, lockLocation: string, manifest: Manifest): string | undefined {
  if (lockIsForManifest(lock, manifest)) return undefined;
  return messages.lockForOtherDataset(lockLocation, lock.dataset, lock.version, manifest.dataset, manifest.version);
}

export function caseImageRef(
  manifest: Manifest,
  task: ManifestTask,
  lock: ImagesLock | undefined,
  registry: string,
): CaseImageRef {
  const name = prefixed(normaliseRegistry(registry), task.image);
  const tagRef = `${name}:${manifest.version}`;
  const byTag: CaseImageRef = { ref: tagRef, pinned: false, tagRef };
  if (!lock || !lockIsForManifest(lock, manifest) || !Object.hasOwn(lock.images, task.id)) return byTag;
  const entry = lock.images[task.id];
  if (!entry) return byTag;
  if (task.files && filesDigest(task.files) !== entry.files_sha256) {
    return { ...byTag, warning: messages.staleLockEntry(task.id) };
  }
  return { ref: `${name}@${entry.digest}`, pinned: true, tagRef, digest: entry.digest };
}

/** A task as `GET /tasks` lists it (and `tasks list --json` prints it): no files, no metadata. */
export type TaskSummary = Omit<ManifestTask, "files" | "metadata">;

export function taskSummary(task: ManifestTask, image: CaseImageRef, registry: string): TaskSummary {
  return {
    id: task.id,
    language: task.language,
    project: task.project,
    repository: task.repository,
    base: prefixed(normaliseRegistry(registry), task.base),
    image: image.ref,
    arch: task.arch,
    checks: task.checks,
  };
}

/** The files map in Go's encoding order (sorted keys); undefined when empty, as Go's omitempty. */
export function sortedFiles(files: Record<string, string> | null | undefined): OrderedMap | undefined {
  const keys = Object.keys(files ?? {});
  if (keys.length === 0 || !files) return undefined;
  // Generated manifests list files in order already: then the map itself is what Go writes.
  let inOrder = true;
  for (let i = 1; i < keys.length && inOrder; i++) inOrder = compareCodePoints(keys[i - 1] as string, keys[i] as string) < 0;
  if (inOrder) return OrderedMap.ofOrderedObject(files);
  return new OrderedMap(keys.sort(compareCodePoints).map((k) => [k, files[k]]));
}

/** A task as `GET /tasks/{id}` returns it: the summary plus files and metadata. */
export function taskDetail(task: ManifestTask, image: CaseImageRef, registry: string) {
  return { ...taskSummary(task, image, registry), files: sortedFiles(task.files), metadata: task.metadata };
}
