/**
 * `files_sha256` of an images-lock entry: SHA-256 of the task's `files` map serialised exactly as
 * Python's `json.dumps(files, sort_keys=True, separators=(",", ":"))` (ensure_ascii on). The Go
 * catalog and the reference CLI compute the same bytes, so the serialisation must match them
 * character for character — JSON.stringify would keep non-ASCII raw and Array.sort would order
 * keys by UTF-16 units, both of which differ from Python.
 */
import { createHash } from "node:crypto";
import { pythonAsciiJsonString, sortByCodePoint } from "../formats/python-json.ts";

/** `json.dumps(files, sort_keys=True, separators=(",", ":"))` */
export function canonicalFilesJson(files: Record<string, string>): string {
  const parts = sortByCodePoint(Object.keys(files)).map(
    (key) => `${pythonAsciiJsonString(key)}:${pythonAsciiJsonString(files[key] as string)}`,
  );
  return `{${parts.join(",")}}`;
}

/** SHA-256 (lower hex) of the canonical serialisation of a task's files map. */
export function filesDigest(files: Record<string, string>): string {
  return createHash("sha256").update(canonicalFilesJson(files), "utf8").digest("hex");
}
