/**
 * The cline driver: the Cline CLI (`@cline/cli-linux-x64`, a binary built by Bun) headless
 * (`--json`) against the run's gateway on the first of the model's wires it speaks (chat,
 * responses, anthropic: its gemini provider sends no tools), with what was measured on 3.0.65
 * handled (docs/agents.md):
 * - its settings under ~/.cline/data/settings: the provider (with `updatedAt`, else cline rewrites
 *   the entry without its key and base URL), the MCP server with the agent's time limit, telemetry,
 *   updates and the web-fetch tool off;
 * - `--json` wants the prompt as an argument (a prompt only on stdin is refused) and appends stdin
 *   to it after a blank line: the prompt's first line is the argument, the rest goes on stdin,
 *   which keeps a long prompt off the command line;
 * - never `--yolo` (it adds a tool the run must end through: a text answer loops);
 *   CLINE_SESSION_BACKEND_MODE=local keeps it from starting a hub daemon that outlives it.
 */
import { join } from "node:path";
import type { Tokens } from "../contract/agent.ts";
import type { CliExit } from "./cli-process.ts";
import { closeDialog, type Dialog } from "./dialog.ts";
import { asText, type Json, num, obj, parseLine } from "./json-line.ts";
import { writePrivateJson } from "./settings-files.ts";

export const CLINE_WIRES = ["chat", "responses", "anthropic"] as const;
export type ClineWire = (typeof CLINE_WIRES)[number];
const PROVIDER: Record<ClineWire, string> = { chat: "openai-compatible", responses: "openai-native", anthropic: "anthropic" };
/** Any fixed time: cline needs the field, not its value. */
const UPDATED_AT = "2026-01-01T00:00:00.000Z";

/** The first wire of the model's (in the model's order) that cline speaks; chat when none. */
export function pickClineWire(modelWires: readonly unknown[]): ClineWire {
  return (modelWires.find((w) => (CLINE_WIRES as readonly unknown[]).includes(w)) as ClineWire | undefined) ?? "chat";
}

export interface ClineSetup {
  baseUrl: string;
  key: string;
  model: string;
  mcpUrl: string;
  wire: ClineWire;
  timeoutS: number;
  home: string;
}

/** The settings files (name → content) of ~/.cline/data/settings. */
export function clineSettings(s: ClineSetup): Record<string, unknown> {
  const provider = PROVIDER[s.wire];
  const settings = { provider, apiKey: s.key, model: s.model, baseUrl: `${s.baseUrl.replace(/\/+$/, "")}/v1` };
  return {
    "providers.json": { version: 1, lastUsedProvider: provider, modes: {}, providers: { [provider]: { settings, updatedAt: UPDATED_AT, tokenSource: "manual" } } },
    "cline_mcp_settings.json": { mcpServers: { ssebench: { type: "streamableHttp", url: s.mcpUrl, timeout: s.timeoutS } } },
    "global-settings.json": { telemetryOptOut: true, autoUpdateEnabled: false, disabledTools: ["fetch_web_content"] },
  };
}

/** Writes the settings (0600 files in 0700 folders); returns their folder. */
export function writeClineSettings(s: ClineSetup): string {
  return writePrivateJson(join(s.home, ".cline", "data", "settings"), clineSettings(s));
}

/** Variables of the image that would point cline at another provider, folder or hook. */
const FOREIGN = /^(CLINE_|OPENAI_|ANTHROPIC_)/;

export function clineEnv(env: Record<string, string | undefined>, home: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && !FOREIGN.test(k)) out[k] = v;
  Object.assign(out, { HOME: home, CLINE_SESSION_BACKEND_MODE: "local" });
  return out;
}

/** The prompt as cline takes it: the first line as the argument, the rest on stdin (cline joins them with a blank line). */
export function splitPrompt(prompt: string): { argument: string; stdin: string } {
  const at = prompt.indexOf("\n\n");
  return at < 0 ? { argument: prompt, stdin: "" } : { argument: prompt.slice(0, at), stdin: prompt.slice(at + 2) };
}

export function clineArgv(agentDir: string, model: string, wire: ClineWire, argument: string): string[] {
  return [join(agentDir, "cline", "bin", "cline"), "--json", "-P", PROVIDER[wire], "-m", model, argument];
}

/** A tool's output as text, and whether it failed: built-in tools give {result, error, success} items, MCP tools their content. */
export function toolOutput(output: unknown): { failed: boolean; text: string } {
  const content = obj(output).content;
  if (Array.isArray(content)) return { failed: obj(output).isError === true, text: content.map((c) => asText(obj(c).text)).join("") };
  const items = (Array.isArray(output) ? output : [output]).map(obj);
  const failed = items.some((i) => i.success === false);
  return { failed, text: items.map((i) => (i.result !== undefined && i.result !== "" ? asText(i.result) : failed ? asText(i.error) : asText(output))).join("\n") };
}

/**
 * Converts `--json` lines into dialog entries: `agent_event` `content_end` text → message,
 * reasoning → thinking; a tool's `content_start` and `content_end` pair by `toolCallId`; each
 * `usage` is one model call (a turn) and carries the run's totals (cline's input count includes
 * the cache's tokens); an `error` and `run_result` (`finishReason`) give the closing status.
 */
export class ClineStream {
  private turns = 0;
  private tokens: Tokens = { in: 0, out: 0 };
  private lastText: string | undefined;
  private error: string | undefined;
  private finish: { reason: string; text: string } | undefined;
  private readonly running = new Map<string, string>();

  constructor(private readonly dialog: Dialog) {}

  line(raw: string): void {
    const line = parseLine(raw);
    if (!line) return;
    if (line.type === "run_result") this.finish = { reason: asText(line.finishReason), text: asText(line.text) };
    if (line.type !== "agent_event") return;
    const ev = obj(line.event);
    if (ev.type === "usage") {
      this.turns++;
      this.tokens = { in: num(ev.totalInputTokens) + num(ev.totalCacheWriteTokens), out: num(ev.totalOutputTokens) };
    } else if (ev.type === "error") this.error = asText(obj(ev.error).message) || asText(ev.error);
    else if (ev.type === "content_start" && ev.contentType === "tool") {
      const id = asText(ev.toolCallId);
      this.running.set(id, asText(ev.toolName));
      this.dialog.write({ type: "tool", tool_id: id, name: asText(ev.toolName), status: "running", args: ev.input });
    } else if (ev.type === "content_end") this.contentEnd(ev);
  }

  private contentEnd(ev: Json): void {
    if (ev.contentType === "tool") {
      const id = asText(ev.toolCallId);
      this.running.delete(id);
      const { failed, text } = toolOutput(ev.output);
      if (failed || ev.error !== undefined) this.dialog.write({ type: "tool", tool_id: id, name: asText(ev.toolName), status: "error", error: text || asText(ev.error) });
      else this.dialog.write({ type: "tool", tool_id: id, name: asText(ev.toolName), status: "success", result: text });
    } else if (ev.contentType === "text" && asText(ev.text)) {
      this.lastText = asText(ev.text);
      this.dialog.write({ type: "message", role: "assistant", content: this.lastText });
    } else if ((ev.contentType === "reasoning" || ev.contentType === "thinking") && asText(ev.text ?? ev.reasoning)) this.dialog.write({ type: "thinking", content: asText(ev.text ?? ev.reasoning) });
  }

  /** The closing entry: success when cline's run completed. */
  complete(exit: CliExit, durationMs: number): void {
    const failure = this.error ?? (this.finish?.text || `cline exited with status ${exit.code}${this.finish ? ` (${this.finish.reason})` : " without a result"}`);
    closeDialog(this.dialog, this.running, { exit, ok: this.finish?.reason === "completed", lastText: this.lastText, failure, turns: this.turns, tokens: this.tokens, durationMs });
  }
}
