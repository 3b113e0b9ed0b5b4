/**
 * `kind: huggingface`: rows from the Hugging Face dataset-viewer HTTP API (`/splits` to find the
 * config when none is given, then `/rows` in pages of 100). The reference uses the Python
 * `datasets` package; over HTTP only the viewer's row API is available, which serves the same rows
 * as JSON. Base URL: $SSEBENCH_HF_DATASETS_SERVER (default https://datasets-server.huggingface.co);
 * $HF_TOKEN, when set, is sent as a bearer token (gated datasets).
 */
import { msg } from "../messages.ts";
import { fail, type Where } from "../refs.ts";
import type { RowBatches, SourceRow } from "./rows.ts";
import { parseJsonLossless } from "../py-values.ts";

const pageSize = 100;

export interface HfSource {
  id: string;
  split: string;
  config?: string;
  /** Rows wanted (the source's limit), so that no more pages than needed are fetched. */
  limit?: number;
}

/** `validation[10:20]` → split validation, offset 10, end 20. */
export function parseSplit(text: string, where: Where): { split: string; start: number; end?: number } {
  const m = /^([^[\]]+)(?:\[(-?\d*):(-?\d*)\])?$/.exec(text.trim());
  if (!m) return fail(where, msg.hfSplitSlice(text));
  const [, split = "", from = "", to = ""] = m;
  if (from.startsWith("-") || to.startsWith("-")) fail(where, msg.hfSplitSlice(text));
  return { split, start: from ? Number(from) : 0, ...(to ? { end: Number(to) } : {}) };
}

function baseUrl(): string {
  return (process.env.SSEBENCH_HF_DATASETS_SERVER || "https://datasets-server.huggingface.co").replace(/\/+$/, "");
}

async function getJson(url: string, where: Where): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (process.env.HF_TOKEN) headers.authorization = `Bearer ${process.env.HF_TOKEN}`;
  let response: Response;
  try {
    response = await fetch(url, { headers, signal: AbortSignal.timeout(60_000) });
  } catch (cause) {
    return fail(where, msg.hfHttp(url, cause instanceof Error ? cause.message : String(cause)));
  }
  if (!response.ok) {
    const body = (await response.text().catch(() => "")).slice(0, 200).replace(/\s+/g, " ");
    fail(where, msg.hfHttp(url, `HTTP ${response.status}${body ? ` ${body}` : ""}`));
  }
  try {
    // Python's json reads the rows: floats stay floats, big ints exact, key order kept.
    return parseJsonLossless(await response.text()) as Record<string, unknown>;
  } catch {
    return fail(where, msg.hfHttp(url, "the response is not JSON"));
  }
}

async function findConfig(id: string, split: string, where: Where): Promise<string> {
  const url = `${baseUrl()}/splits?dataset=${encodeURIComponent(id)}`;
  const body = await getJson(url, where);
  const splits = Array.isArray(body.splits) ? (body.splits as Record<string, unknown>[]) : [];
  const hit = splits.find((s) => s.split === split) ?? undefined;
  if (!hit || typeof hit.config !== "string") return fail(where, msg.hfNoConfig(id, split));
  return hit.config;
}

export async function* huggingfaceRows(source: HfSource, where: Where): RowBatches {
  const { split, start, end } = parseSplit(source.split, where);
  const config = source.config ?? (await findConfig(source.id, split, where));
  let stop = end ?? Number.POSITIVE_INFINITY;
  if (source.limit !== undefined) stop = Math.min(stop, start + source.limit);
  for (let offset = start; offset < stop; offset += pageSize) {
    const length = Math.min(pageSize, stop - offset);
    const query = new URLSearchParams({ dataset: source.id, config, split, offset: String(offset), length: String(length) });
    const url = `${baseUrl()}/rows?${query}`;
    const body = await getJson(url, where);
    const rows = Array.isArray(body.rows) ? (body.rows as { row_idx?: number; row?: Record<string, unknown> }[]) : [];
    const batch: SourceRow[] = rows.map((r, i) => ({
      row: r.row ?? {},
      where: `${source.id}[${split}] row ${r.row_idx ?? offset + i}`,
    }));
    if (batch.length > 0) yield batch;
    const total = typeof body.num_rows_total === "number" ? body.num_rows_total : undefined;
    if (rows.length < length || (total !== undefined && offset + length >= total)) return;
  }
}
