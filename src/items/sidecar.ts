/**
 * `spec.path` sidecars (§3.2): yaml, jsonl or csv files whose rows are already-shaped items (no
 * map). Departures: a missing sidecar is an error (the reference silently yields no items), and the
 * sidecar must stay inside the dataset's folder like every ref.
 */
import { readFileSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import type { ItemLocator } from "./item.ts";
import { msg } from "./messages.ts";
import { isMapping, pyStr } from "./python.ts";
import { fail } from "./refs.ts";
import { csvRows } from "./sources/csv.ts";
import { jsonlRows } from "./sources/jsonl.ts";
import { parseYaml, type YamlFile } from "./yaml.ts";

export interface SidecarItem {
  raw: Record<string, unknown>;
  at: ItemLocator;
}

function escapes(base: string, full: string): boolean {
  const rel = relative(base, full);
  return rel === ".." || rel.startsWith("../") || isAbsolute(rel);
}

export async function* sidecarBatches(
  spec: Record<string, unknown>,
  doc: YamlFile,
  datasetPath: string,
  baseDir: string,
  shownDir: string,
): AsyncGenerator<SidecarItem[]> {
  const where = doc.at(["spec", "path"]);
  const path = pyStr(spec.path);
  const full = resolve(baseDir, path);
  const shown = isAbsolute(path) ? path : join(shownDir, path);
  if (/\.json$/i.test(full) || spec.format === "json") fail(where, msg.sidecarJson(full));
  if (escapes(baseDir, full)) fail(where, msg.refEscapes(path));
  if (full === resolve(datasetPath)) fail(where, msg.sidecarSelf());
  if (!statSync(full, { throwIfNoEntry: false })?.isFile()) fail(where, msg.sidecarNotFound(shown));
  if (escapes(realpathSync(baseDir), realpathSync(full))) fail(where, msg.refEscapes(path));
  const kind = /\.jsonl$/i.test(full) ? "jsonl" : /\.csv$/i.test(full) ? "csv" : spec.format === "jsonl" || spec.format === "csv" ? spec.format : "yaml";
  if (kind !== "yaml") {
    for await (const batch of kind === "jsonl" ? jsonlRows(full, shown) : csvRows(full, shown)) {
      yield batch.map(({ row, where: rowWhere }) => ({ raw: row, at: () => rowWhere }));
    }
    return;
  }
  const side = parseYaml(shown, readFileSync(full, "utf8"));
  const value = side.value;
  let list: unknown[] = [];
  let prefix: (string | number)[] = [];
  if (Array.isArray(value)) list = value;
  else if (isMapping(value)) {
    if (Array.isArray(value.items)) [list, prefix] = [value.items, ["items"]];
    else if (isMapping(value.spec) && Array.isArray(value.spec.items)) [list, prefix] = [value.spec.items, ["spec", "items"]];
  }
  const out: SidecarItem[] = [];
  list.forEach((raw, i) => {
    if (isMapping(raw)) out.push({ raw, at: (p, key) => side.at([...prefix, i, ...p], key) });
  });
  if (out.length > 0) yield out;
}
