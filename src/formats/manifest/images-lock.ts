/**
 * Reading and writing `images.lock.json` (spec §4.1). Types come from manifest-types.ts (no
 * arktype); the validator is loaded only when a lock is parsed.
 */
import { sortByCodePoint } from "../compat/python-json.ts";
import { renderJson } from "../compat/json-text.ts";
import type { ImagesLock, PublicationRecord } from "./manifest-types.ts";
import { parseJsonFormat } from "../parse-json-format.ts";

export type { ImagesLock, LockedImage, PublicationRecord } from "./manifest-types.ts";

/** Throws UserError `<where> is not a valid images lock: <problem>`. */
export function parseImagesLock(text: string, where: string): Promise<ImagesLock> {
  return parseJsonFormat<ImagesLock>("images-lock", "images lock", text, where);
}

/** Throws UserError `<where> is not a valid publication record: <problem>`. */
export function parsePublicationRecord(text: string, where: string): Promise<PublicationRecord> {
  return parseJsonFormat<PublicationRecord>("publication-record", "publication record", text, where);
}

/** The lock file's text: images sorted by task id, each entry's keys in model order. */
export function renderImagesLock(lock: ImagesLock): string {
  const images = Object.fromEntries(
    sortByCodePoint(Object.keys(lock.images)).map((id) => {
      const { digest, files_sha256, revision } = lock.images[id]!;
      return [id, { digest, files_sha256, revision }];
    }),
  );
  return renderJson({ dataset: lock.dataset, version: lock.version, images });
}

/** A publication record's text (pydantic's model_dump_json(indent=2) + newline). */
export function renderPublicationRecord(r: PublicationRecord): string {
  const { task, dataset, version, image, tags, digest, files_sha256, revision } = r;
  return renderJson({ task, dataset, version, image, tags, digest, files_sha256, revision });
}
