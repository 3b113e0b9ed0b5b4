/**
 * Python's str() and repr() of JSON/YAML-shaped values, because the reference stringifies ids,
 * options and template values with them (`True`, `None`, `['a', 'b']`). Floats with integral values
 * and big ints arrive as PyFloat and bigint (py-values.ts), so `4.0` prints `4.0`, as in Python.
 */
import { orderedKeys } from "../formats/compat/key-order.ts";
import { PyFloat, pyFloatRepr } from "./py-values.ts";

/** repr() of a float (`value` as a JS number), or str() of an int. */
export function pyNumber(n: number | bigint | PyFloat): string {
  if (typeof n === "bigint") return n.toString();
  if (n instanceof PyFloat) return pyFloatRepr(n.value);
  if (Number.isNaN(n)) return "nan";
  if (!Number.isFinite(n)) return n > 0 ? "inf" : "-inf";
  if (Number.isInteger(n)) return Math.abs(n) < 1e21 ? String(n) : BigInt(n).toString();
  return pyFloatRepr(n);
}

export const isNumber = (value: unknown): value is number | bigint | PyFloat =>
  typeof value === "number" || typeof value === "bigint" || value instanceof PyFloat;

export function pyRepr(value: unknown): string {
  if (typeof value === "string") return pyStringRepr(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  if (isNumber(value)) return pyNumber(value);
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    return `{${orderedKeys(value).map((k) => `${pyStringRepr(k)}: ${pyRepr(record[k])}`).join(", ")}}`;
  }
  return pyStr(value);
}

export function pyStr(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (isNumber(value)) return pyNumber(value);
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
  if (value instanceof PyFloat) return value.value !== 0;
  if (Array.isArray(value)) return value.length > 0;
  if (value !== null && typeof value === "object") return Object.keys(value).length > 0;
  return Boolean(value);
}

export function isMapping(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) && !(value instanceof PyFloat);
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
  if (value instanceof PyFloat) return "float";
  if (typeof value === "bigint") return "int";
  if (typeof value === "object") return "dict";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (typeof value === "boolean") return "bool";
  return typeof value;
}
