/**
 * The reference models' `str_strip_whitespace=True`, applied to the strings of a parsed document
 * before the model checks them. arktype has no "trim, then check the pattern" that survives JSON
 * Schema export (a morph cannot be exported), so this runs before the model; the exported schema,
 * like the reference's, checks the unstripped text. pydantic strips `str` fields (and dict keys)
 * only: an enumerated field (a `Literal`) sees the text as written, so `language: ' go '` fails.
 */
import type { JsonSchema } from "../schema/json-schema.ts";
import { keepOrder, orderedKeys } from "./key-order.ts";

// Python's str.strip() set (the Dockerfile reader's): unlike JS trim() it includes \x1c-\x1f and
// \x85, not \ufeff.
const PY_SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const EDGES = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, "g");

// pydantic-core strips with Rust's trim(): Unicode White_Space, so not \x1c-\x1f (checked with
// pydantic 2.13: "\x1c" stays, "\x85" goes).
const MODEL_SPACE = "\\t\\n\\v\\f\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const MODEL_EDGES = new RegExp(`^[${MODEL_SPACE}]+|[${MODEL_SPACE}]+$`, "g");

/** Python's `str.strip()`. */
export function pythonStrip(text: string): string {
  return text.replace(EDGES, "");
}

/** What pydantic's `str_strip_whitespace` does to a string. */
export function modelStrip(text: string): string {
  return text.replace(MODEL_EDGES, "");
}

/** The non-null alternatives of a schema node, with `$ref`s to `$defs` followed. */
function alternatives(node: JsonSchema | undefined, root: JsonSchema): JsonSchema[] {
  if (!node) return [];
  if (typeof node.$ref === "string") {
    return alternatives((root.$defs as Record<string, JsonSchema> | undefined)?.[node.$ref.replace("#/$defs/", "")], root);
  }
  if (Array.isArray(node.anyOf)) return (node.anyOf as JsonSchema[]).flatMap((alt) => alternatives(alt, root));
  return node.type === "null" ? [] : [node];
}

const isEnumerated = (node: JsonSchema) => Array.isArray(node.enum) || "const" in node;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype;
}

/**
 * Strips every string of `value` except those the schema (`root`, 2020-12 with `$defs`) declares
 * enumerated. Without a schema every string is stripped.
 */
export function stripStrings(value: unknown, root?: JsonSchema, node: JsonSchema | undefined = root): unknown {
  const alts = root ? alternatives(node, root) : [];
  if (typeof value === "string") return alts.length > 0 && alts.every(isEnumerated) ? value : modelStrip(value);
  if (Array.isArray(value)) {
    const items = alts.find((a) => a.type === "array")?.items as JsonSchema | undefined;
    return value.map((item) => stripStrings(item, root, items));
  }
  if (isPlainObject(value)) {
    const shape = alts.find((a) => a.type === "object" || a.properties !== undefined);
    const props = (shape?.properties ?? {}) as Record<string, JsonSchema>;
    const extra = typeof shape?.additionalProperties === "object" ? (shape.additionalProperties as JsonSchema) : undefined;
    // fromEntries defines own properties, so a "__proto__" key stays data; the key order as written
    // (integer-like keys) goes along, for the order of the problems.
    // A dict (`files`: no declared fields) has str keys, which pydantic strips too; a model's keys are field names.
    const isDict = shape !== undefined && shape.properties === undefined && extra !== undefined;
    const stripped = Object.fromEntries(
      Object.entries(value).map(([key, item]) => [isDict ? modelStrip(key) : key, stripStrings(item, root, Object.hasOwn(props, key) ? props[key] : extra)]),
    );
    return keepOrder(stripped, orderedKeys(value), true);
  }
  return value;
}

/** The UTF-16 code units modelStrip() removes (all of them are single units, below U+3001). */
export const MODEL_SPACE_CODES: ReadonlySet<number> = (() => {
  const one = new RegExp(`^[${MODEL_SPACE}]$`);
  const codes = new Set<number>();
  for (let code = 0; code <= 0x3000; code++) if (one.test(String.fromCharCode(code))) codes.add(code);
  return codes;
})();
