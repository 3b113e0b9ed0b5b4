/**
 * Response bodies byte-compatible with the reference service, which writes with Go's json.Encoder
 * and HTML escaping off: compact JSON plus "\n". JSON.stringify already matches it for <, > and &
 * (kept raw), control characters and non-ASCII text; Go additionally always escapes U+2028 and
 * U+2029. Go encodes maps with sorted keys, and JS objects put integer-like keys ("10") first
 * whatever their insertion order, so maps are passed as `OrderedMap` entries to keep Go's order.
 */
export class OrderedMap {
  constructor(readonly entries: readonly (readonly [string, unknown])[]) {}

  /** For JSON.stringify (pretty CLI output), where the exact key order does not matter. */
  toJSON(): Record<string, unknown> {
    return Object.fromEntries(this.entries);
  }
}

/**
 * A value the reference keeps as json.RawMessage (a task's metadata): Go compacts the bytes of the
 * file without re-escaping them, so U+2028/U+2029 stay raw there, as the manifest writers (Python's
 * json.dumps with ensure_ascii=False, and ours) put them. JSON.stringify writes strings the same way.
 */
export class RawJson {
  /** `text`, when given, is the value's JSON as written in the file (compacted), sent as is. */
  constructor(
    readonly value: unknown,
    readonly text?: string,
  ) {}

  toJSON(): unknown {
    return this.value;
  }
}

const LINE_SEPARATORS = /[\u2028\u2029]/g;

function encodeString(text: string): string {
  return JSON.stringify(text).replace(LINE_SEPARATORS, (c) => (c === "\u2028" ? "\\u2028" : "\\u2029"));
}

function encode(value: unknown): string {
  if (typeof value === "string") return encodeString(value);
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return `[${value.map(encode).join(",")}]`;
  if (value instanceof RawJson) return value.text ?? JSON.stringify(value.value) ?? "null";
  if (value instanceof OrderedMap) {
    return `{${value.entries.map(([k, v]) => `${encodeString(k)}:${encode(v)}`).join(",")}}`;
  }
  if (typeof value === "object") {
    const parts: string[] = [];
    for (const [k, v] of Object.entries(value)) if (v !== undefined) parts.push(`${encodeString(k)}:${encode(v)}`);
    return `{${parts.join(",")}}`;
  }
  return JSON.stringify(value);
}

/** Compact JSON of `value` followed by "\n", as Go's encoder writes it. */
export function goJson(value: unknown): string {
  return `${encode(value)}\n`;
}
