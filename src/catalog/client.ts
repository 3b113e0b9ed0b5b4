/**
 * The catalog client: where `tasks list`, `tasks show` and `ssebench run` get their tasks from.
 *
 * Contract (stable; `ssebench run` depends on it):
 * - `openCatalog({ catalog, env })` reads the manifest at `catalog` (trimmed), else
 *   `env.SSEBENCH_CATALOG`, else the demo manifest built into the binary. The name of a built-in
 *   dataset (`demo`, `debian`) opens that one (a folder of that name is `./debian`). A location is a manifest
 *   file, a dataset folder (its manifest.json) or an http(s) URL (a path not ending in `.json`
 *   gets `/manifest.json`, query kept). The images lock comes from `env.SSEBENCH_IMAGES_LOCK`
 *   (path or URL; must be readable), else `images.lock.json` beside a local manifest, else for a
 *   URL the service's `/images.lock.json` (absent is fine), else the built-in lock. A lock for
 *   another dataset/version is dropped with a warning in `warnings`. Throws UserError (exit 1) with
 *   `Cannot read the catalog at <loc>: <cause>` / `<loc> is not a valid dataset manifest: <err>` /
 *   `Cannot read the images lock at <loc>: <cause>` / `<loc> is not a valid images lock: <err>`.
 * - `findTask(catalog, id)` returns the manifest entry or throws
 *   `Task <id> is not in the catalog at <loc>`.
 * - `resolveImage(catalog, task, registry)` names the case image: `{ ref, pinned, tagRef, digest?,
 *   warning? }` (warning: the lock's entry was built from other files; ref is then the tag).
 * - `registryFromEnv(env)` is `SSEBENCH_REGISTRY` or the default registry.
 *
 * The built-in manifest is trusted (a test validates it with the real model) and parsed with
 * JSON.parse only, so listing it never loads arktype; anything read from outside is validated.
 */
import { stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { UserError } from "../errors.ts";
import type { ImagesLock, Manifest, ManifestTask } from "../formats/manifest/manifest-types.ts";
import { type CaseImageRef, caseImageRef, DEFAULT_REGISTRY, lockMismatchWarning, normaliseRegistry } from "./image-refs.ts";
import { messages } from "./messages.ts";
import { localDataset } from "./dataset-files.ts";
import { isUrl, readLocation } from "./read-location.ts";

export type Env = Record<string, string | undefined>;

export interface Catalog {
  /** the location as given (or the built-in one's name), for messages */
  location: string;
  /** where the manifest was read from */
  manifestLocation: string;
  manifest: Manifest;
  /** the images lock, only when it is for this manifest's dataset and version */
  lock?: ImagesLock;
  lockLocation?: string;
  /** the folder holding a local manifest (its task folders may sit beside it) */
  localDir?: string;
  embedded: boolean;
  warnings: string[];
}

/** Spec §4.4 manifest_location, for URLs: `.json` paths as they are, others + `/manifest.json`. */
export function manifestUrl(location: string): string {
  const url = new URL(location);
  if (!url.pathname.endsWith(".json")) url.pathname = `${url.pathname.replace(/\/+$/, "")}/manifest.json`;
  return url.toString();
}

/** The service's lock beside a manifest URL, with the same query. */
export function lockUrlBeside(manifestLocation: string): string {
  const url = new URL(manifestLocation);
  url.pathname = url.pathname.replace(/[^/]*$/, "images.lock.json");
  return url.toString();
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() ?? false;
}

async function readManifest(location: string, manifestLocation: string, within?: string): Promise<Manifest> {
  const read = await readLocation(manifestLocation, undefined, within);
  if (!read.ok) throw new UserError(messages.cannotReadCatalog(manifestLocation, read.cause));
  const { parseManifest } = await import("../formats/manifest/manifest.ts");
  return parseManifest(read.text, manifestLocation);
}

/** Reads a lock; `optional` locks that are absent give undefined instead of an error; `within`: see readLocation. */
export async function readLock(location: string, optional: boolean, within?: string): Promise<ImagesLock | undefined> {
  const read = await readLocation(location, undefined, within);
  if (!read.ok) {
    if (optional && read.missing) return undefined;
    throw new UserError(messages.cannotReadLock(location, read.cause));
  }
  const { parseImagesLock } = await import("../formats/manifest/images-lock.ts");
  return parseImagesLock(read.text, location);
}

/** The lock of a local manifest: the one named, else `images.lock.json` beside it when there is one. */
export async function localLockLocation(manifestLocation: string, namedLock: string | undefined): Promise<string | undefined> {
  const beside = join(dirname(manifestLocation), "images.lock.json");
  return namedLock ?? ((await isFile(beside)) ? beside : undefined);
}

/** Where `openCatalog` reads from, in the order it decides: `local` only for a manifest file or folder. */
export function catalogSource({ catalog, env = process.env }: { catalog?: string; env?: Env }) {
  const location = catalog?.trim() || env.SSEBENCH_CATALOG?.trim() || "";
  const namedLock = env.SSEBENCH_IMAGES_LOCK?.trim() || undefined;
  const local = location !== "" && !/^[a-z0-9-]+$/.test(location) && !isUrl(location);
  return { location, namedLock, local };
}

export async function openCatalog({ catalog, env = process.env }: { catalog?: string; env?: Env }): Promise<Catalog> {
  const { location, namedLock } = catalogSource({ catalog, env });
  let opened: Omit<Catalog, "warnings">;
  const embedded = !location || /^[a-z0-9-]+$/.test(location) ? await import("./embedded.ts") : undefined;
  if (embedded && (!location || embedded.isEmbeddedName(location))) {
    const builtIn = embedded.embeddedCatalog(location || undefined);
    const lockLocation = namedLock ?? builtIn.lockLocation;
    const lock = namedLock ? await readLock(namedLock, false) : builtIn.lock;
    opened = { ...builtIn, embedded: true, lock, lockLocation: lock ? lockLocation : undefined };
  } else if (isUrl(location)) {
    let manifestLocation: string;
    try {
      manifestLocation = manifestUrl(location);
    } catch {
      throw new UserError(messages.cannotReadCatalog(location, "not a valid URL"));
    }
    const lockLocation = namedLock ?? lockUrlBeside(manifestLocation);
    // Both requests at once: a catalog on the network costs one round trip, not two.
    const [manifest, lock] = await Promise.all([
      readManifest(location, manifestLocation),
      readLock(lockLocation, !namedLock).catch((error: unknown) => error),
    ]);
    if (lock instanceof Error) throw lock;
    opened = { location, manifestLocation, manifest, lock: lock as ImagesLock | undefined, lockLocation, embedded: false };
  } else {
    const { manifestLocation, folder, manifestWithin } = await localDataset(location);
    const manifest = await readManifest(location, manifestLocation, manifestWithin);
    const lockLocation = await localLockLocation(manifestLocation, namedLock);
    const lock = lockLocation ? await readLock(lockLocation, false, namedLock ? undefined : folder) : undefined;
    opened = { location, manifestLocation, manifest, lock, lockLocation, localDir: folder, embedded: false };
  }
  const warnings: string[] = [];
  if (opened.lock && opened.lockLocation) {
    const warning = lockMismatchWarning(opened.lock, opened.lockLocation, opened.manifest);
    if (warning) {
      warnings.push(warning);
      opened.lock = undefined;
    }
  }
  if (!opened.lock) opened.lockLocation = undefined;
  return { ...opened, warnings };
}

export function findTask(catalog: Catalog, id: string): ManifestTask {
  const task = catalog.manifest.tasks.find((t) => t.id === id);
  if (!task) throw new UserError(messages.taskNotInCatalog(id, catalog.location, catalog.manifest.tasks.map((t) => t.id)));
  return task;
}

export function resolveImage(catalog: Catalog, task: ManifestTask, registry: string): CaseImageRef {
  return caseImageRef(catalog.manifest, task, catalog.lock, registry);
}

export function registryFromEnv(env: Env = process.env): string {
  return normaliseRegistry(env.SSEBENCH_REGISTRY?.trim() || DEFAULT_REGISTRY);
}
