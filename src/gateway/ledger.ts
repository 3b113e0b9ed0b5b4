/**
 * The host-side record of a run's model calls: one JSON line per call in
 * `<run dir>/model-calls.jsonl` and the request and response bodies gzipped beside it in
 * `<run dir>/model-calls/<seq>.request.json.gz` / `<seq>.response.gz` (the stream's bytes as the
 * agent got them). The run folder is root-only inside the container, so the agent cannot touch it.
 */
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Wire } from "../formats/model-config.ts";
import type { Usage } from "./usage.ts";

export const LEDGER_FILE = "model-calls.jsonl";
export const TRANSCRIPT_DIR = "model-calls";

export interface LedgerEntry {
  seq: number;
  /** UTC ISO time the call arrived */
  time: string;
  run: string;
  model: string;
  wire: Wire | "count_tokens" | "models";
  path: string;
  stream: boolean;
  status: number;
  /** milliseconds from arrival to the last byte */
  ms: number;
  /** milliseconds from arrival to the first byte of the upstream's answer (null if none) */
  first_byte_ms: number | null;
  usage: Usage;
  /** USD of this call */
  cost: number;
  /** USD spent by the run after this call */
  spent: number;
  /** hosted tools removed from the request */
  stripped: string[];
  /** the client went away before the answer ended */
  aborted: boolean;
  error: string | null;
}

export class Ledger {
  private readonly transcripts: string;
  constructor(readonly dir: string) {
    this.transcripts = join(dir, TRANSCRIPT_DIR);
  }

  write(entry: LedgerEntry, request: Uint8Array | undefined, response: Uint8Array | undefined): void {
    appendFileSync(join(this.dir, LEDGER_FILE), `${JSON.stringify(entry)}\n`);
    if (!request && !response) return;
    mkdirSync(this.transcripts, { recursive: true });
    if (request) writeFileSync(join(this.transcripts, `${entry.seq}.request.json.gz`), Bun.gzipSync(request as Uint8Array<ArrayBuffer>));
    if (response) writeFileSync(join(this.transcripts, `${entry.seq}.response.gz`), Bun.gzipSync(response as Uint8Array<ArrayBuffer>));
  }
}
