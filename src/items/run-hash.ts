/**
 * The run hash of the reference (`compute_run_hash`): SHA-256 of Python's
 * `json.dumps(payload, sort_keys=True, default=str)`, first 20 hex characters. The serialiser below
 * reproduces that text byte for byte for JSON-shaped data: `", "`/`": "` separators, keys sorted
 * by code point, every non-ASCII character as `\uXXXX` (surrogate pairs for astral ones) and
 * Python's float repr. Integral floats (`1.0`) print as `1` because JS cannot tell them apart.
 */
import { createHash } from "node:crypto";
import { pyNumber, pyStr } from "./python.ts";

function jsonString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += "\\\\";
    else if (c === 0x0a) out += "\\n";
    else if (c === 0x0d) out += "\\r";
    else if (c === 0x09) out += "\\t";
    else if (c === 0x08) out += "\\b";
    else if (c === 0x0c) out += "\\f";
    else if (c < 0x20 || c > 0x7e) out += `\\u${c.toString(16).padStart(4, "0")}`;
    else out += s[i];
  }
  return `${out}"`;
}

function byCodePoint(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i]?.codePointAt(0) ?? 0) - (y[i]?.codePointAt(0) ?? 0);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** Python `json.dumps(value, sort_keys=True, default=str)` (ensure_ascii on). */
export function pythonJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (typeof value === "number") {
    if (Number.isNaN(value)) return "NaN";
    if (!Number.isFinite(value)) return value > 0 ? "Infinity" : "-Infinity";
    return pyNumber(value);
  }
  if (typeof value === "string") return jsonString(value);
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(", ")}]`;
  if (typeof value === "object") {
    const keys = Object.keys(value).sort(byCodePoint);
    const record = value as Record<string, unknown>;
    return `{${keys.map((k) => `${jsonString(k)}: ${pythonJsonDumps(record[k])}`).join(", ")}}`;
  }
  return jsonString(pyStr(value));
}

export interface RunHashPayload {
  manifest: unknown;
  run_input: unknown;
  item_id: string;
  run_idx: number;
  flavour: unknown;
  infra: unknown;
}

/** First 20 hex characters of SHA-256 over the canonical JSON of the payload. */
export function computeRunHash(payload: RunHashPayload): string {
  return createHash("sha256").update(pythonJsonDumps(payload)).digest("hex").slice(0, 20);
}

/** `fingerprint_run_input`: the full SHA-256 hex of the envelope's canonical JSON. */
export function fingerprintRunInput(envelope: unknown): string {
  return createHash("sha256").update(pythonJsonDumps(envelope)).digest("hex");
}
