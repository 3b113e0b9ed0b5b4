/**
 * The project's own dataset, compiled into the binary so `ssebench tasks list` works with no
 * checkout and no network. Imported as text (the bytes as committed) and parsed with JSON.parse
 * only: it was validated when it was generated, and test/catalog/embedded.test.ts checks it with
 * the real models, so the light path never loads arktype.
 */
import lockText from "../../datasets/demo/images.lock.json" with { type: "text" };
import manifestText from "../../datasets/demo/manifest.json" with { type: "text" };
import type { ImagesLock, Manifest } from "../formats/manifest-types.ts";

export const EMBEDDED_MANIFEST_NAME = "the built-in demo dataset";
export const EMBEDDED_LOCK_NAME = "the built-in demo images lock";

/** The committed bytes (TypeScript types text imports of .json as the parsed JSON). */
export const embeddedManifestText = manifestText as unknown as string;
export const embeddedLockText = lockText as unknown as string;

export function embeddedCatalog(): {
  location: string;
  manifestLocation: string;
  manifest: Manifest;
  lock?: ImagesLock;
  lockLocation?: string;
} {
  const manifest = JSON.parse(embeddedManifestText) as Manifest;
  const lock = embeddedLockText.trim() ? (JSON.parse(embeddedLockText) as ImagesLock) : undefined;
  return {
    location: EMBEDDED_MANIFEST_NAME,
    manifestLocation: EMBEDDED_MANIFEST_NAME,
    manifest,
    lock,
    lockLocation: lock ? EMBEDDED_LOCK_NAME : undefined,
  };
}
