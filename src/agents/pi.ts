/**
 * The pi driver: pi (`@mariozechner/pi-coding-agent`) headless (`-p --mode json`, prompt on stdin)
 * on the Bun runtime of its install, against the run's gateway on the first of the model's wires
 * pi speaks (all four), with what was measured on 0.73.1 handled (docs/agents.md):
 * - the provider `ssebench` in ~/.pi/agent/models.json, its key read from SSE_API_KEY (never
 *   written to a file); `--provider ssebench --model M` leaves no other provider or model in use;
 * - pi has no MCP client: our extension (agents/pi/ssebench-mcp.ts, `-e`) offers the MCP server's
 *   tools as `mcp__ssebench__<tool>`; it fails pi's start when the server does not answer;
 * - nothing else is loaded: no extension, skill, prompt template or theme discovery (the tree's
 *   `.pi/` included), no session file;
 * - no version check, package check or install telemetry (`--offline`, PI_OFFLINE, PI_TELEMETRY=0);
 *   pi has no web tools;
 * - pi exits 0 after a failed model call (a spent budget): the stream's error makes the dialog's
 *   closing status.
 */
import { join } from "node:path";
import type { Tokens } from "../contract/agent.ts";
import type { CliExit } from "./cli-process.ts";
import { closeDialog, type Dialog } from "./dialog.ts";
import { type Json, num, obj, parseLine, str } from "./json-line.ts";
import { writePrivateJson } from "./settings-files.ts";

export const PI_WIRES = ["chat", "responses", "anthropic", "gemini"] as const;
export type PiWire = (typeof PI_WIRES)[number];
const PROVIDER = "ssebench";
const API: Record<PiWire, string> = { chat: "openai-completions", responses: "openai-responses", anthropic: "anthropic-messages", gemini: "google-generative-ai" };
/** Where the agent layer puts pi's install and our extension, under the agent folder. */
export const PI_CLI = "pi/node_modules/@mariozechner/pi-coding-agent/dist/cli.js";
export const PI_BUN = "pi/node_modules/@oven/bun-linux-x64/bin/bun";
export const PI_EXTENSION = "ssebench-mcp.ts";

/** The first wire of the model's (in the model's order) that pi speaks; chat when none. */
export function pickPiWire(modelWires: readonly unknown[]): PiWire {
  return (modelWires.find((w) => (PI_WIRES as readonly unknown[]).includes(w)) as PiWire | undefined) ?? "chat";
}

export interface PiSetup {
  baseUrl: string;
  model: string;
  wire: PiWire;
  home: string;
}

/** The base URL each API of pi's takes: OpenAI's with /v1, Google's with /v1beta, Anthropic's bare. */
function apiBase(s: PiSetup): string {
  const base = s.baseUrl.replace(/\/+$/, "");
  return s.wire === "anthropic" ? base : s.wire === "gemini" ? `${base}/v1beta` : `${base}/v1`;
}

export function piModels(s: PiSetup): Record<string, unknown> {
  return { providers: { [PROVIDER]: { baseUrl: apiBase(s), api: API[s.wire], apiKey: "SSE_API_KEY", models: [{ id: s.model }] } } };
}

export const PI_SETTINGS = { enableInstallTelemetry: false, quietStartup: true };

/** Writes ~/.pi/agent/models.json and settings.json (0600 in a 0700 folder); returns the folder. */
export function writePiConfig(s: PiSetup): string {
  return writePrivateJson(join(s.home, ".pi", "agent"), { "models.json": piModels(s), "settings.json": PI_SETTINGS });
}

export function piEnv(env: Record<string, string | undefined>, configDir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && !k.startsWith("PI_")) out[k] = v;
  Object.assign(out, { PI_CODING_AGENT_DIR: configDir, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", PI_TELEMETRY: "0" });
  return out;
}

export function piArgv(agentDir: string, model: string): string[] {
  return [
    join(agentDir, PI_BUN),
    "--no-install",
    join(agentDir, PI_CLI),
    "-p",
    "--mode",
    "json",
    "--provider",
    PROVIDER,
    "--model",
    model,
    "--no-session",
    "--no-extensions",
    "-e",
    join(agentDir, PI_EXTENSION),
    "--no-skills",
    "--no-prompt-templates",
    "--no-themes",
    "--offline",
  ];
}

/** A failed call's own message: pi prefixes the HTTP status and may keep the API's JSON error body. */
export function piErrorText(message: string): string {
  const text = message.replace(/^\d{3} /, "");
  try {
    const inner = obj(obj(JSON.parse(text)).error).message;
    return typeof inner === "string" ? inner : text;
  } catch {
    return text;
  }
}

/** A tool result's text. */
function resultText(result: unknown): string {
  const content = obj(result).content;
  return Array.isArray(content) ? content.map((c) => str(obj(c).text)).join("") : "";
}

/**
 * Converts `--mode json` events into dialog entries: each assistant `message_end` (one model
 * call) is a turn whose text and thinking blocks become entries and whose usage adds to the
 * tokens (`in` = input + cache read + cache write, as pi counts input without the cache);
 * `tool_execution_start`/`_end` pair by `toolCallId` (`isError` → error); an assistant message
 * that ended in an error (`stopReason: error`) gives the closing status and message.
 */
export class PiStream {
  private turns = 0;
  private tokens: Tokens = { in: 0, out: 0 };
  private lastText: string | undefined;
  private error: string | undefined;
  private ended = false;
  private readonly running = new Map<string, string>();

  constructor(private readonly dialog: Dialog) {}

  line(raw: string): void {
    const ev = parseLine(raw);
    if (!ev) return;
    if (ev.type === "message_end" && obj(ev.message).role === "assistant") this.assistant(obj(ev.message));
    else if (ev.type === "tool_execution_start") {
      const id = str(ev.toolCallId);
      this.running.set(id, str(ev.toolName));
      this.dialog.write({ type: "tool", tool_id: id, name: str(ev.toolName), status: "running", args: ev.args });
    } else if (ev.type === "tool_execution_end") {
      const id = str(ev.toolCallId);
      this.running.delete(id);
      const text = resultText(ev.result);
      if (ev.isError === true) this.dialog.write({ type: "tool", tool_id: id, name: str(ev.toolName), status: "error", error: text });
      else this.dialog.write({ type: "tool", tool_id: id, name: str(ev.toolName), status: "success", result: text });
    } else if (ev.type === "agent_end") this.ended = true;
  }

  private assistant(m: Json): void {
    const failed = m.stopReason === "error" || m.stopReason === "aborted";
    const content = Array.isArray(m.content) ? (m.content as unknown[]) : [];
    // A call refused before any output (a spent budget) is no turn.
    if (!failed || content.length > 0) this.turns++;
    const u = obj(m.usage);
    this.tokens = { in: this.tokens.in + num(u.input) + num(u.cacheRead) + num(u.cacheWrite), out: this.tokens.out + num(u.output) };
    for (const block of content) {
      const b = obj(block);
      if (b.type === "text" && str(b.text)) {
        this.lastText = str(b.text);
        this.dialog.write({ type: "message", role: "assistant", content: this.lastText });
      } else if (b.type === "thinking" && str(b.thinking)) this.dialog.write({ type: "thinking", content: str(b.thinking) });
    }
    this.error = failed ? piErrorText(str(m.errorMessage) || `pi's model call ended with ${String(m.stopReason)}`) : undefined;
  }

  /** The closing entry: success when pi ended its session after an answer that was not an error. */
  complete(exit: CliExit, durationMs: number): void {
    const failure = this.error ?? `pi exited with status ${exit.code} without ending its session`;
    closeDialog(this.dialog, this.running, { exit, ok: this.ended && this.error === undefined, lastText: this.lastText, failure, turns: this.turns, tokens: this.tokens, durationMs });
  }
}
