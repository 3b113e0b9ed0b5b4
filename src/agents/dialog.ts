/**
 * `$SSE_ARCHIVE/dialog.jsonl` in the reference's dialog protocol: one JSON object a line with
 * `seq` (from 0), `ts` (ISO UTC) and `type` — `init`, `prompt`, `message`, `thinking`, `tool`
 * (start `status: running`, then `success`/`error` with the same `tool_id`), `complete`.
 * Written (overwritten at start) and flushed entry by entry, so a killed agent leaves a readable file.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import type { DialogEntry, Tokens } from "../contract/agent.ts";
import type { CliExit } from "./cli-process.ts";

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

/** How a CLI's run ended, as its converter saw it. */
export interface RunEnd {
  exit: CliExit;
  /** the CLI reported a successful end (and exited 0) */
  ok: boolean;
  /** the message of a success: the agent's last text */
  lastText: string | undefined;
  /** the message of a failure */
  failure: string;
  turns: number;
  tokens: Tokens;
  durationMs: number;
}

/**
 * Closes a dialog: each tool still running gets an error result, then `complete` is `timeout` when
 * the driver was stopped, `success` when the run ended well, else `error` with its failure.
 */
export function closeDialog(dialog: Dialog, running: Map<string, string>, end: RunEnd): void {
  for (const [id, name] of running) dialog.write({ type: "tool", tool_id: id, name, status: "error", error: "The agent ended before the tool finished" });
  running.clear();
  const [status, message] = end.exit.stopped ? (["timeout", "The agent's time limit was reached"] as const) : end.ok && end.exit.code === 0 ? (["success", end.lastText] as const) : (["error", end.failure] as const);
  dialog.write({ type: "complete", status, turns: end.turns, duration_ms: end.durationMs, total_tokens: end.tokens, ...(message ? { message } : {}) });
}
