/**
 * The host-side record of a run's model calls: one JSON line per call in
 * `<run dir>/model-calls.jsonl` and the request and response bodies gzipped beside it in
 * `<run dir>/model-calls/<seq>.request.json.gz` / `<seq>.response.gz` (the stream's bytes as the
 * agent got them). The run folder is root-only inside the container, so the agent cannot touch it.
 */
import { appendFile, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import type { Wire } from "../formats/models/model-types.ts";
import type { Usage } from "../formats/models/model-usage.ts";

export type Caller = "agent" | "plugin";

export const LEDGER_FILE = "model-calls.jsonl";
export const TRANSCRIPT_DIR = "model-calls";
/** Bodies kept per run (before compression): an agent must not fill the host's disk with requests. */
export const TRANSCRIPT_CAP_BYTES = 1024 ** 3;

export interface LedgerEntry {
  seq: number;
  /** UTC ISO time the call arrived */
  time: string;
  run: string;
  /** `plugin` for calls on the run's plugin socket, which only root in the container reaches */
  caller: Caller;
  /** the plugin's name (`x-ssebench-plugin`), for plugin calls only */
  plugin: string | null;
  model: string;
  /** the model the upstream's answer says it came from (`model`; gemini's `modelVersion`), null when it names none */
  answered_model: string | null;
  wire: Wire | "count_tokens" | "gemini_count_tokens" | "models";
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
  /** `cost` is the call's reserved upper bound: the upstream answered but its usage never came */
  estimated: boolean;
  /** USD spent by the run after this call */
  spent: number;
  /** hosted tools removed from the request */
  stripped: string[];
  /** the client went away before the answer ended */
  aborted: boolean;
  error: string | null;
}

const gzipAsync = (data: Uint8Array) => promisify(gzip)(data, { level: 1 });

/**
 * Writes in the background, in call order, off the agent's path: a call's answer never waits for
 * the disk or the compression (measured: synchronous writes cost ~0.7 ms per call). `flush()`
 * resolves once everything queued is on disk; a write that fails is counted, not thrown.
 */
export class Ledger {
  private readonly transcripts: string;
  private tail: Promise<void> = Promise.resolve();
  private madeDir = false;
  private bodyBytes = 0;
  failures = 0;
  constructor(readonly dir: string) {
    this.transcripts = join(dir, TRANSCRIPT_DIR);
  }

  write(entry: LedgerEntry, req: Uint8Array | undefined, res: Uint8Array | undefined): void {
    const line = `${JSON.stringify(entry)}\n`;
    const size = (req?.length ?? 0) + (res?.length ?? 0);
    const keep = this.bodyBytes + size <= TRANSCRIPT_CAP_BYTES;
    if (keep) this.bodyBytes += size;
    const request = keep ? req : undefined;
    const response = keep ? res : undefined;
    const bodies = [request && gzipAsync(request), response && gzipAsync(response)] as const;
    this.tail = this.tail
      .then(async () => {
        await appendFile(join(this.dir, LEDGER_FILE), line);
        if (!request && !response) return;
        if (!this.madeDir) await mkdir(this.transcripts, { recursive: true });
        this.madeDir = true;
        const [req, res] = await Promise.all(bodies);
        if (req) await writeFile(join(this.transcripts, `${entry.seq}.request.json.gz`), req);
        if (res) await writeFile(join(this.transcripts, `${entry.seq}.response.gz`), res);
      })
      .catch(() => {
        this.failures++;
      });
  }

  flush(): Promise<void> {
    return this.tail;
  }
}
