/**
 * The project's own datasets, compiled into the binary so `ssebench tasks list` works with no
 * checkout and no network: `demo` (the default) and `debian` (`--catalog debian`). Imported as
 * text (the bytes as committed) and parsed with JSON.parse only: they were validated when they were
 * generated, and test/catalog/embedded.test.ts checks them with the real models, so the light path
 * never loads arktype.
 */
import debianLockText from "../../datasets/debian/images.lock.json" with { type: "text" };
import debianManifestText from "../../datasets/debian/manifest.json" with { type: "text" };
import lockText from "../../datasets/demo/images.lock.json" with { type: "text" };
import manifestText from "../../datasets/demo/manifest.json" with { type: "text" };
import type { ImagesLock, Manifest } from "../formats/manifest/manifest-types.ts";

export const EMBEDDED_MANIFEST_NAME = "the built-in demo dataset";
export const EMBEDDED_LOCK_NAME = "the built-in demo images lock";

/** The committed bytes (TypeScript types text imports of .json as the parsed JSON). */
export const embeddedManifestText = manifestText as unknown as string;
export const embeddedLockText = lockText as unknown as string;

/** The built-in datasets by the name `--catalog` takes; the first is the default. */
export const EMBEDDED_DATASETS: Record<string, { manifest: string; lock: string }> = {
  demo: { manifest: embeddedManifestText, lock: embeddedLockText },
  debian: { manifest: debianManifestText as unknown as string, lock: debianLockText as unknown as string },
};
export const DEFAULT_EMBEDDED = "demo";

/** Is `location` the name of a built-in dataset (`demo`, `debian`) rather than a path or URL? */
export function isEmbeddedName(location: string): boolean {
  return Object.hasOwn(EMBEDDED_DATASETS, location);
}

export function embeddedCatalog(name: string = DEFAULT_EMBEDDED): {
  location: string;
  manifestLocation: string;
  manifest: Manifest;
  lock?: ImagesLock;
  lockLocation?: string;
} {
  const texts = EMBEDDED_DATASETS[name];
  if (!texts) throw new Error(`no built-in dataset ${name}`);
  const manifestName = name === DEFAULT_EMBEDDED ? EMBEDDED_MANIFEST_NAME : `the built-in ${name} dataset`;
  const lockName = name === DEFAULT_EMBEDDED ? EMBEDDED_LOCK_NAME : `the built-in ${name} images lock`;
  const manifest = JSON.parse(texts.manifest) as Manifest;
  const lock = texts.lock.trim() ? (JSON.parse(texts.lock) as ImagesLock) : undefined;
  return {
    location: manifestName,
    manifestLocation: manifestName,
    manifest,
    lock,
    lockLocation: lock ? lockName : undefined,
  };
}
