/**
 * `$SSE_ARCHIVE/dialog.jsonl` in the reference's dialog protocol: one JSON object a line with
 * `seq` (from 0), `ts` (ISO UTC) and `type` — `init`, `prompt`, `message`, `thinking`, `tool`
 * (start `status: running`, then `success`/`error` with the same `tool_id`), `complete`.
 * Written (overwritten at start) and flushed entry by entry, so a killed agent leaves a readable file.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import type { DialogEntry } from "../contract/agent.ts";

export class Dialog {
  private seq = 0;
  private fd: number | undefined;
  private completed = false;
  private readonly started = performance.now();

  constructor(path: string) {
    this.fd = openSync(path, "w", 0o644);
  }

  write(entry: DialogEntry): void {
    if (this.fd === undefined || this.completed) return;
    if (entry.type === "complete") this.completed = true;
    writeSync(this.fd, `${JSON.stringify({ seq: this.seq++, ts: new Date().toISOString(), ...entry })}\n`);
  }

  get isComplete(): boolean {
    return this.completed;
  }

  elapsedMs(): number {
    return Math.round(performance.now() - this.started);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}
