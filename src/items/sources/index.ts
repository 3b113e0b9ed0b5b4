/**
 * `spec.source` (merged with an experiment-level override) → batches of rows, after `limit`.
 * Paths resolve against the dataset's folder; absolute paths are allowed for source corpora.
 */
import { statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { msg } from "../messages.ts";
import { isMapping, pyStr, truthy } from "../python.ts";
import { fail } from "../refs.ts";
import { csvRows } from "./csv.ts";
import { globRows } from "./glob.ts";
import { huggingfaceRows } from "./huggingface.ts";
import { jsonlRows } from "./jsonl.ts";
import type { RowBatches } from "./rows.ts";
import { PyFloat } from "../py-values.ts";

export const sourceKeys = ["kind", "id", "split", "path", "map", "config", "name", "limit"] as const;

export interface SourcePlace {
  /** Absolute folder of the dataset file. */
  baseDir: string;
  /** The dataset's folder as the user named it (for messages). */
  shownDir: string;
  /** `file:line:col` of a field of the (merged) source mapping. */
  at(field?: string, key?: boolean): string;
}

export function sourceLimit(source: Record<string, unknown>, place: SourcePlace): number | undefined {
  const raw = source.limit;
  if (raw === null || raw === undefined) return undefined;
  const n = typeof raw === "string" && /^\s*[-+]?\d+\s*$/.test(raw) ? Number(raw) : raw instanceof PyFloat ? raw.value : raw;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1) fail(place.at("limit"), msg.badLimit(raw));
  return n;
}

function filePath(source: Record<string, unknown>, place: SourcePlace): { full: string; shown: string } {
  const path = truthy(source.path) ? pyStr(source.path) : "";
  if (!path) fail(place.at("path"), msg.sourcePathRequired());
  const full = resolve(place.baseDir, path);
  const shown = isAbsolute(path) ? path : join(place.shownDir, path);
  let ok = false;
  try {
    ok = statSync(full).isFile();
  } catch {}
  if (!ok) fail(place.at("path"), msg.sourceNotFound(shown));
  return { full, shown };
}

/** Checks the source mapping and returns its rows (not yet limited or mapped). */
export function sourceRows(source: Record<string, unknown>, place: SourcePlace, limit: number | undefined): RowBatches {
  for (const key of Object.keys(source)) {
    if (!(sourceKeys as readonly string[]).includes(key)) fail(place.at(key, true), msg.unknownKey(`spec.source.${key}`));
  }
  if (!truthy(source.kind)) fail(place.at("kind"), msg.sourceNeedsKind());
  if (source.map !== undefined && source.map !== null && !isMapping(source.map)) fail(place.at("map"), msg.notAMapping("spec.source.map"));
  switch (source.kind) {
    case "jsonl": {
      const { full, shown } = filePath(source, place);
      return jsonlRows(full, shown);
    }
    case "csv": {
      const { full, shown } = filePath(source, place);
      return csvRows(full, shown);
    }
    case "glob": {
      const pattern = truthy(source.path) ? pyStr(source.path) : "";
      if (!pattern) fail(place.at("path"), msg.globPathRequired());
      if (isAbsolute(pattern)) fail(place.at("path"), msg.globAbsolute(pattern));
      return globRows(pattern, place.baseDir, place.shownDir);
    }
    case "huggingface": {
      if (!truthy(source.id)) fail(place.at("id"), msg.hfNeedsId());
      const config = truthy(source.config) ? source.config : source.name;
      return huggingfaceRows(
        {
          id: pyStr(source.id),
          split: truthy(source.split) ? pyStr(source.split) : "validation",
          ...(truthy(config) ? { config: pyStr(config) } : {}),
          ...(limit !== undefined ? { limit } : {}),
        },
        place.at("id"),
      );
    }
    case "pickle":
      return fail(place.at("kind"), msg.pickleRefused());
    default:
      return fail(place.at("kind"), msg.unknownSourceKind(source.kind));
  }
}
