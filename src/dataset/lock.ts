/**
 * The images lock's keep/drop rules (spec §4.3), as pure functions of a manifest, the existing
 * lock and publication records, so they can be run on any manifest (the conformance script runs
 * them on the reference's full pilot manifest, whose task folders are not all at hand).
 */
import { UserError } from "../errors.ts";
import type { ImagesLock, LockedImage, Manifest, PublicationRecord } from "../formats/manifest/manifest-types.ts";
import { filesDigest } from "./files-digest.ts";
import { sortByCodePoint } from "../formats/compat/python-json.ts";
import { lockMessages as m } from "./messages.ts";

/** files_digest of every task of the manifest, by id. */
export function currentDigests(manifest: Manifest): Map<string, string> {
  return new Map(manifest.tasks.map((t) => [t.id, filesDigest(t.files ?? {})]));
}

export interface MergeResult {
  lock: ImagesLock;
  /** ids of existing entries dropped (other files, gone tasks, or another dataset version) */
  dropped: string[];
}

/**
 * Keeps the existing entries that still match the task files, then applies the records in the
 * given order. Throws UserError for a record of another dataset version or of other files.
 */
export function mergeLock(
  manifest: Manifest,
  existing: ImagesLock | undefined,
  records: readonly PublicationRecord[],
  dir: string,
): MergeResult {
  const current = currentDigests(manifest);
  const images: Record<string, LockedImage> = {};
  const dropped: string[] = [];
  const sameVersion = existing && existing.dataset === manifest.dataset && existing.version === manifest.version;
  for (const [id, image] of Object.entries(existing?.images ?? {})) {
    if (sameVersion && current.get(id) === image.files_sha256) images[id] = image;
    else dropped.push(id);
  }
  for (const r of records) {
    if (r.dataset !== manifest.dataset || r.version !== manifest.version) {
      throw new UserError(m.recordOtherVersion(r.task, r.dataset, r.version, manifest.dataset, manifest.version));
    }
    if (current.get(r.task) !== r.files_sha256) throw new UserError(m.recordOtherFiles(r.task, dir));
    images[r.task] = { digest: r.digest, files_sha256: r.files_sha256, revision: r.revision };
  }
  const sorted = Object.fromEntries(sortByCodePoint(Object.keys(images)).map((id) => [id, images[id] as LockedImage]));
  return { lock: { dataset: manifest.dataset, version: manifest.version, images: sorted }, dropped };
}

/**
 * `lock --check` problems for a parsed lock (empty: consistent): a lock for another dataset or
 * version, then (also in that case, as the reference lists them) each pinned id that is not a
 * task. Lag is not a problem.
 */
export function lockProblems(path: string, lock: ImagesLock, manifest: Manifest): string[] {
  const problems: string[] = [];
  if (lock.dataset !== manifest.dataset || lock.version !== manifest.version) {
    problems.push(m.lockOtherVersion(path, lock.dataset, lock.version, manifest.dataset, manifest.version));
  }
  const ids = new Set(manifest.tasks.map((t) => t.id));
  for (const id of Object.keys(lock.images)) if (!ids.has(id)) problems.push(m.pinsUnknown(path, id));
  return problems;
}
