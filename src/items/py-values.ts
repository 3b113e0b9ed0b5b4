/**
 * Values as Python holds what the reference parses (PyYAML, json.loads), where JS values cannot:
 * a float with an integral value (`4.0`, `-0.0`) is a `PyFloat` (a JS number would print `4`, `0`),
 * an int beyond 2^53 a `bigint`, and a mapping with integer-like keys (which JS objects move to the
 * front) records its key order under `KEY_ORDER`. Everything that prints, hashes or templates
 * values goes through python.ts, which knows these; validators get `toPlain()` copies.
 */
import { JsonScanner } from "../formats/compat/json-scan.ts";
import { keepOrder, orderedKeys, orderedObject } from "../formats/compat/key-order.ts";

/** A Python float whose value JS would show as an int. */
export class PyFloat {
  constructor(readonly value: number) {}

  valueOf(): number {
    return this.value;
  }

  /** Python's str(): `4.0`. */
  toString(): string {
    return pyFloatRepr(this.value);
  }
}

/** Python's float repr: shortest digits, `.0` on integral values, exponents below 1e-4 and from 1e16. */
export function pyFloatRepr(n: number): string {
  if (Number.isNaN(n)) return "nan";
  if (!Number.isFinite(n)) return n > 0 ? "inf" : "-inf";
  const abs = Math.abs(n);
  // Python switches to exponent notation below 1e-4 and from 1e16 (JS: below 1e-6, from 1e21).
  if (abs !== 0 && (abs < 1e-4 || abs >= 1e16)) return n.toExponential().replace(/e([-+])(\d)$/, "e$10$2");
  if (Number.isInteger(n)) return `${Object.is(n, -0) ? "-0" : String(n)}.0`;
  return String(n);
}


/** A number of a parsed document: an int beyond 2^53 as bigint, an integral float as PyFloat. */
function pythonNumber(value: number | bigint, isFloat: boolean, source?: string): number | bigint | PyFloat {
  if (typeof value === "bigint") return Number.isSafeInteger(Number(value)) ? Number(value) : value;
  if (isFloat) return Number.isInteger(value) ? new PyFloat(value) : value;
  if (Number.isSafeInteger(value) || source === undefined) return value;
  return BigInt(source);
}

/**
 * A value of the yaml package's `toJS({ mapAsMap: true })` on a document parsed with
 * `intAsBigInt`, as Python would hold it (ints are bigints there, floats numbers).
 */
export function fromYamlJs(value: unknown): unknown {
  if (typeof value === "bigint") return pythonNumber(value, false);
  if (typeof value === "number") return pythonNumber(value, true);
  if (Array.isArray(value)) return value.map(fromYamlJs);
  if (value instanceof Map) {
    // Keys as the yaml package's plain toJS() spells them (a null key becomes "").
    return orderedObject([...value].map(([k, v]) => [k === null ? "" : typeof k === "string" ? k : String(k), fromYamlJs(v)] as const));
  }
  if (value instanceof Set) return new Set([...value].map(fromYamlJs));
  return value;
}

// A number token that JSON.parse would change: a float (`4.0`, `1e3`) or 16+ digits.
const LOSSY_NUMBER = /[:,[]\s*-?(?:\d{16,}|\d+[.eE])/;
const INT_KEY = /"(?:0|[1-9]\d*)"\s*:/;

/**
 * JSON as Python's json.loads holds it: floats stay floats, big ints exact, key order kept. Text
 * without such numbers or integer-like keys (most rows) takes the plain JSON.parse.
 */
export function parseJsonLossless(text: string): unknown {
  const numbers = LOSSY_NUMBER.test(text);
  const keys = INT_KEY.test(text);
  if (!numbers && !keys) return JSON.parse(text);
  const value: unknown = JSON.parse(text, (_key, v: unknown, context?: { source?: string }) => {
    if (typeof v !== "number" || context?.source === undefined) return v;
    return pythonNumber(v, /[.eE]/.test(context.source), context.source);
  });
  return keys ? reorderJson(value, text) : value;
}

/**
 * Restores the key order of objects with integer-like keys from the text. The parsed value differs
 * in shape from the text only where a key was repeated (JSON.parse keeps the last one).
 */
function reorderJson(value: unknown, text: string): unknown {
  const scan = new JsonScanner(text);
  const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
  const walk = (node: unknown): unknown => {
    const kind = scan.peek();
    if (kind === "{") {
      const record = isRecord(node) ? node : undefined;
      const keys: string[] = [];
      scan.object((key) => {
        const child = walk(record?.[key]);
        if (!record || keys.includes(key)) return;
        record[key] = child;
        keys.push(key);
      });
      if (record) keepOrder(record, keys);
    } else if (kind === "[") {
      const list = Array.isArray(node) ? node : undefined;
      scan.array((n) => {
        const child = walk(list?.[n]);
        if (list) list[n] = child;
      });
    } else scan.skip();
    return node;
  };
  return walk(value);
}

/** A copy with plain JS values (PyFloat → number, bigint → number), for JSON Schema validators. */
export function toPlain(value: unknown): unknown {
  if (value instanceof PyFloat) return value.value;
  if (typeof value === "bigint") return Number(value);
  if (Array.isArray(value)) return value.map(toPlain);
  if (value !== null && typeof value === "object" && !(value instanceof Set) && !(value instanceof Uint8Array)) {
    return orderedObject(orderedKeys(value).map((k) => [k, toPlain((value as Record<string, unknown>)[k])] as const));
  }
  return value;
}
