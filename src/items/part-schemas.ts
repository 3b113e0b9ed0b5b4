/**
 * `spec.schemas`: JSON Schemas (draft-07, checked with ajv) for the free-form parts of items —
 * `expectations.details[...]` and `inputs.tool_fixtures.by_tool.<tool>[...]` — checked against
 * each item's normalised envelope. A tool without its own payload is checked through `"*"`.
 */
import type { ValidateFunction } from "ajv";
import type { EnvelopeItem } from "./item.ts";
import { msg } from "./messages.ts";
import { isMapping } from "./python.ts";
import { fail, type RefResolver } from "./refs.ts";
import { fileSlot } from "./slots.ts";
import { toPlain } from "./py-values.ts";

interface PartSchema {
  key: string;
  path: string[];
  validate: ValidateFunction;
}

export function isFreeFormKey(key: string): boolean {
  const parts = key.split(".");
  if (parts[0] === "expectations" && parts[1] === "details") return true;
  return parts[0] === "inputs" && parts[1] === "tool_fixtures" && parts[2] === "by_tool" && Boolean(parts[3]);
}

export async function newAjv() {
  const { default: Ajv } = await import("ajv");
  return new Ajv({ strict: false, allErrors: true });
}

/** Resolves and compiles every schema; `at(key)` is where that key is written. */
export async function resolvePartSchemas(
  value: unknown,
  refs: RefResolver,
  at: (key?: string) => string,
): Promise<PartSchema[]> {
  if (value === null || value === undefined) return [];
  if (!isMapping(value)) fail(at(), msg.schemasType());
  const ajv = await newAjv();
  const out: PartSchema[] = [];
  for (const [key, slot] of Object.entries(value)) {
    if (!isFreeFormKey(key)) fail(at(key), msg.schemasKey(key));
    const schema = fileSlot(slot, refs, at(key));
    if (!isMapping(schema)) fail(at(key), msg.schemasValue(key));
    try {
      out.push({ key, path: key.split("."), validate: ajv.compile(toPlain(schema) as object) });
    } catch (cause) {
      fail(at(key), msg.schemasInvalid(key, cause instanceof Error ? cause.message : String(cause)));
    }
  }
  return out;
}

function walk(item: EnvelopeItem, path: string[]): { found: boolean; value?: unknown } {
  let node: unknown = { inputs: item.inputs, expectations: item.expectations ?? {} };
  for (let i = 0; i < path.length; i++) {
    if (!isMapping(node)) return { found: false };
    let seg = path[i] as string;
    if (i === 3 && path[2] === "by_tool" && !Object.hasOwn(node, seg)) seg = "*";
    if (!Object.hasOwn(node, seg)) return { found: false };
    node = node[seg];
  }
  return { found: true, value: node };
}

/** The violations of one item, each `<where>: <key>[.<path>]: <message>`. */
export function checkPartSchemas(item: EnvelopeItem, schemas: PartSchema[], where: string): string[] {
  const problems: string[] = [];
  for (const { key, path, validate } of schemas) {
    const target = walk(item, path);
    if (!target.found || validate(toPlain(target.value))) continue;
    for (const error of validate.errors ?? []) {
      const inner = error.instancePath.split("/").slice(1).map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
      problems.push(`${where}: ${[key, ...inner].join(".")}: ${error.message ?? "is invalid"}`);
    }
  }
  return problems;
}
