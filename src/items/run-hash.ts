/**
 * The run hash of the reference (`compute_run_hash`): SHA-256 of Python's
 * `json.dumps(payload, sort_keys=True, default=str)`, first 20 hex characters. The serialiser below
 * reproduces that text byte for byte for JSON-shaped data: `", "`/`": "` separators, keys sorted
 * by code point, every non-ASCII character as `\uXXXX` (surrogate pairs for astral ones) and
 * Python's float repr (`4.0` stays `4.0`: such floats arrive as PyFloat, big ints as bigint).
 */
import { createHash } from "node:crypto";
import { compareCodePoints, pythonAsciiJsonString as jsonString } from "../formats/compat/python-json.ts";
import { isNumber, pyNumber, pyStr } from "./python.ts";
import type { PyFloat } from "./py-values.ts";

/** A number as Python's json module writes it (float repr, `NaN`/`Infinity` for the specials). */
export function pythonJsonNumber(value: number | bigint | PyFloat): string {
  const n = typeof value === "bigint" ? 0 : Number(value);
  if (Number.isNaN(n)) return "NaN";
  if (!Number.isFinite(n)) return n > 0 ? "Infinity" : "-Infinity";
  return pyNumber(value);
}

/** Python `json.dumps(value, sort_keys=True, default=str)` (ensure_ascii on). */
export function pythonJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (isNumber(value)) return pythonJsonNumber(value);
  if (typeof value === "string") return jsonString(value);
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(", ")}]`;
  if (typeof value === "object") {
    const keys = Object.keys(value).sort(compareCodePoints);
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
