/**
 * `files_sha256` of an images-lock entry: SHA-256 of the task's `files` map serialised exactly as
 * Python's `json.dumps(files, sort_keys=True, separators=(",", ":"))` (ensure_ascii on). The Go
 * catalog and the reference CLI compute the same bytes, so the serialisation must match them
 * character for character — JSON.stringify would keep non-ASCII raw and Array.sort would order
 * keys by UTF-16 units, both of which differ from Python.
 */
import { pythonAsciiJsonString, sortByCodePoint } from "../formats/compat/python-json.ts";

/**
 * Pure printable ASCII, for JSON.stringify's text (which escapes every unit below U+0020): one
 * byte per unit in UTF-8 means none above U+007F, and DEL is the one left. Three times faster
 * than /^[\x20-\x7e]*$/ over a 10,000-task manifest's files maps.
 */
const isPrintableAscii = (json: string) => Buffer.byteLength(json, "utf8") === json.length && !json.includes("\x7f");

/**
 * JSON.stringify's text when it is Python's: keys already in order (JSON.stringify follows
 * Object.keys, so integer-like keys are covered too) and pure printable ASCII, where both encoders
 * write the same escapes (`\"`, `\\`, `\n`…, `\u001f`). A generated manifest is always this case.
 */
function stringifiedIfCanonical(files: Record<string, string>): string | undefined {
  const keys = Object.keys(files);
  for (let i = 1; i < keys.length; i++) if (!((keys[i - 1] as string) < (keys[i] as string))) return undefined;
  const text = JSON.stringify(files);
  return isPrintableAscii(text) ? text : undefined;
}

const plainTexts = new WeakMap<object, string | null>();

/**
 * JSON.stringify(files) when the map is in code-point order and that text is printable ASCII (null
 * otherwise), remembered per map: it is then also the map's canonical text and Go's encoding of
 * it, so the catalog's bodies and the lock's digest (computed after them) share one serialisation.
 */
export function plainFilesJson(files: Record<string, string>): string | undefined {
  let text = plainTexts.get(files);
  if (text === undefined) {
    text = stringifiedIfCanonical(files) ?? null;
    plainTexts.set(files, text);
  }
  return text ?? undefined;
}

/** `json.dumps(files, sort_keys=True, separators=(",", ":"))` */
export function canonicalFilesJson(files: Record<string, string>): string {
  // Remembered texts are reused, but a digest alone remembers nothing (tasks list keeps no bodies).
  const known = plainTexts.get(files);
  const fast = known === undefined ? stringifiedIfCanonical(files) : (known ?? undefined);
  if (fast !== undefined) return fast;
  const parts = sortByCodePoint(Object.keys(files)).map(
    (key) => `${pythonAsciiJsonString(key)}:${pythonAsciiJsonString(files[key] as string)}`,
  );
  return `{${parts.join(",")}}`;
}

/** SHA-256 (lower hex) of the canonical serialisation of a task's files map. */
export function filesDigest(files: Record<string, string>): string {
  return new Bun.CryptoHasher("sha256").update(canonicalFilesJson(files)).digest("hex");
}
