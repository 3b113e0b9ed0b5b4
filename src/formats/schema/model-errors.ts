/**
 * Reports model errors the way the reference (pydantic v2) words and orders them, so messages
 * match spec §1.2: `<loc>: <msg>`, one per failing location, declared fields in model order, then
 * unknown keys. arktype tells which locations fail; the exported schema node at that location and
 * the offending value give pydantic's wording (the schema is the single place the rules live).
 */
import type { ArkErrors } from "arktype";
import type { JsonSchema } from "./json-schema.ts";
import { orderedKeys } from "../compat/key-order.ts";
import { AT_LEAST_ONE_MESSAGE } from "./schema-rules.ts";

export interface ModelProblem {
  loc: string;
  msg: string;
}

type Path = readonly PropertyKey[];

export function formatProblem(p: ModelProblem): string {
  return p.loc === "" ? p.msg : `${p.loc}: ${p.msg}`;
}

/** `files.poc.0` → `files.poc[0]` (pydantic loc joined, indices bracketed). */
export function formatLoc(path: Path): string {
  return path
    .map((step) => (typeof step === "number" ? `[${step}]` : String(step)))
    .join(".")
    .replaceAll(".[", "[");
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function deref(root: JsonSchema, node: JsonSchema | undefined): JsonSchema | undefined {
  if (!node) return undefined;
  const ref = node.$ref;
  if (typeof ref !== "string") return node;
  const name = ref.replace("#/$defs/", "");
  return (root.$defs as Record<string, JsonSchema>)[name];
}

/** The non-null alternative of a nullable node, or the node itself. */
function nonNull(root: JsonSchema, node: JsonSchema | undefined): JsonSchema | undefined {
  const n = deref(root, node);
  if (!n || !Array.isArray(n.anyOf)) return n;
  const rest = (n.anyOf as JsonSchema[]).filter((a) => a.type !== "null");
  return rest.length === 1 ? deref(root, rest[0]) : n;
}

function child(root: JsonSchema, node: JsonSchema | undefined, step: PropertyKey): JsonSchema | undefined {
  const n = nonNull(root, node);
  if (!n) return undefined;
  if (typeof step === "number") return n.items as JsonSchema | undefined;
  const props = n.properties as Record<string, JsonSchema> | undefined;
  if (props && String(step) in props) return props[String(step)];
  return typeof n.additionalProperties === "object" ? (n.additionalProperties as JsonSchema) : undefined;
}

export function schemaAt(root: JsonSchema, path: Path): JsonSchema | undefined {
  let node: JsonSchema | undefined = root;
  for (const step of path) node = child(root, node, step);
  return node;
}

function valueAt(value: unknown, path: Path): unknown {
  let v = value;
  for (const step of path) v = isPlainObject(v) || Array.isArray(v) ? (v as Record<PropertyKey, unknown>)[step as string] : undefined;
  return v;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function quoteList(values: readonly unknown[]): string {
  const quoted = values.map((v) => `'${String(v)}'`);
  return quoted.length <= 1 ? (quoted[0] ?? "") : `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}`;
}

/** pydantic's text for a value that the (non-null) schema node rejects; undefined if it accepts. */
export function pydanticMessage(root: JsonSchema, rawNode: JsonSchema | undefined, value: unknown, rootName = "model"): string | undefined {
  const node = nonNull(root, rawNode);
  if (!node) return undefined;
  if (Array.isArray(node.enum)) return node.enum.includes(value) ? undefined : `Input should be ${quoteList(node.enum)}`;
  switch (node.type) {
    case "string": {
      if (typeof value !== "string") return "Input should be a valid string";
      const length = [...value].length;
      if (typeof node.minLength === "number" && length < node.minLength) {
        return `String should have at least ${plural(node.minLength, "character")}`;
      }
      if (typeof node.maxLength === "number" && length > node.maxLength) {
        return `String should have at most ${plural(node.maxLength, "character")}`;
      }
      if (typeof node.pattern === "string" && !new RegExp(node.pattern, "u").test(value)) {
        return `String should match pattern '${node.pattern}'`;
      }
      return undefined;
    }
    case "array":
      if (!Array.isArray(value)) return "Input should be a valid list";
      if (typeof node.minItems === "number" && value.length < node.minItems) {
        return `List should have at least ${plural(node.minItems, "item")} after validation, not ${value.length}`;
      }
      return undefined;
    case "object":
      if (isPlainObject(value)) return undefined;
      return node.properties ? `Input should be a valid dictionary or instance of ${modelName(rawNode, rootName)}` : "Input should be a valid dictionary";
    default:
      return undefined;
  }
}

/** pydantic names a model by its class; here, its `$defs` key or (for the root) the root's name. */
function modelName(node: JsonSchema | undefined, rootName: string): string {
  return (nonNullRef(node) ?? "").replace("#/$defs/", "") || rootName;
}

function nonNullRef(node: JsonSchema | undefined): string | undefined {
  if (!node) return undefined;
  if (typeof node.$ref === "string") return node.$ref;
  const alt = Array.isArray(node.anyOf) ? (node.anyOf as JsonSchema[]).find((a) => typeof a.$ref === "string") : undefined;
  return alt?.$ref as string | undefined;
}

/** Objects given as lists: arktype treats arrays as objects, pydantic and JSON Schema do not. */
function arraysAsObjects(root: JsonSchema, node: JsonSchema | undefined, value: unknown, path: PropertyKey[], out: Path[]): void {
  const n = nonNull(root, node);
  if (!n || value === null || value === undefined) return;
  if (n.type === "object" && Array.isArray(value)) {
    out.push([...path]);
    return;
  }
  if (Array.isArray(value)) value.forEach((item, i) => arraysAsObjects(root, child(root, n, i), item, [...path, i], out));
  else if (isPlainObject(value)) {
    for (const [key, item] of Object.entries(value)) arraysAsObjects(root, child(root, n, key), item, [...path, key], out);
  }
}

/** Sort key of a location: declared field index, unknown keys after, list indices as numbers. */
function orderOf(root: JsonSchema, input: unknown, path: Path): number[] {
  const key: number[] = [];
  let node: JsonSchema | undefined = root;
  let value = input;
  for (const step of path) {
    const n = nonNull(root, node);
    const fields = Object.keys((n?.properties as object | undefined) ?? {});
    if (typeof step === "number") key.push(step);
    else {
      const declared = fields.indexOf(String(step));
      const inputOrder = isPlainObject(value) ? orderedKeys(value).indexOf(String(step)) : 0;
      key.push(declared >= 0 ? declared : fields.length + inputOrder);
    }
    node = child(root, node, step);
    value = valueAt(value, [step]);
  }
  return key;
}

function compareKeys(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  return a.length - b.length;
}

const startsWith = (path: Path, prefix: Path) => prefix.every((step, i) => path[i] === step);

/** A key that is not a string in the source (YAML `1: one`): its JS path and Python location step. */
export interface NonStringKey {
  path: readonly string[];
  key: number | string;
}

export const KEYS_SHOULD_BE_STRINGS = "Keys should be strings";

/**
 * pydantic-style problems for arktype's errors on `input` (already stripped). A key listed in
 * `nonStringKeys` is pydantic's invalid_key (`Keys should be strings`), not an unknown key.
 */
export function modelProblems(
  errors: ArkErrors | undefined,
  root: JsonSchema,
  input: unknown,
  rootName: string,
  nonStringKeys: readonly NonStringKey[] = [],
): ModelProblem[] {
  const invalidKeys = new Map(nonStringKeys.map((k) => [k.path.join("\0"), k]));
  const located = new Map<string, { path: Path; msg: string }>();
  const listObjects: Path[] = [];
  arraysAsObjects(root, root, input, [], listObjects);
  for (const path of listObjects) {
    located.set(formatLoc(path), { path, msg: pydanticMessage(root, schemaAt(root, path), valueAt(input, path), rootName) ?? "Input should be a valid dictionary" });
  }
  for (const error of errors ?? []) {
    const path = [...error.path] as PropertyKey[];
    const loc = formatLoc(path);
    if (located.has(loc) || listObjects.some((p) => startsWith(path, p))) continue;
    let msg: string;
    if (error.code === "required") msg = "Field required";
    else if (error.expected === "removed") {
      const invalid = invalidKeys.get(path.map(String).join("\0"));
      if (invalid) {
        located.set(formatLoc([...path.slice(0, -1), invalid.key]), { path, msg: KEYS_SHOULD_BE_STRINGS });
        continue;
      }
      msg = "unknown key";
    }
    else if (error.expected === AT_LEAST_ONE_MESSAGE) msg = `Value error, ${AT_LEAST_ONE_MESSAGE}`;
    else msg = pydanticMessage(root, schemaAt(root, path), valueAt(input, path), rootName) ?? error.problem;
    located.set(loc, { path, msg });
  }
  return [...located.entries()]
    .map(([loc, { path, msg }]) => ({ loc, msg, order: orderOf(root, input, path) }))
    .sort((a, b) => compareKeys(a.order, b.order))
    .map(({ loc, msg }) => ({ loc, msg }));
}
