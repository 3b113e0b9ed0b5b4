/** A row read from a source file, with where it came from (for messages). */
export interface SourceRow {
  row: Record<string, unknown>;
  /** `file:line:col` of the row's start. */
  where: string;
}

/** Rows come in batches (one per file chunk) so that 100,000 rows cost few awaits. */
export type RowBatches = AsyncIterable<SourceRow[]>;

/** Text chunks of a UTF-8 file, streamed (memory stays bounded by the chunk size). */
export async function* textChunks(path: string): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8");
  let first = true;
  for await (const bytes of Bun.file(path).stream()) {
    let text = decoder.decode(bytes, { stream: true });
    if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    first = false;
    if (text) yield text;
  }
  const tail = decoder.decode();
  if (tail) yield tail;
}
