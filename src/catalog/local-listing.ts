/**
 * A local catalog read task by task (manifest-stream.ts) for listings: each task is checked by the
 * same validator as a whole manifest, given to the caller in model form, and dropped, so a
 * 10,000-task manifest is never held whole. Whatever this path does not take as it is (an invalid
 * manifest or lock, a duplicate id, a file it cannot read) gives undefined: the caller then opens
 * the catalog the ordinary way (client.ts openCatalog), which words the problem as it always has.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import type { ImagesLock, Manifest, ManifestTask } from "../formats/manifest/manifest-types.ts";
import { catalogSource, type Env, localLockLocation, readLock } from "./client.ts";
import { localDataset, realFolder, refusal } from "./dataset-files.ts";
import { lockMismatchWarning } from "./image-refs.ts";
import { scanManifest } from "./manifest-stream.ts";

/** `scan()`, or undefined when reading fails (the ordinary reading then says why); `done()` in any case. */
function readQuietly<T>(scan: () => T, done: () => void): T | undefined {
  try {
    return scan();
  } catch {
    return undefined;
  } finally {
    done();
  }
}

export interface StreamedCatalog {
  /** the manifest without its tasks */
  manifest: Manifest;
  /** the tasks counted */
  total: number;
  location: string;
  warnings: string[];
}

/**
 * `onTask(task, manifest, lock)`: the task as written or in model form (absent optional keys may be
 * missing); `manifest` has dataset and version (no tasks); `lock` may be for another dataset.
 */
export async function streamLocalCatalog(
  options: { catalog?: string; env?: Env },
  onTask: (task: ManifestTask, manifest: Manifest, lock: ImagesLock | undefined) => void,
): Promise<StreamedCatalog | undefined> {
  const { location, namedLock, local } = catalogSource(options);
  if (!local) return undefined;
  const { manifestLocation, folder, manifestWithin } = await localDataset(location);
  const lockLocation = await localLockLocation(manifestLocation, namedLock);
  const lock = lockLocation ? await readLock(lockLocation, false, namedLock ? undefined : folder).catch(() => null) : undefined;
  if (lock === null) return undefined;
  const root = manifestWithin === undefined ? undefined : await realFolder(manifestWithin);
  if (manifestWithin !== undefined && root === undefined) return undefined;
  const { checkDocument } = await import("../formats/check.ts");
  const ids = new Set<string>();
  let fd: number | undefined;
  const read = (into: Uint8Array, offset: number) => {
    // Only a regular file can be read again by the ordinary way after a give-up (not a pipe such as /dev/stdin).
    if (fd === undefined) {
      fd = openSync(manifestLocation, "r");
      if (!fstatSync(fd).isFile()) throw new Error("not a regular file");
      // A folder's manifest.json that links out of it: the ordinary reading refuses it in words.
      if (root !== undefined && manifestWithin !== undefined && refusal(fd, manifestLocation, root, manifestWithin)) throw new Error("outside the dataset folder");
    }
    return readSync(fd, into, offset, into.length - offset, null);
  };
  const head = readQuietly(() => scanManifest(read, (raw, written) => {
    // Valid only: the listing reads a few fields by name, so model form (key order, absent keys
    // as null) would only copy; a task the compiled check does not take comes back in model form.
    const checked = checkDocument<Manifest>("manifest", { ...written, tasks: [raw] }, [], true);
    if (!checked.ok) return false;
    const task = checked.value.tasks[0] as ManifestTask;
    if (ids.has(task.id)) return false;
    ids.add(task.id);
    onTask(task, checked.value, lock);
    return true;
  }), () => fd !== undefined && closeSync(fd));
  if (!head) return undefined;
  const checked = checkDocument<Manifest>("manifest", head);
  if (!checked.ok) return undefined;
  const warning = lock && lockLocation ? lockMismatchWarning(lock, lockLocation, checked.value) : undefined;
  return { manifest: checked.value, total: ids.size, location, warnings: warning ? [warning] : [] };
}
