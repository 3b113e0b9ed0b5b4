/**
 * JSON Lines rows: blank lines skipped, values that are not objects skipped (as the reference
 * does), an invalid line is an error naming file:line.
 */
import { msg } from "../messages.ts";
import { fail } from "../refs.ts";
import { parseJsonLossless } from "../py-values.ts";
import { type RowBatches, type SourceRow, textChunks } from "./rows.ts";

function parseLine(text: string, shown: string, line: number, out: SourceRow[]): void {
  const start = text.search(/\S/);
  if (start < 0) return;
  let value: unknown;
  try {
    value = parseJsonLossless(text);
  } catch (cause) {
    const what = (cause instanceof Error ? cause.message : String(cause)).replace(/^JSON Parse error: /, "");
    fail(`${shown}:${line}:${start + 1}`, msg.badJson(what));
  }
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    out.push({ row: value as Record<string, unknown>, where: `${shown}:${line}:${start + 1}` });
  }
}

export async function* jsonlRows(path: string, shown: string): RowBatches {
  let rest = "";
  let line = 0;
  for await (const chunk of textChunks(path)) {
    const text = rest + chunk;
    const batch: SourceRow[] = [];
    let from = 0;
    for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", from)) {
      parseLine(text.slice(from, nl), shown, ++line, batch);
      from = nl + 1;
    }
    rest = text.slice(from);
    if (batch.length > 0) yield batch;
  }
  const batch: SourceRow[] = [];
  parseLine(rest, shown, ++line, batch);
  if (batch.length > 0) yield batch;
}
