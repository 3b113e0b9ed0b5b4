/**
 * `Dataset.from_yaml` (§3): the document forms, then items from `spec.source` rows (mapped) followed
 * by inline items, or a `spec.path` sidecar, each normalised by the item loader. Items are produced
 * in batches as the rows stream in, so memory stays bounded whatever the size of a source.
 * Duplicate ids and `spec.schemas` violations are collected in `problems`; anything else that is
 * wrong stops the load with one ItemsError line.
 */
import { readFileSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { describeCause } from "../errors.ts";
import { checkPartSchemas, resolvePartSchemas } from "./part-schemas.ts";
import { Warnings } from "./deprecations.ts";
import { type EnvelopeItem, type ItemContext, loadItem } from "./item.ts";
import { compileMap } from "./map.ts";
import { msg } from "./messages.ts";
import { isMapping, truthy } from "./python.ts";
import { fail, RefResolver } from "./refs.ts";
import { sidecarBatches } from "./sidecar.ts";
import { sourceLimit, sourceRows } from "./sources/index.ts";
import { checkDocumentShape, datasetInfo, type DatasetInfo } from "./document.ts";
import { parseYaml, type PathSeg, type YamlFile } from "./yaml.ts";

export interface SourceOverride {
  value: Record<string, unknown>;
  file: YamlFile;
}

export interface OpenOptions {
  sourceOverride?: SourceOverride;
  /** Where warnings go (stderr in the CLI). */
  warn: (line: string) => void;
}

export interface OpenedDataset {
  info: DatasetInfo;
  /** Items in dataset order, a batch at a time. */
  batches(): AsyncGenerator<EnvelopeItem[]>;
  /** Duplicate ids and spec.schemas violations found so far (complete once batches() is done). */
  problems: string[];
}

export function readYamlFile(path: string): YamlFile {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    return fail(path, code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a folder, not a YAML file" : describeCause(cause));
  }
  return parseYaml(path, text);
}

export async function openDataset(path: string, options: OpenOptions): Promise<OpenedDataset> {
  const doc = readYamlFile(path);
  const warnings = new Warnings(options.warn);
  let data: Record<string, unknown> = {};
  let itemsAt: PathSeg[] = ["spec", "items"];
  if (Array.isArray(doc.value)) {
    warnings.deprecated("dataset.bare_list", path);
    data = { spec: { items: doc.value } };
    itemsAt = [];
  } else if (isMapping(doc.value)) {
    data = doc.value;
    checkDocumentShape(data, doc, warnings, path);
  }
  const spec = isMapping(data.spec) ? data.spec : {};
  let rawItems: unknown = truthy(spec.items) ? spec.items : truthy(data.items) ? data.items : [];
  if (!truthy(spec.items) && truthy(data.items)) itemsAt = ["items"];
  if (!Array.isArray(rawItems)) fail(doc.at(itemsAt), `${itemsAt.join(".")} must be a list of items`);
  rawItems = rawItems as unknown[];

  const baseDir = dirname(resolve(path));
  const shownDir = dirname(path);
  const refs = new RefResolver(baseDir);
  const ctx: ItemContext = { refs, warnings, datasetPath: path };
  const override = options.sourceOverride;
  let source = spec.source;
  if (override && Object.keys(override.value).length > 0) {
    source = { ...(isMapping(spec.source) ? spec.source : {}), ...override.value };
  }
  if (source !== undefined && source !== null && !isMapping(source)) fail(doc.at(["spec", "source"]), msg.notAMapping("spec.source"));
  const place = {
    baseDir,
    shownDir,
    at: (field?: string, key?: boolean) =>
      field && override && Object.hasOwn(override.value, field)
        ? override.file.at([field], key)
        : doc.at(field ? ["spec", "source", field] : ["spec", "source"], key),
  };
  const schemas = await resolvePartSchemas(spec.schemas, refs, (key) => doc.at(key ? ["spec", "schemas", key] : ["spec", "schemas"], true));
  const problems: string[] = [];
  const seen = new Map<string, string>();

  const finish = (item: EnvelopeItem, where: string) => {
    const first = seen.get(item.id);
    if (first !== undefined) problems.push(`${where}: item ${item.id}: ${msg.duplicateId(item.id, first)}`);
    else seen.set(item.id, where);
    if (schemas.length > 0) problems.push(...checkPartSchemas(item, schemas, `${where}: item ${item.id}`));
    return item;
  };

  async function* batches(): AsyncGenerator<EnvelopeItem[]> {
    if (isMapping(source) && truthy(source)) {
      const limit = sourceLimit(source, place);
      const rows = sourceRows(source, place, limit);
      const mapAt = (dest: string) =>
        override && Object.hasOwn(override.value, "map") ? override.file.at(["map", dest]) : doc.at(["spec", "source", "map", dest]);
      const mapper = compileMap(isMapping(source.map) ? source.map : undefined, mapAt);
      let index = 0;
      if (limit !== 0) {
        for await (const batch of rows) {
          const out: EnvelopeItem[] = [];
          for (const { row, where } of batch) {
            const raw = mapper(row, index, where);
            out.push(finish(loadItem(raw, () => where, ctx), where));
            if (++index === limit) break;
          }
          if (out.length > 0) yield out;
          if (index === limit) break;
        }
      }
    } else if (truthy(spec.path) && (rawItems as unknown[]).length === 0) {
      for await (const batch of sidecarBatches(spec, doc, path, baseDir, shownDir)) {
        yield batch.map(({ raw, at }) => {
          const item = loadItem(raw, at, ctx);
          return finish(item, at([]));
        });
      }
    }
    const inline: EnvelopeItem[] = [];
    (rawItems as unknown[]).forEach((raw, i) => {
      if (!isMapping(raw)) return;
      const at = (p: readonly PathSeg[], key?: boolean) => doc.at([...itemsAt, i, ...p], key);
      inline.push(finish(loadItem(raw, at, ctx), at([])));
    });
    if (inline.length > 0) yield inline;
  }

  return { info: datasetInfo(data, basename(path)), batches, problems };
}
