/**
 * CSV rows with a header (RFC 4180 quoting, as Python's csv module reads it): each row a
 * column → string mapping, blank lines skipped. A row with more or fewer fields than the header is
 * an error naming file:line (departure: Python's DictReader pads with null / keeps extras under a
 * null key, silently).
 */
import { msg } from "../messages.ts";
import { fail } from "../refs.ts";
import { type RowBatches, type SourceRow, textChunks } from "./rows.ts";

export async function* csvRows(path: string, shown: string): RowBatches {
  let header: string[] | undefined;
  let fields: string[] = [];
  let field = "";
  let quoted = false; // inside a quoted section
  let afterQuote = false; // just read a quote inside a quoted section (maybe an escaped "")
  let line = 1;
  let rowLine = 1;
  let batch: SourceRow[] = [];

  const endRow = () => {
    fields.push(field);
    field = "";
    const record = fields;
    fields = [];
    if (record.length === 1 && record[0] === "") return; // blank line
    if (!header) {
      header = record;
      return;
    }
    if (record.length !== header.length) fail(`${shown}:${rowLine}:1`, msg.raggedCsv(record.length, header.length));
    const row: Record<string, unknown> = {};
    for (let i = 0; i < header.length; i++) row[header[i] as string] = record[i];
    batch.push({ row, where: `${shown}:${rowLine}:1` });
  };

  let pendingCR = false;
  for await (const chunk of textChunks(path)) {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i] as string;
      if (pendingCR) {
        pendingCR = false;
        if (c === "\n") continue;
      }
      if (quoted) {
        if (afterQuote) {
          afterQuote = false;
          if (c === '"') {
            field += '"';
            continue;
          }
          quoted = false; // the quote closed the section; fall through to unquoted handling
        } else if (c === '"') {
          afterQuote = true;
          continue;
        } else {
          if (c === "\n") line++;
          field += c;
          continue;
        }
      }
      if (c === '"' && field === "") quoted = true;
      else if (c === ",") {
        fields.push(field);
        field = "";
      } else if (c === "\n" || c === "\r") {
        endRow();
        line++;
        rowLine = line;
        pendingCR = c === "\r";
      } else field += c;
    }
    if (batch.length > 0) {
      yield batch;
      batch = [];
    }
  }
  if (quoted && !afterQuote) fail(`${shown}:${rowLine}:1`, msg.csvUnterminated());
  if (field !== "" || fields.length > 0) endRow();
  if (batch.length > 0) yield batch;
}
