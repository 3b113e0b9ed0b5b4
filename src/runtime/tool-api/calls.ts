/**
 * `tool-calls.jsonl` in the results (root-only while the run lasts): one line per call of the
 * agent's tool API, the first MAX_CALL_LINES of them (a loop of refused calls would fill the disk).
 */
import { appendFileSync } from "node:fs";
import { log } from "../log.ts";

export const MAX_CALL_LINES = 10_000;

export interface CallLine {
  time: string;
  /** `mcp` (the test_patch tool) or `http` (a /sse/v1 route) */
  via: "mcp" | "http";
  /** the tool name or `METHOD /path` */
  call: string;
  level: number;
  /** scripts that ran: build, poc-1, function_test, intent_test, build-original, … */
  checks: string[];
  /** ok (a read), passed, failed, none (no check ran), infra, refused, not_found, aborted */
  outcome: string;
  http_status: number;
  seconds: number;
}

export class CallLog {
  count = 0;
  constructor(
    private readonly path: string,
    private readonly maxLines = MAX_CALL_LINES,
  ) {}

  write(line: Omit<CallLine, "time" | "seconds">, startedAt: number, startedWall: Date): void {
    const full: CallLine = { time: startedWall.toISOString(), ...line, seconds: Math.round(performance.now() - startedAt) / 1000 };
    this.count++;
    if (this.count > this.maxLines) {
      if (this.count === this.maxLines + 1) log("WARN", "Tool API: more calls than tool-calls.jsonl keeps; later ones are not written", { max_lines: this.maxLines });
      return;
    }
    try {
      // Root writes into the root-only results folder: no path of the agent's is involved.
      appendFileSync(this.path, `${JSON.stringify(full)}\n`, { mode: 0o644 });
    } catch (e) {
      log("WARN", "Tool API: a call could not be recorded", { err: e instanceof Error ? e.message : String(e) });
    }
  }
}
