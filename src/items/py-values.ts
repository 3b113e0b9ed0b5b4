/**
 * Values as Python holds what the reference parses (PyYAML, json.loads), where JS values cannot:
 * a float with an integral value (`4.0`, `-0.0`) is a `PyFloat` (a JS number would print `4`, `0`),
 * an int beyond 2^53 a `bigint`, and a mapping with integer-like keys (which JS objects move to the
 * front) records its key order under `KEY_ORDER`. Everything that prints, hashes or templates
 * values goes through python.ts, which knows these; validators get `toPlain()` copies.
 */
import { JsonScanner } from "../formats/json-scan.ts";

/** A Python float whose value JS would show as an int. */
export class PyFloat {
  constructor(readonly value: number) {}

  valueOf(): number {
    return this.value;
  }
}

/**
 * The key order of a mapping, when it is not the JS order (integer-like keys). Enumerable, so
 * object spreads carry it along; keys added or removed later are reconciled by orderedKeys().
 */
export const KEY_ORDER: unique symbol = Symbol("key order");

const ARRAY_INDEX = /^(?:0|[1-9]\d*)$/;

/** True when JS would enumerate this key ahead of the others (an array-index-like key). */
function jsReorders(key: string): boolean {
  return ARRAY_INDEX.test(key) && Number(key) < 2 ** 32 - 1;
}

/** Builds an object from entries in that order, recording the order when JS would change it. */
export function orderedObject(entries: Iterable<readonly [string, unknown]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const keys: string[] = [];
  for (const [key, value] of entries) {
    if (!Object.hasOwn(out, key)) keys.push(key);
    // defineProperty: a "__proto__" key stays data.
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return keepOrder(out, keys);
}

/** Records `keys` as the key order of `target` when JS would enumerate them otherwise. */
export function keepOrder<T extends object>(target: T, keys: readonly string[]): T {
  if (keys.some(jsReorders)) (target as { [KEY_ORDER]?: string[] })[KEY_ORDER] = [...keys];
  return target;
}

/** The keys of an object in source order (recorded order first, then any added since). */
export function orderedKeys(value: object): string[] {
  const own = Object.keys(value);
  const order = (value as { [KEY_ORDER]?: string[] })[KEY_ORDER];
  if (!order) return own;
  const present = new Set(own);
  const first = order.filter((k) => present.has(k));
  const seen = new Set(first);
  return [...first, ...own.filter((k) => !seen.has(k))];
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
