/**
 * The qwen-code driver: Qwen Code headless (prompt on stdin, `--output-format stream-json`, which
 * follows Claude Code's) on the Bun runtime shipped beside it, against the run's gateway on the
 * first of the model's wires that qwen speaks (it speaks all four), with the pitfalls measured on
 * 0.24.4 handled (docs/agents.md):
 * - the settings are the system settings file (QWEN_CODE_SYSTEM_SETTINGS_PATH, under ~/.qwen),
 *   which outranks the tree's own `.qwen/settings.json`; `--allowed-mcp-server-names ssebench`;
 * - the MCP server's tools `alwaysLoadTools` (else they hide behind qwen's tool_search), its
 *   timeout the agent's whole time limit;
 * - every model slot the run's (`model.name`, `fastModel` for side calls, the explore subagent's);
 * - no managed memory (an extra model call after the answer writes "memories" into ~/.qwen), no
 *   web tools, usage statistics, telemetry or update check; `cli.js` is started directly (its
 *   `cli-entry.js` may start a self-updated copy), without a relaunch;
 * - its bundled ripgrep comes without the executable bit: `tools.useRipgrep: false` (its own grep).
 */
import { join } from "node:path";
import type { Dialog } from "./dialog.ts";
import { ClaudeStream } from "./claude-code.ts";
import { writePrivateJson } from "./settings-files.ts";

export const QWEN_MAX_TURNS = 500;
export const QWEN_WIRES = ["chat", "responses", "anthropic", "gemini"] as const;
export type QwenWire = (typeof QWEN_WIRES)[number];
const AUTH_TYPE: Record<QwenWire, string> = { chat: "openai", responses: "openai-responses", anthropic: "anthropic", gemini: "gemini" };
/** Settings file version of 0.24.4: a file without it is rewritten by qwen. */
const SETTINGS_VERSION = 4;

/** The first wire of the model's (in the model's order) that qwen speaks; chat when none. */
export function pickQwenWire(modelWires: readonly unknown[]): QwenWire {
  return (modelWires.find((w) => (QWEN_WIRES as readonly unknown[]).includes(w)) as QwenWire | undefined) ?? "chat";
}

export interface QwenSetup {
  baseUrl: string;
  key: string;
  model: string;
  mcpUrl: string;
  wire: QwenWire;
  timeoutS: number;
  home: string;
}

export function qwenSettings(s: QwenSetup): Record<string, unknown> {
  return {
    $version: SETTINGS_VERSION,
    security: { auth: { selectedType: AUTH_TYPE[s.wire] } },
    model: { name: s.model, maxSessionTurns: QWEN_MAX_TURNS },
    fastModel: s.model,
    agents: { builtin: { exploreModel: s.model } },
    mcpServers: { ssebench: { httpUrl: s.mcpUrl, trust: true, timeout: s.timeoutS * 1000, alwaysLoadTools: true } },
    tools: { exclude: ["web_fetch", "web_search"], webSearch: { enabled: false }, useRipgrep: false },
    memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false, enableAutoSkill: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { enableAutoUpdate: false },
  };
}

/** Writes the system settings (0600) under ~/.qwen; returns the file. */
export function writeQwenSettings(s: QwenSetup): string {
  return join(writePrivateJson(join(s.home, ".qwen"), { "ssebench-settings.json": qwenSettings(s) }), "ssebench-settings.json");
}

/** Variables that would point qwen at another provider, key or model. */
const FOREIGN = /^(OPENAI_|ANTHROPIC_|GEMINI_|GOOGLE_|DASHSCOPE_|QWEN_|BAILIAN_|OPENROUTER_)/;

/** The provider variables of the wire: the gateway, the run's key and model. */
function wireEnv(s: QwenSetup): Record<string, string> {
  const base = s.baseUrl.replace(/\/+$/, "");
  if (s.wire === "anthropic") return { ANTHROPIC_BASE_URL: base, ANTHROPIC_API_KEY: s.key, ANTHROPIC_MODEL: s.model };
  if (s.wire === "gemini") return { GOOGLE_GEMINI_BASE_URL: base, GEMINI_API_KEY: s.key, GEMINI_MODEL: s.model };
  return { OPENAI_BASE_URL: `${base}/v1`, OPENAI_API_KEY: s.key, OPENAI_MODEL: s.model };
}

export function qwenEnv(env: Record<string, string | undefined>, s: QwenSetup, settingsFile: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && !FOREIGN.test(k)) out[k] = v;
  Object.assign(out, wireEnv(s), {
    QWEN_CODE_SYSTEM_SETTINGS_PATH: settingsFile,
    QWEN_CODE_NO_RELAUNCH: "true",
    QWEN_CODE_SUPPRESS_YOLO_WARNING: "1",
    DO_NOT_TRACK: "1",
  });
  return out;
}

export function qwenArgv(agentDir: string, model: string, wire: QwenWire): string[] {
  const cli = join(agentDir, "qwen-code", "cli.js");
  return [join(agentDir, "bin", "bun"), "--no-install", cli, "--approval-mode", "yolo", "--output-format", "stream-json", "--model", model, "--auth-type", AUTH_TYPE[wire], "--allowed-mcp-server-names", "ssebench"];
}

/** qwen's stream-json is Claude Code's, except that its input count already includes the cache's tokens. */
export function qwenStream(dialog: Dialog): ClaudeStream {
  return new ClaudeStream(dialog, { cli: "qwen", inputHasCache: true });
}
