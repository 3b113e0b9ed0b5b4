/** The oracle's exchange in the agents' dialog protocol (spec agents-models §1.6): init, prompt, message, complete. */
import { appendFileSync, writeFileSync } from "node:fs";
import type { Usage } from "../../../formats/models/model-usage.ts";

export class Dialog {
  private seq = 0;
  constructor(private readonly path: string) {
    writeFileSync(path, "", { mode: 0o644 });
  }

  private entry(type: string, fields: Record<string, unknown>): void {
    appendFileSync(this.path, `${JSON.stringify({ seq: this.seq++, ts: new Date().toISOString(), type, ...fields })}\n`);
  }

  init(data: { task: string; cwd: string; model: string; agent: string }): void {
    this.entry("init", { data });
  }

  prompt(content: string): void {
    this.entry("prompt", { content });
  }

  message(content: string, usage: Usage): void {
    this.entry("message", { role: "assistant", content, tokens: { in: usage.input + usage.cache_read + usage.cache_write, out: usage.output } });
  }

  complete(status: "success" | "error", durationMs: number, usage: Usage, message?: string): void {
    const total = { in: usage.input + usage.cache_read + usage.cache_write, out: usage.output };
    this.entry("complete", { status, turns: status === "success" ? 1 : 0, duration_ms: durationMs, total_tokens: total, ...(message ? { message } : {}) });
  }
}
