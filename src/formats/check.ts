/**
 * Checking a parsed document against a dataset format without a start-up tax: the validators
 * compiled ahead of time (compiled-validators.js, generated at build from the JSON Schemas the
 * arktype models export) accept a valid document in one pass, and the value comes back as it is,
 * with absent optional keys filled in and keys in model order, copying only the objects that need
 * it. Anything else (a schema violation, or a string that stripping might change) goes to the
 * arktype models (schemas.ts), which load only then and give the exact pydantic-style problems.
 */
import { schemas, shapeCheckers, validators } from "./compiled-validators.js";
import type { CompiledFormat, FormatName } from "./format-names.ts";
import type { NonStringKey } from "./schema/model-errors.ts";
import type { CheckResult } from "./schemas.ts";
import { MODEL_SPACE_CODES } from "./compat/strip.ts";

export type { CheckResult };

type Node = { [key: string]: unknown };

// Below U+0085 only units up to U+0020 can be white space: most characters need one compare.
const isSpace = (unit: number) => (unit <= 0x20 || unit >= 0x85) && MODEL_SPACE_CODES.has(unit);
const hasEdgeSpace = (text: string) => text.length > 0 && (isSpace(text.charCodeAt(0)) || isSpace(text.charCodeAt(text.length - 1)));

/** True when some string (or mapping key: dict keys are stripped too) has leading or trailing (Python) whitespace. */
export function hasStrippableString(value: unknown): boolean {
  if (typeof value === "string") return hasEdgeSpace(value);
  if (value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) {
    for (const item of value) if (hasStrippableString(item)) return true;
    return false;
  }
  for (const key in value) if (hasEdgeSpace(key) || hasStrippableString((value as Node)[key])) return true;
  return false;
}

function resolve(node: Node | undefined, root: Node): Node | undefined {
  if (!node) return undefined;
  if (typeof node.$ref === "string") return (root.$defs as Record<string, Node>)[node.$ref.replace("#/$defs/", "")];
  if (Array.isArray(node.anyOf)) return resolve((node.anyOf as Node[]).find((a) => a.type !== "null"), root);
  return node;
}

/**
 * The value in model form: declared keys in declared order, absent ones with their default. An
 * object or list is copied only when it or something inside it changes; the input is never
 * modified (the catalog may serve it as it was read).
 */
export function normalise(value: unknown, rawNode: Node | undefined, root: Node): unknown {
  if (value === null || typeof value !== "object") return value;
  const node = resolve(rawNode, root);
  if (Array.isArray(value)) {
    const itemNode = node?.items as Node | undefined;
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = normalise(value[i], itemNode, root);
      if (item !== value[i]) (copy ??= value.slice())[i] = item;
    }
    return copy ?? value;
  }
  const record = value as Node;
  const props = node?.properties as Record<string, Node> | undefined;
  if (!props) {
    const extra = typeof node?.additionalProperties === "object" ? (node.additionalProperties as Node) : undefined;
    let copy: Node | undefined;
    for (const key of Object.keys(record)) {
      const item = normalise(record[key], extra, root);
      if (item !== record[key]) (copy ??= { ...record })[key] = item;
    }
    return copy ?? value;
  }
  const fields = Object.keys(props);
  const keys = Object.keys(record);
  let changed = keys.length !== fields.length;
  const out: Node = {};
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i] as string;
    const prop = props[field] as Node;
    if (Object.hasOwn(record, field)) {
      const item = normalise(record[field], prop, root);
      changed ||= item !== record[field] || keys[i] !== field;
      out[field] = item;
    } else if ("default" in prop) {
      changed = true;
      out[field] = prop.default;
    }
  }
  return changed ? out : value;
}

/**
 * Checks a parsed document as format `name`: the compiled validator first, the arktype model
 * (schemas.ts checkFormat) for anything else. `nonStringKeys`: mapping keys the YAML reader found
 * that were not strings (always a problem, so they go to the model too).
 */
export function checkDocument<T>(
  name: FormatName,
  input: unknown,
  nonStringKeys: readonly NonStringKey[] = [],
  /** only whether it is valid: a valid input comes back as it is, not in model form */
  validOnly = false,
): CheckResult<T> {
  const shape = shapeCheckers[name as CompiledFormat];
  const validate = (validators as Partial<typeof validators>)[name as CompiledFormat];
  const accepted = shape ? shape(input) : validate !== undefined && !hasStrippableString(input) && validate(input);
  if (accepted && nonStringKeys.length === 0) {
    const root = schemas[name as CompiledFormat];
    return { ok: true, value: (validOnly ? input : normalise(input, root, root)) as T };
  }
  const { checkFormat } = require("./schemas.ts") as typeof import("./schemas.ts");
  return checkFormat<T>(name, input, nonStringKeys);
}
