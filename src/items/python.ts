/**
 * Python's str() and repr() of JSON/YAML-shaped values, because the reference stringifies ids,
 * options and template values with them (`True`, `None`, `['a', 'b']`). A JS number cannot say
 * whether it was written `1.0` or `1`, so integral floats print as ints (documented divergence).
 */

/** repr() of a non-integral float, or str() of an int. */
export function pyNumber(n: number): string {
  if (Number.isNaN(n)) return "nan";
  if (!Number.isFinite(n)) return n > 0 ? "inf" : "-inf";
  if (Number.isInteger(n)) return Math.abs(n) < 1e21 ? String(n) : BigInt(n).toString();
  const abs = Math.abs(n);
  // Python switches to exponent notation below 1e-4 and from 1e16 (JS: below 1e-6, from 1e21).
  const text = abs < 1e-4 || abs >= 1e16 ? n.toExponential() : String(n);
  return text.replace(/e([-+])(\d)$/, "e$10$2");
}

export function pyRepr(value: unknown): string {
  if (typeof value === "string") return pyStringRepr(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value).map(([k, v]) => `${pyStringRepr(k)}: ${pyRepr(v)}`).join(", ")}}`;
  }
  return pyStr(value);
}

export function pyStr(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return pyNumber(value);
  return pyRepr(value);
}

const escapes: Record<string, string> = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function pyStringRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === quote || ch === "\\") out += `\\${ch}`;
    else if (escapes[ch]) out += escapes[ch];
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return out + quote;
}

/** Python truthiness of a JSON/YAML value. */
export function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (value !== null && typeof value === "object") return Object.keys(value).length > 0;
  return Boolean(value);
}

export function isMapping(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Python's `list(sorted(keys))` repr, e.g. `['a', 'b']`. */
export function pyKeyList(keys: Iterable<string>): string {
  return pyRepr([...keys].sort());
}

/** Python's type name of a JSON/YAML value, for `<class '...'>` messages. */
export function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return "NoneType";
  if (Array.isArray(value)) return "list";
  if (typeof value === "string") return "str";
  if (typeof value === "object") return "dict";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (typeof value === "boolean") return "bool";
  return typeof value;
}
