/**
 * Response bodies byte-compatible with the reference service, which writes with Go's json.Encoder
 * and HTML escaping off: compact JSON plus "\n". JSON.stringify already matches it for <, > and &
 * (kept raw), control characters and non-ASCII text; Go additionally always escapes U+2028 and
 * U+2029. Go encodes maps with sorted keys, and JS objects put integer-like keys ("10") first
 * whatever their insertion order, so maps are passed as `OrderedMap` entries to keep Go's order.
 */
export class OrderedMap {
  #entries: readonly (readonly [string, unknown])[] | undefined;

  constructor(
    entries: readonly (readonly [string, unknown])[] | undefined,
    /** plain JSON data whose own keys are already in the wanted order (see inOrder) */
    readonly inOrder?: Readonly<Record<string, unknown>>,
  ) {
    this.#entries = entries;
  }

  /**
   * A map of plain JSON data (no OrderedMap or RawJson inside) whose Object.keys are already in
   * the wanted order: JSON.stringify writes exactly that order, so it is encoded natively, without
   * a walk in JS (a 10,000-task catalog has 600,000 such entries).
   */
  static ofOrderedObject(object: Readonly<Record<string, unknown>>): OrderedMap {
    return new OrderedMap(undefined, object);
  }

  get entries(): readonly (readonly [string, unknown])[] {
    this.#entries ??= Object.entries(this.inOrder ?? {});
    return this.#entries;
  }

  /** For JSON.stringify (pretty CLI output), where the exact key order does not matter. */
  toJSON(): Record<string, unknown> {
    return this.inOrder ?? Object.fromEntries(this.entries);
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

/** JSON text already encoded as Go writes it (a part shared by several bodies, encoded once). */
export class EncodedJson {
  constructor(readonly text: string) {}
}

const LINE_SEPARATORS = /[\u2028\u2029]/;
const LINE_SEPARATORS_ALL = /[\u2028\u2029]/g;

/** JSON text with U+2028/U+2029 escaped as Go escapes them (they only occur inside strings). */
function escapeLineSeparators(json: string): string {
  return LINE_SEPARATORS.test(json) ? json.replace(LINE_SEPARATORS_ALL, (c) => (c === "\u2028" ? "\\u2028" : "\\u2029")) : json;
}

function encodeString(text: string): string {
  return escapeLineSeparators(JSON.stringify(text));
}

function encode(value: unknown): string {
  if (typeof value === "string") return encodeString(value);
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return `[${value.map(encode).join(",")}]`;
  if (value instanceof EncodedJson) return value.text;
  if (value instanceof RawJson) return value.text ?? JSON.stringify(value.value) ?? "null";
  if (value instanceof OrderedMap) {
    if (value.inOrder) return escapeLineSeparators(JSON.stringify(value.inOrder));
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
