/**
 * Turns an arktype model into the JSON Schema that `dataset schema` exports: arktype's
 * toJsonSchema() gives the constraints; this file gives the reference's layout (named models in
 * `$defs`, declared property order, titles, `default: null` on optional fields) and adds what
 * arktype cannot export: the at-least-one rule of task_description (a narrow in the model).
 */
import type { Type } from "arktype";
import { AT_LEAST_ONE_ANY_OF } from "./schema-rules.ts";
import { type ModelInfo, modelForKeys } from "./model-info.ts";
import { ARCHES, CHECKS, LANGUAGES, ORIGINALITIES } from "../patterns.ts";

export type JsonSchema = { [key: string]: unknown };

const DIALECT = "https://json-schema.org/draft/2020-12/schema";
const STANDARD_KEYS = new Set([
  "$ref", "additionalProperties", "anyOf", "const", "default", "description", "enum", "items",
  "maxLength", "minimum", "minItems", "minLength", "pattern", "properties", "required", "title", "type",
]);
const DECLARED_ENUMS: readonly (readonly string[])[] = [LANGUAGES, ORIGINALITIES, CHECKS, ARCHES];

/** pydantic's field title: `future_test` → `Future Test`. */
export function fieldTitle(key: string): string {
  return key
    .split("_")
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(" ");
}

function sortKeys(node: JsonSchema): JsonSchema {
  return Object.fromEntries(Object.keys(node).sort().map((k) => [k, node[k]]));
}

/** `anyOf: [{const:a},{const:b},…]` or an enum in sorted order → an enum in declared order. */
function normaliseEnum(values: unknown[]): JsonSchema {
  const set = [...values].sort().join("\0");
  const declared = DECLARED_ENUMS.find((e) => [...e].sort().join("\0") === set);
  return { enum: declared ? [...declared] : values, type: "string" };
}

class SchemaBuilder {
  readonly defs: Record<string, JsonSchema> = {};
  constructor(private readonly models: readonly ModelInfo[]) {}

  node(raw: JsonSchema, isRoot = false): JsonSchema {
    const node: JsonSchema = {};
    for (const [key, value] of Object.entries(raw)) if (STANDARD_KEYS.has(key)) node[key] = value;
    if (Array.isArray(node.anyOf)) {
      const alternatives = node.anyOf as JsonSchema[];
      const nullable = alternatives.some((a) => a.type === "null");
      const rest = alternatives.filter((a) => a.type !== "null");
      delete node.anyOf;
      const consts = rest.every((a) => "const" in a) ? rest.map((a) => a.const) : undefined;
      const inner = consts ? normaliseEnum(consts) : undefined;
      const built = inner ? [inner] : rest.map((a) => this.node(withoutDescription(a)));
      if (!nullable && built.length === 1) Object.assign(node, built[0]);
      else node.anyOf = nullable ? [...built, { type: "null" }] : built;
    }
    if (Array.isArray(node.enum)) Object.assign(node, normaliseEnum(node.enum as unknown[]));
    if (typeof node.pattern === "string") node.pattern = unescapeSlashes(node.pattern);
    if (node.items) node.items = this.node(node.items as JsonSchema);
    if (node.additionalProperties && typeof node.additionalProperties === "object") {
      node.additionalProperties = this.node(node.additionalProperties as JsonSchema);
    }
    if (node.properties) return this.model(node, isRoot);
    return sortKeys(node);
  }

  private model(node: JsonSchema, isRoot: boolean): JsonSchema {
    const props = node.properties as Record<string, JsonSchema>;
    const info = modelForKeys(this.models, Object.keys(props));
    const fieldDescription = node.description;
    if (!info) throw new Error(`json-schema: no ModelInfo for properties ${Object.keys(props).join(", ")}`);
    const properties: Record<string, JsonSchema> = {};
    const required = new Set((node.required as string[] | undefined) ?? []);
    for (const field of info.fields) {
      const prop = this.node(props[field] as JsonSchema);
      // arktype drops the `= null` defaults of a model that also has a narrow (it exports the
      // morph's base); every optional field of these models defaults to null, so restore it.
      if (!required.has(field) && !("default" in prop)) prop.default = null;
      properties[field] = "$ref" in prop ? prop : sortKeys({ ...prop, title: fieldTitle(field) });
    }
    const model: JsonSchema = {
      additionalProperties: node.additionalProperties ?? true,
      description: info.description,
      properties,
      required: info.fields.filter((f) => required.has(f)),
      title: info.title,
      type: "object",
    };
    if ((model.required as string[]).length === 0) delete model.required;
    if (info.name === "TaskDescription") model.anyOf = AT_LEAST_ONE_ANY_OF;
    const sorted = sortKeys(model);
    if (isRoot) return sorted;
    this.defs[info.name] = sorted;
    // As pydantic does: a bare $ref, plus the field's own description when it has one.
    return fieldDescription === undefined ? { $ref: `#/$defs/${info.name}` } : { $ref: `#/$defs/${info.name}`, description: fieldDescription };
  }
}

/** RegExp#source writes `/` as `\/`; JSON Schema patterns (and the reference's) have a bare `/`. */
function unescapeSlashes(source: string): string {
  let out = "";
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === "\\" && source[i + 1] === "/") continue;
    out += ch;
    if (ch === "\\" && i + 1 < source.length) out += source[++i];
  }
  return out;
}

function withoutDescription(node: JsonSchema): JsonSchema {
  const { description: _, ...rest } = node;
  return rest;
}

/** The exported JSON Schema of a model. */
export function exportJsonSchema(model: Type, models: readonly ModelInfo[]): JsonSchema {
  const raw = model.toJsonSchema({
    dialect: null,
    // The narrow (at-least-one rule) and the default-filling morphs have no JSON Schema form;
    // export the base and add the rule by hand above.
    fallback: { predicate: (ctx) => ctx.base, morph: (ctx) => ctx.base },
  }) as JsonSchema;
  const builder = new SchemaBuilder(models);
  const root = builder.node(raw, true);
  const defs = Object.keys(builder.defs).sort();
  return {
    $schema: DIALECT,
    ...(defs.length > 0 ? { $defs: Object.fromEntries(defs.map((name) => [name, builder.defs[name]])) } : {}),
    ...root,
  };
}
