/**
 * The gemini-cli driver: Google's Gemini CLI headless (stdin not a terminal: the prompt is read
 * from it; `--output-format stream-json`) on the Bun runtime shipped beside it, against the run's
 * gateway on the gemini wire, with the pitfalls measured on 0.61.0 handled (docs/agents.md):
 * - GOOGLE_GEMINI_BASE_URL alone selects the "gateway" auth, which headless mode refuses (exit 41):
 *   the settings pin `security.auth.selectedType: gemini-api-key`;
 * - its helper calls (next-speaker and loop checks, compression, edit correction) and subagents ask
 *   for other models (gemini-3-flash-preview, flash-lite, …), which the gateway refuses: a model
 *   config override per scope (the main agent's `core` and each built-in subagent's) names the run's;
 * - the settings are the user's (`~/.gemini/settings.json`, GEMINI_CLI_HOME = the agent user's
 *   home); `--skip-trust` trusts the tree for this session only, after the settings are read, so
 *   the tree's own `.gemini/settings.json` is not applied (GEMINI_CLI_TRUST_WORKSPACE would apply
 *   it: measured), nor its `.env` files (`advanced.ignoreLocalEnv`);
 *   `--allowed-mcp-server-names ssebench` keeps only our MCP server, whose tool timeout is the
 *   agent's whole time limit;
 * - no web tools (google_web_search, web_fetch), usage statistics, telemetry, update checks, IDE;
 * - `GEMINI_CLI_NO_RELAUNCH` (no second process), `bun --no-install` (no package fetched on the
 *   fly: the bundle is whole).
 */
import { join } from "node:path";
import type { Tokens } from "../contract/agent.ts";
import type { CliExit } from "./cli-process.ts";
import { closeDialog, type Dialog } from "./dialog.ts";
import { type Json, num, obj, parseLine, str } from "./json-line.ts";
import { writePrivateJson } from "./settings-files.ts";

export const GEMINI_MAX_TURNS = 500;
/** The built-in subagents of 0.61.0 (the browser agent is off unless enabled): each asks for its own model under its own override scope. */
export const GEMINI_SUBAGENTS = ["codebase_investigator", "cli_help", "generalist", "confucius"] as const;

export interface GeminiSetup {
  baseUrl: string;
  key: string;
  model: string;
  mcpUrl: string;
  timeoutS: number;
  /** GEMINI_CLI_HOME: the agent user's home (gemini keeps ~/.gemini there) */
  home: string;
}

export function geminiSettings(s: GeminiSetup): Record<string, unknown> {
  const scopes = ["core", ...GEMINI_SUBAGENTS];
  return {
    security: { auth: { selectedType: "gemini-api-key" } },
    model: { name: s.model, maxSessionTurns: GEMINI_MAX_TURNS },
    modelConfigs: { customOverrides: scopes.map((scope) => ({ match: { overrideScope: scope }, modelConfig: { model: s.model } })) },
    mcpServers: { ssebench: { httpUrl: s.mcpUrl, trust: true, timeout: s.timeoutS * 1000 } },
    tools: { exclude: ["google_web_search", "web_fetch"] },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false, checkpointing: { enabled: false } },
    ide: { enabled: false },
    advanced: { ignoreLocalEnv: true },
  };
}

/** Writes the user settings, ~/.gemini/settings.json (0600); returns the file. */
export function writeGeminiSettings(s: GeminiSetup): string {
  return join(writePrivateJson(join(s.home, ".gemini"), { "settings.json": geminiSettings(s) }), "settings.json");
}

/** Variables of the image or the user's that would point gemini elsewhere (Vertex, another key or model). */
const FOREIGN = /^(GOOGLE_|GEMINI_|CLOUDSDK_)/;

export function geminiEnv(env: Record<string, string | undefined>, s: GeminiSetup): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && !FOREIGN.test(k)) out[k] = v;
  Object.assign(out, {
    GEMINI_API_KEY: s.key,
    GOOGLE_GEMINI_BASE_URL: s.baseUrl.replace(/\/+$/, ""),
    GEMINI_CLI_HOME: s.home,
    GEMINI_CLI_NO_RELAUNCH: "true",
    DO_NOT_TRACK: "1",
  });
  return out;
}

export function geminiArgv(agentDir: string, model: string): string[] {
  const bundle = join(agentDir, "gemini-cli", "bundle", "gemini.js");
  return [join(agentDir, "bin", "bun"), "--no-install", bundle, "--approval-mode", "yolo", "--output-format", "stream-json", "--model", model, "--skip-trust", "--allowed-mcp-server-names", "ssebench"];
}

/** An API error's own message: gemini wraps the answer's JSON as `[API Error: {json}]`. */
export function geminiErrorText(message: string): string {
  const inner = message.match(/^\[API Error: (.*)\]$/s)?.[1];
  if (!inner) return message;
  try {
    const body = obj(JSON.parse(inner));
    const text = obj(body.error).message;
    return typeof text === "string" ? text : inner;
  } catch {
    return inner;
  }
}

/**
 * Converts `--output-format stream-json` events into dialog entries: assistant `message` deltas
 * are joined into one message per turn, `tool_use`/`tool_result` pair by `tool_id`, a turn (one
 * model call of the main loop) starts at its first output after the prompt or a tool result,
 * `result` closes with its status, error and token counts. Thoughts are not in this stream.
 */
export class GeminiStream {
  private turns = 0;
  private tokens: Tokens = { in: 0, out: 0 };
  private text = "";
  private lastText: string | undefined;
  private inTurn = false;
  private readonly running = new Map<string, string>();
  private result: { ok: boolean; message?: string } | undefined;
  private lastError: string | undefined;

  constructor(private readonly dialog: Dialog) {}

  line(raw: string): void {
    const ev = parseLine(raw);
    if (!ev) return;
    if (ev.type === "message" && ev.role === "assistant") {
      this.startTurn();
      this.text += str(ev.content);
      return;
    }
    this.flush();
    if (ev.type === "tool_use") this.toolUse(ev);
    else if (ev.type === "tool_result") this.toolResult(ev);
    else if (ev.type === "error") this.lastError = str(ev.message) || undefined;
    else if (ev.type === "result") {
      const stats = obj(ev.stats);
      this.tokens = { in: num(stats.input_tokens), out: num(stats.output_tokens) };
      const error = obj(ev.error);
      this.result = ev.status === "success" ? { ok: true } : { ok: false, message: geminiErrorText(str(error.message) || this.lastError || "gemini reported an error") };
    }
  }

  private startTurn(): void {
    if (this.inTurn) return;
    this.inTurn = true;
    this.turns++;
  }

  /** The turn's text so far, as one message. */
  private flush(): void {
    if (!this.text) return;
    this.lastText = this.text;
    this.dialog.write({ type: "message", role: "assistant", content: this.text });
    this.text = "";
  }

  private toolUse(ev: Json): void {
    this.startTurn();
    const id = str(ev.tool_id) || `tool_${this.running.size}`;
    const name = str(ev.tool_name);
    this.running.set(id, name);
    this.dialog.write({ type: "tool", tool_id: id, name, status: "running", args: ev.parameters });
  }

  private toolResult(ev: Json): void {
    // The next output is the next model call's.
    this.inTurn = false;
    const id = str(ev.tool_id);
    const name = this.running.get(id) ?? "";
    this.running.delete(id);
    if (ev.status === "error") this.dialog.write({ type: "tool", tool_id: id, name, status: "error", error: str(obj(ev.error).message) || str(ev.output) });
    else this.dialog.write({ type: "tool", tool_id: id, name, status: "success", result: str(ev.output) });
  }

  /** The closing entry: gemini's own result, else why it ended without one. */
  complete(exit: CliExit, durationMs: number): void {
    this.flush();
    const failure = this.result?.message ?? this.lastError ?? `gemini exited with status ${exit.code} without a result`;
    closeDialog(this.dialog, this.running, { exit, ok: this.result?.ok === true, lastText: this.lastText, failure, turns: this.turns, tokens: this.tokens, durationMs });
  }
}
