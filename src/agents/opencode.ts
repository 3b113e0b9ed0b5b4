/**
 * The opencode driver: OpenCode headless (`run --format json`, prompt on stdin) against the run's
 * gateway, its whole configuration in OPENCODE_CONFIG_CONTENT, with the pitfalls measured on
 * 1.18.33 handled (docs/agents.md):
 * - the wire is the first of the model's wires (the gateway's GET /v1/models/{id}) that opencode
 *   speaks: `@ai-sdk/openai-compatible` for chat, `@ai-sdk/anthropic` for anthropic (both bundled);
 * - `mcp.ssebench.timeout` = the agent's whole time limit (the SDK default of 60 s cuts test_patch);
 * - every model slot (`model`, `small_model` for titles and summaries) set to the run's model, and
 *   only the run's provider enabled, so no call goes out under another name;
 * - no update check, models.dev fetch, default plugins, LSP downloads or sharing; no web tools;
 *   the tree's own opencode.json is ignored (as claude's --strict-mcp-config); permissions allow
 *   everything (the container is the sandbox); no snapshots (a git copy of the whole tree);
 * - its global config folder read-only: opencode npm-installs its plugin SDK into every writable
 *   config folder in the background (a registry fetch that retries for minutes offline), and
 *   skips a folder it cannot write.
 */
import { chmodSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Tokens } from "../contract/agent.ts";
import type { DriverSettings } from "./config.ts";
import type { Dialog } from "./dialog.ts";
import { asText, type Json, num, obj, parseLine } from "./json-line.ts";

export const OPENCODE_MAX_STEPS = 500;
export const OPENCODE_WIRES = ["chat", "anthropic"] as const;
export type OpencodeWire = (typeof OPENCODE_WIRES)[number];
const PROVIDER = "ssebench";
const SDK: Record<OpencodeWire, string> = { chat: "@ai-sdk/openai-compatible", anthropic: "@ai-sdk/anthropic" };

/** The first wire of the model's (in the model's order) that opencode speaks; chat when none. */
export function pickWire(modelWires: readonly unknown[]): OpencodeWire {
  return (modelWires.find((w) => (OPENCODE_WIRES as readonly unknown[]).includes(w)) as OpencodeWire | undefined) ?? "chat";
}

/** The model's wires as the gateway lists them (GET /v1/models/{id}); [] when it does not answer. */
export async function gatewayWires(baseUrl: string, key: string, model: string): Promise<unknown[]> {
  try {
    const res = await fetch(`${baseUrl.replace(/\/+$/, "")}/v1/models/${encodeURIComponent(model)}`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await res.json()) as { wires?: unknown };
    return res.ok && Array.isArray(body.wires) ? body.wires : [];
  } catch {
    return [];
  }
}

export interface OpencodeSetup {
  baseUrl: string;
  key: string;
  model: string;
  mcpUrl: string;
  wire: OpencodeWire;
  timeoutS: number;
}

export function opencodeConfig(s: OpencodeSetup): Record<string, unknown> {
  const ref = `${PROVIDER}/${s.model}`;
  return {
    model: ref,
    small_model: ref,
    enabled_providers: [PROVIDER],
    provider: {
      [PROVIDER]: { npm: SDK[s.wire], name: "ssebench gateway", options: { baseURL: `${s.baseUrl.replace(/\/+$/, "")}/v1`, apiKey: s.key }, models: { [s.model]: { name: s.model } } },
    },
    mcp: { ssebench: { type: "remote", url: s.mcpUrl, enabled: true, timeout: s.timeoutS * 1000 } },
    permission: { "*": "allow", webfetch: "deny", websearch: "deny" },
    agent: { build: { steps: OPENCODE_MAX_STEPS } },
    autoupdate: false,
    share: "disabled",
    snapshot: false,
  };
}

/** opencode, or Kilo's CLI, its fork: the same configuration under other variable names. */
export type OpencodeFork = "opencode" | "kilo";
const DISABLE = ["AUTOUPDATE", "MODELS_FETCH", "DEFAULT_PLUGINS", "LSP_DOWNLOAD", "SHARE", "PROJECT_CONFIG"];
/** Kilo's own network features: session upload, codebase indexing (embeddings), presence. */
const KILO_DISABLE = ["SESSION_INGEST", "CODEBASE_INDEXING", "PRESENCE"];

export function opencodeEnv(env: Record<string, string | undefined>, s: OpencodeSetup, fork: OpencodeFork = "opencode"): Record<string, string> {
  const prefix = fork === "kilo" ? "KILO" : "OPENCODE";
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  const config = fork === "kilo" ? { ...opencodeConfig(s), disabled_providers: ["kilo"] } : opencodeConfig(s);
  out[`${prefix}_CONFIG_CONTENT`] = JSON.stringify(config);
  for (const d of fork === "kilo" ? [...DISABLE, ...KILO_DISABLE] : DISABLE) out[`${prefix}_DISABLE_${d}`] = "1";
  if (fork === "kilo") out.KILO_TELEMETRY_LEVEL = "off";
  for (const k of [`${prefix}_CONFIG`, `${prefix}_CONFIG_DIR`, "OPENAI_API_KEY", "ANTHROPIC_API_KEY"]) delete out[k];
  return out;
}

/** Creates opencode's (or kilo's) global config folder (empty: the config is inline) read-only; returns it. */
export function lockConfigDir(s: Pick<DriverSettings, "configHome">, fork: OpencodeFork = "opencode"): string {
  const dir = join(s.configHome, fork);
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o555);
  return dir;
}

export function opencodeArgv(bin: string, model: string, fork: OpencodeFork = "opencode"): string[] {
  // kilo asks before a tool runs unless --auto; --pure loads no external plugin.
  const kilo = fork === "kilo" ? ["--auto", "--pure"] : [];
  return [bin, "run", "--format", "json", "--thinking", ...kilo, "--print-logs", "--log-level", "WARN", "--model", `${PROVIDER}/${model}`];
}

/** The text of an `error` event: its message (nested as opencode's error objects nest it), else the whole error. */
function errorText(error: unknown): string {
  const e = obj(error);
  const data = obj(e.data);
  const message = data.message ?? e.message;
  const name = typeof e.name === "string" ? `${e.name}: ` : "";
  return typeof message === "string" ? `${name}${message}` : asText(error);
}

/**
 * Converts `run --format json` events into dialog entries: `text` → message, `reasoning` →
 * thinking, `tool_use` (emitted once, when the call has ended) → a start and a result entry,
 * `step_finish` → one turn and its tokens, `error` → the closing status.
 */
export class OpencodeStream {
  private turns = 0;
  private tokens: Tokens = { in: 0, out: 0 };
  private lastText: string | undefined;
  error: string | undefined;

  constructor(
    private readonly dialog: Dialog,
    private readonly cli: OpencodeFork = "opencode",
  ) {}

  line(raw: string): void {
    const ev = parseLine(raw);
    if (!ev) return;
    const part = obj(ev.part);
    if (ev.type === "text" && typeof part.text === "string" && part.text) {
      this.lastText = part.text;
      this.dialog.write({ type: "message", role: "assistant", content: part.text });
    } else if (ev.type === "reasoning" && typeof part.text === "string" && part.text) this.dialog.write({ type: "thinking", content: part.text });
    else if (ev.type === "tool_use") this.tool(part);
    else if (ev.type === "step_finish") {
      this.turns++;
      const t = obj(part.tokens);
      const cache = obj(t.cache);
      this.tokens = { in: this.tokens.in + num(t.input) + num(cache.read) + num(cache.write), out: this.tokens.out + num(t.output) + num(t.reasoning) };
    } else if (ev.type === "error") this.error = errorText(ev.error);
  }

  private tool(part: Json): void {
    const id = typeof part.callID === "string" ? part.callID : asText(part.id);
    const name = asText(part.tool);
    const state = obj(part.state);
    this.dialog.write({ type: "tool", tool_id: id, name, status: "running", args: state.input });
    if (state.status === "error") this.dialog.write({ type: "tool", tool_id: id, name, status: "error", error: asText(state.error) });
    else this.dialog.write({ type: "tool", tool_id: id, name, status: "success", result: asText(state.output) });
  }

  /** The closing entry: success when opencode exited 0 without an error event. */
  complete(exit: { code: number; stopped: boolean }, durationMs: number): void {
    const status = exit.stopped ? "timeout" : exit.code === 0 && this.error === undefined ? "success" : "error";
    const message = exit.stopped ? "The agent's time limit was reached" : (this.error ?? (exit.code === 0 ? this.lastText : `${this.cli} exited with status ${exit.code}`));
    this.dialog.write({ type: "complete", status, turns: this.turns, duration_ms: durationMs, total_tokens: this.tokens, ...(message ? { message } : {}) });
  }
}
