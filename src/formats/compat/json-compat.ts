/**
 * JSON text byte-compatible with the reference's writers. The characters replaced can only occur
 * inside JSON strings, so replacing them in the serialised text is safe.
 */

/** Go's encoding/json: `<`, `>`, `&`, U+2028 and U+2029 as \u escapes (plugins/results.json). */
export function goJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Python's json.dumps default (ensure_ascii): every non-ASCII UTF-16 unit as \uXXXX (manifest.json). */
export function pythonJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
