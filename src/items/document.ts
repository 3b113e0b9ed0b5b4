/**
 * The dataset document itself (§1): which form it is, its header and keys, and the dataset-level
 * fields the loader reads. Unknown keys of the declarative form are errors here (the reference
 * only finds them with its JSON Schema), so `dataset items` refuses what `dataset validate` would.
 */
import type { Warnings } from "./deprecations.ts";
import { msg } from "./messages.ts";
import { isMapping, truthy } from "./python.ts";
import { fail } from "./refs.ts";
import type { YamlFile } from "./yaml.ts";

const topKeys = new Set(["apiVersion", "kind", "metadata", "spec"]);
const metadataKeys = new Set(["name", "display_name", "version", "description", "tags"]);
export const specKeys = new Set(["app", "items", "path", "source", "format", "schemas", "groups"]);
const flatKeys = new Set(["apiVersion", "kind", "metadata", "spec", "name", "dataset", "version", "description", "items", "app"]);

export interface DatasetInfo {
  name: string;
  version: unknown;
  description: unknown;
  app: unknown;
  metadata: Record<string, unknown>;
}

function checkKeys(value: unknown, allowed: Set<string>, path: string[], doc: YamlFile): void {
  if (value === undefined || value === null) return;
  if (!isMapping(value)) fail(doc.at(path), msg.notAMapping(path.join(".")));
  for (const key of Object.keys(value)) {
    if (!allowed.has(key)) fail(doc.at([...path, key], true), msg.unknownKey([...path, key].join(".")));
  }
}

/** Errors for a wrong header or unknown keys; a deprecation warning for the flat form. */
export function checkDocumentShape(data: Record<string, unknown>, doc: YamlFile, warnings: Warnings, path: string): void {
  if (Object.keys(data).length === 0) return;
  if (!("kind" in data) && !("apiVersion" in data)) {
    warnings.deprecated("dataset.flat_form", path);
    return;
  }
  if (data.kind !== "Dataset") fail(doc.at("kind" in data ? ["kind"] : []), msg.notADataset(data.kind ?? null));
  if (data.apiVersion !== "lab/v1") fail(doc.at("apiVersion" in data ? ["apiVersion"] : []), msg.wrongApiVersion(data.apiVersion ?? null));
  for (const key of Object.keys(data)) {
    if (!topKeys.has(key)) fail(doc.at([key], true), msg.unknownKey(key));
  }
  checkKeys(data.metadata, metadataKeys, ["metadata"], doc);
  checkKeys(data.spec, specKeys, ["spec"], doc);
}

const first = (...values: unknown[]) => values.find(truthy);

export function datasetInfo(data: Record<string, unknown>, fileName: string): DatasetInfo {
  const meta = isMapping(data.metadata) ? data.metadata : {};
  const spec = isMapping(data.spec) ? data.spec : {};
  const stem = fileName.includes(".") ? fileName.slice(0, fileName.lastIndexOf(".")) : fileName;
  const metadata: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) if (!flatKeys.has(k)) metadata[k] = v;
  return {
    name: String(first(meta.name, data.name, data.dataset) ?? stem),
    version: first(meta.version, data.version) ?? "v1",
    description: first(meta.description, data.description) ?? "",
    app: first(spec.app, meta.app, data.app) ?? null,
    metadata,
  };
}
