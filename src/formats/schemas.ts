/**
 * Every dataset format by name: its arktype model, its exported JSON Schema (built once, lazily)
 * and a checker that returns the typed, key-ordered value or pydantic-style problems. Importing
 * this module loads arktype: import it lazily from commands.
 */
import type { Type } from "arktype";
import { type ArkErrors, type } from "arktype";
import { datasetInfoModel, datasetInfoModels } from "./task/dataset-info.ts";
import { exportJsonSchema, type JsonSchema } from "./schema/json-schema.ts";
import type { ModelInfo } from "./schema/model-info.ts";
import { type ModelProblem, modelProblems, type NonStringKey } from "./schema/model-errors.ts";
import { stripStrings } from "./compat/strip.ts";
import { taskConfigModel, taskConfigModels } from "./task/task-config.ts";

import type { FormatName } from "./format-names.ts";

export type { FormatName };

interface Format {
  model: Type;
  models: readonly ModelInfo[];
}

// The task and dataset models are what validating a dataset needs; the manifest, lock and record
// models (the biggest to build) load only when such a file is read or a schema exported.
const formats: Partial<Record<FormatName, Format>> = {
  task: { model: taskConfigModel as Type, models: taskConfigModels },
  dataset: { model: datasetInfoModel as Type, models: datasetInfoModels },
};

// Synchronous on purpose: check.ts falls back to these models on the spot, in a sync call.
const lazyFormats: Partial<Record<FormatName, () => Format>> = {
  manifest: () => {
    const m = manifestModels();
    return { model: m.manifestModel as Type, models: [...m.manifestModels, ...taskConfigModels] };
  },
  "images-lock": () => {
    const m = manifestModels();
    return { model: m.imagesLockModel as Type, models: m.lockModels };
  },
  model: () => {
    const m = require("./models/model-config.ts") as typeof import("./models/model-config.ts");
    return { model: m.modelConfigModel as Type, models: m.modelConfigModels };
  },
  "model-script": () => {
    const m = require("./models/model-script.ts") as typeof import("./models/model-script.ts");
    return { model: m.modelScriptModel as Type, models: m.modelScriptModels };
  },
  "upstream-sources": () => {
    const m = require("./upstream-sources/upstream-sources.ts") as typeof import("./upstream-sources/upstream-sources.ts");
    return { model: m.upstreamSourcesModel as Type, models: m.upstreamSourcesModels };
  },
  verified: () => {
    const m = require("./verified/verified.ts") as typeof import("./verified/verified.ts");
    return { model: m.verifiedFileModel as Type, models: m.verifiedModels };
  },
  "publication-record": () => {
    const m = manifestModels();
    return { model: m.publicationRecordModel as Type, models: m.recordModels };
  },
};

function manifestModels(): typeof import("./manifest/manifest-model.ts") {
  return require("./manifest/manifest-model.ts");
}

/** Makes the named formats usable by schemaOf() (every format also loads on first use). */
export async function loadFormats(...names: FormatName[]): Promise<void> {
  for (const name of names) formatOf(name);
}

function formatOf(name: FormatName): Format {
  const format = (formats[name] ??= lazyFormats[name]?.());
  if (!format) throw new Error(`unknown format ${name}`);
  return format;
}

/** The schemas that `dataset schema` exports, in the order it writes them, by file name. */
export const EXPORTED_SCHEMAS: readonly { name: FormatName; file: string }[] = [
  { name: "task", file: "task.schema.json" },
  { name: "dataset", file: "dataset.schema.json" },
  { name: "manifest", file: "manifest.schema.json" },
  { name: "images-lock", file: "images-lock.schema.json" },
  { name: "model", file: "model.schema.json" },
  { name: "model-script", file: "model-script.schema.json" },
  { name: "upstream-sources", file: "upstream-sources.schema.json" },
  { name: "verified", file: "verified.schema.json" },
];

const schemaCache = new Map<FormatName, JsonSchema>();

export function schemaOf(name: FormatName): JsonSchema {
  let schema = schemaCache.get(name);
  if (!schema) {
    const { model, models } = formatOf(name);
    schema = exportJsonSchema(model, models);
    schemaCache.set(name, schema);
  }
  return schema;
}

export type CheckResult<T> = { ok: true; value: T } | { ok: false; problems: ModelProblem[] };

/** Orders every object's keys as the schema declares them (model order), recursively. */
function ordered(value: unknown, node: JsonSchema | undefined, root: JsonSchema): unknown {
  if (Array.isArray(value)) return value.map((item) => ordered(item, schemaItems(node, root), root));
  if (value === null || typeof value !== "object") return value;
  const n = resolve(node, root);
  const props = (n?.properties ?? {}) as Record<string, JsonSchema>;
  const extra = typeof n?.additionalProperties === "object" ? (n.additionalProperties as JsonSchema) : undefined;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(props).length > 0 ? Object.keys(props).filter((k) => k in record) : Object.keys(record);
  return Object.fromEntries(keys.map((k) => [k, ordered(record[k], props[k] ?? extra, root)]));
}

function resolve(node: JsonSchema | undefined, root: JsonSchema): JsonSchema | undefined {
  if (!node) return undefined;
  if (typeof node.$ref === "string") return (root.$defs as Record<string, JsonSchema>)[node.$ref.replace("#/$defs/", "")];
  if (Array.isArray(node.anyOf)) {
    const alt = (node.anyOf as JsonSchema[]).find((a) => a.type !== "null");
    return resolve(alt, root);
  }
  return node;
}

function schemaItems(node: JsonSchema | undefined, root: JsonSchema): JsonSchema | undefined {
  return resolve(node, root)?.items as JsonSchema | undefined;
}

/**
 * Strips strings (as the reference models do: enumerated fields aside), validates with the arktype
 * model, and orders keys in model order; on invalid input, pydantic-style problems. check.ts's
 * checkDocument() tries the compiled checker first and comes here for anything it does not accept.
 */
export function checkFormat<T>(name: FormatName, input: unknown, nonStringKeys: readonly NonStringKey[] = []): CheckResult<T> {
  const { model, models } = formatOf(name);
  const root = schemaOf(name);
  const stripped = stripStrings(input, root);
  const rootName = (models[0] as ModelInfo).name;
  const isMapping = stripped !== null && typeof stripped === "object" && !Array.isArray(stripped);
  const out = isMapping ? model(stripped) : undefined;
  const errors = out instanceof type.errors ? (out as ArkErrors) : undefined;
  // Always run: it also finds objects given as lists, which arktype accepts as objects.
  const problems = modelProblems(errors, root, stripped, rootName, nonStringKeys);
  if (!isMapping && problems.length === 0) {
    problems.push({ loc: "", msg: `Input should be a valid dictionary or instance of ${rootName}` });
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, value: ordered(out, root, root) as T };
}
