/**
 * The claude-code driver: Claude Code headless (`-p`, stream-json, prompt on stdin) against the
 * run's gateway, with the pitfalls measured on 2.1.332 handled (docs/agents.md):
 * - `ENABLE_TOOL_SEARCH=false`, else MCP tools hide behind ToolSearch and test_patch is never sent;
 * - `MCP_TOOL_TIMEOUT` = the agent's whole time limit (the SDK default of 60 s cuts test_patch);
 * - every model-name slot set to the run's model (a side call with a catalog alias would be refused);
 * - no update check, no telemetry, no web tools (the gateway strips hosted tools too);
 * - `--strict-mcp-config`: the ssebench MCP server only, whatever the tree holds.
 */
import type { Tokens } from "../contract/agent.ts";
import type { DriverSettings } from "./config.ts";
import type { Dialog } from "./dialog.ts";

export const CLAUDE_MAX_TURNS = 500;

export function claudeEnv(s: DriverSettings): Record<string, string> {
  const model = s.model ?? "";
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(s.inherited)) if (v !== undefined) out[k] = v;
  Object.assign(out, {
    ANTHROPIC_BASE_URL: s.baseUrl ?? "",
    ANTHROPIC_AUTH_TOKEN: s.apiKey ?? "",
    ANTHROPIC_MODEL: model,
    ANTHROPIC_DEFAULT_OPUS_MODEL: model,
    ANTHROPIC_DEFAULT_SONNET_MODEL: model,
    ANTHROPIC_DEFAULT_HAIKU_MODEL: model,
    ANTHROPIC_DEFAULT_FABLE_MODEL: model,
    ANTHROPIC_SMALL_FAST_MODEL: model,
    CLAUDE_CODE_SUBAGENT_MODEL: model,
    ENABLE_TOOL_SEARCH: "false",
    MCP_TOOL_TIMEOUT: String(s.timeoutS * 1000),
    MCP_TIMEOUT: "60000",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
  });
  delete out.ANTHROPIC_API_KEY;
  return out;
}

export function claudeArgv(bin: string, model: string, mcpUrl: string): string[] {
  const mcp = JSON.stringify({ mcpServers: { ssebench: { type: "http", url: mcpUrl } } });
  return [bin, "-p", "--verbose", "--output-format", "stream-json", "--dangerously-skip-permissions", "--model", model, "--max-turns", String(CLAUDE_MAX_TURNS), "--mcp-config", mcp, "--strict-mcp-config", "--disallowedTools", "WebSearch", "WebFetch"];
}

type Block = { type?: string; text?: string; thinking?: string; id?: string; name?: string; input?: unknown; tool_use_id?: string; content?: unknown; is_error?: boolean };
interface StreamEvent {
  type?: string;
  subtype?: string;
  message?: { content?: Block[] | string; usage?: { input_tokens?: number; output_tokens?: number } };
  num_turns?: number;
  is_error?: boolean;
  result?: string;
  /** qwen's failed result: `{message: "[API Error: 400 …]"}` */
  error?: { message?: string };
  usage?: { input_tokens?: number; output_tokens?: number; cache_read_input_tokens?: number; cache_creation_input_tokens?: number };
}

/** An API error's own text: qwen wraps it as `[API Error: <status> <message>]`. */
export function apiErrorText(message: string): string {
  return message.match(/^\[API Error: (?:\d{3} )?(.*)\]$/s)?.[1] ?? message;
}

const text = (content: unknown): string => {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((c) => (typeof c === "object" && c && "text" in c ? String((c as { text: unknown }).text) : "")).join("");
  return content === undefined ? "" : JSON.stringify(content);
};

/** How a CLI of Claude Code's stream-json shape counts (qwen-code's stream follows it). */
export interface ClaudeShape {
  /** the CLI's name in messages */
  cli: string;
  /** `usage.input_tokens` already includes the cache's tokens (qwen) */
  inputHasCache: boolean;
}

/** Converts stream-json events into dialog entries (the reference's canonical mapping). */
export class ClaudeStream {
  private readonly names = new Map<string, string>();
  private turns = 0;
  private tokens: Tokens = { in: 0, out: 0 };
  result: { isError: boolean; message?: string } | undefined;

  constructor(
    private readonly dialog: Dialog,
    private readonly shape: ClaudeShape = { cli: "claude", inputHasCache: false },
  ) {}

  line(raw: string): void {
    let ev: StreamEvent;
    try {
      ev = JSON.parse(raw) as StreamEvent;
    } catch {
      return;
    }
    if (ev.type === "assistant") this.assistant(ev);
    else if (ev.type === "user") this.user(ev);
    else if (ev.type === "result") {
      if (ev.num_turns !== undefined) this.turns = ev.num_turns;
      const u = ev.usage ?? {};
      const cache = this.shape.inputHasCache ? 0 : (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0);
      this.tokens = { in: (u.input_tokens ?? 0) + cache, out: u.output_tokens ?? 0 };
      const failure = typeof ev.error?.message === "string" ? apiErrorText(ev.error.message) : undefined;
      this.result = { isError: ev.is_error === true || ev.subtype !== "success", message: ev.result ?? failure ?? ev.subtype };
    }
  }

  private assistant(ev: StreamEvent): void {
    const blocks = Array.isArray(ev.message?.content) ? ev.message.content : [];
    const usage = ev.message?.usage;
    for (const b of blocks) {
      if (b.type === "text" && b.text) {
        // qwen puts an empty usage (zeros) on every event: no tokens then.
        const counted = usage && ((usage.input_tokens ?? 0) > 0 || (usage.output_tokens ?? 0) > 0);
        this.dialog.write({ type: "message", role: "assistant", content: b.text, ...(counted ? { tokens: { in: usage?.input_tokens ?? 0, out: usage?.output_tokens ?? 0 } } : {}) });
      } else if (b.type === "thinking" && b.thinking) this.dialog.write({ type: "thinking", content: b.thinking });
      else if (b.type === "tool_use" && b.id) {
        this.names.set(b.id, b.name ?? "");
        this.dialog.write({ type: "tool", tool_id: b.id, name: b.name ?? "", status: "running", args: b.input });
      }
    }
  }

  private user(ev: StreamEvent): void {
    const blocks = Array.isArray(ev.message?.content) ? ev.message.content : [];
    for (const b of blocks) {
      if (b.type !== "tool_result" || !b.tool_use_id) continue;
      const name = this.names.get(b.tool_use_id) ?? "";
      if (b.is_error) this.dialog.write({ type: "tool", tool_id: b.tool_use_id, name, status: "error", error: text(b.content) });
      else this.dialog.write({ type: "tool", tool_id: b.tool_use_id, name, status: "success", result: text(b.content) });
    }
  }

  /** The closing entry: the CLI's own result, else why it ended without one. */
  complete(exit: { code: number; stopped: boolean }, durationMs: number): void {
    const status = exit.stopped ? "timeout" : this.result && !this.result.isError && exit.code === 0 ? "success" : "error";
    const message = exit.stopped ? "The agent's time limit was reached" : (this.result?.message ?? `${this.shape.cli} exited with status ${exit.code} without a result`);
    this.dialog.write({ type: "complete", status, turns: this.turns, duration_ms: durationMs, total_tokens: this.tokens, message });
  }
}
