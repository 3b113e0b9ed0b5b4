/**
 * The codex driver: OpenAI's Codex CLI headless (`codex exec --json`, prompt on stdin) against the
 * run's gateway, configured by `$CODEX_HOME/config.toml` (CODEX_HOME = ~/.codex of the agent user,
 * outside the source tree), with the pitfalls measured on 0.171.0 handled (docs/agents.md):
 * - a custom provider on the Responses wire with `env_key` (the key stays in the environment);
 * - every model slot (`model`, `review_model`) set to the run's model;
 * - `web_search = "disabled"`: codex offers OpenAI's hosted live web search by default;
 * - the MCP server `required` (codex would otherwise start without test_patch when it fails) with
 *   `tool_timeout_sec` = the agent's whole time limit;
 * - sandbox and approvals off (the container is the sandbox), no update check, no analytics or
 *   feedback uploads, `--strict-config` so that a key this version does not know fails the run.
 * - a model name codex knows gets a catalog entry without tool search (codex-catalog.ts).
 * Codex 0.171.0 has no turn limit (`max_turns` is an unknown key): the time limit and the budget bound it.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CliExit } from "./cli-process.ts";
import { bundledCatalog, catalogEntry, writeCatalog } from "./codex-catalog.ts";
import type { Tokens } from "../contract/agent.ts";
import type { DriverSettings } from "./config.ts";
import type { Dialog } from "./dialog.ts";

/** A TOML basic string: JSON's escapes are all valid TOML escapes. */
const str = (s: string) => JSON.stringify(s);

export function codexConfig(model: string, baseUrl: string, mcpUrl: string, timeoutS: number, catalog?: string): string {
  return [
    ...(catalog ? [`model_catalog_json = ${str(catalog)}`] : []),
    `model = ${str(model)}`,
    `review_model = ${str(model)}`,
    `model_provider = "ssebench"`,
    `approval_policy = "never"`,
    `sandbox_mode = "danger-full-access"`,
    `web_search = "disabled"`,
    `check_for_update_on_startup = false`,
    "",
    "[analytics]",
    "enabled = false",
    "",
    "[feedback]",
    "enabled = false",
    "",
    "[model_providers.ssebench]",
    `name = "ssebench gateway"`,
    `base_url = ${str(`${baseUrl.replace(/\/+$/, "")}/v1`)}`,
    `wire_api = "responses"`,
    `env_key = "SSE_API_KEY"`,
    "",
    "[mcp_servers.ssebench]",
    `url = ${str(mcpUrl)}`,
    "required = true",
    "startup_timeout_sec = 60",
    `tool_timeout_sec = ${Math.max(1, Math.ceil(timeoutS))}`,
    "",
  ].join("\n");
}

export function codexArgv(bin: string): string[] {
  return [bin, "exec", "--json", "--strict-config", "--dangerously-bypass-approvals-and-sandbox", "--skip-git-repo-check", "-"];
}

/** The CLI's environment: the agent's, with CODEX_HOME, and no OpenAI variables of the image. */
export function codexEnv(env: Record<string, string | undefined>, codexHome: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && !k.startsWith("OPENAI_")) out[k] = v;
  out.CODEX_HOME = codexHome;
  return out;
}

/** Writes ~/.codex/config.toml (0600 in a 0700 folder) and gives the CLI's argv and environment. */
export function codexLaunch(c: DriverSettings & { model: string; mcpUrl: string }): { argv: string[]; env: Record<string, string> } {
  const codexHome = join(c.home, ".codex");
  mkdirSync(codexHome, { recursive: true, mode: 0o700 });
  const bin = join(c.agentDir, "bin", "codex");
  const env = codexEnv(c.inherited, codexHome);
  const entry = catalogEntry(bundledCatalog(bin, env), c.model);
  const catalog = entry ? writeCatalog(codexHome, entry) : undefined;
  writeFileSync(join(codexHome, "config.toml"), codexConfig(c.model, c.baseUrl ?? "", c.mcpUrl, c.timeoutS, catalog), { mode: 0o600 });
  return { argv: codexArgv(bin), env };
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);
const s = (v: unknown) => (typeof v === "string" ? v : "");

/** An OpenAI-shaped error body (`{"error":{"message"}}`) as its message; any other text as it is. */
function readable(text: string): string {
  try {
    const body = JSON.parse(text) as unknown;
    if (isObj(body) && isObj(body.error) && typeof body.error.message === "string") return body.error.message;
  } catch {
    // not JSON: the text itself
  }
  return text;
}

/** The tool name and arguments the dialog shows for an item (the reference's names), or null. */
function toolOf(item: Json): { name: string; args: unknown } | null {
  switch (item.type) {
    case "command_execution":
      return { name: "bash", args: { command: s(item.command) } };
    case "file_change":
      return { name: "file_change", args: { changes: Array.isArray(item.changes) ? item.changes : [] } };
    case "mcp_tool_call":
      return { name: `mcp__${s(item.server) || "unknown"}__${s(item.tool) || "unknown"}`, args: item.arguments };
    case "web_search":
      return { name: "web_search", args: { query: s(item.query) } };
    case "todo_list":
      return { name: "todo_list", args: { items: Array.isArray(item.items) ? item.items : [] } };
    default:
      return null;
  }
}

/** A finished tool item's outcome: a result text, or an error text. */
function outcomeOf(item: Json): { ok: boolean; text: string } {
  const status = item.status;
  switch (item.type) {
    case "command_execution": {
      const out = s(item.aggregated_output);
      const code = item.exit_code;
      if (status === "failed" || status === "declined" || (typeof code === "number" && code !== 0)) {
        return { ok: false, text: `${out.replace(/\n+$/, "")}\n[${typeof code === "number" ? `exit code ${code}` : String(status)}]`.trim() };
      }
      return { ok: true, text: out };
    }
    case "file_change": {
      const text = (Array.isArray(item.changes) ? item.changes : [])
        .filter(isObj)
        .map((c) => `${s(c.kind) || "change"} ${s(c.path)}`)
        .join("\n");
      return status === "failed" ? { ok: false, text: text || "failed" } : { ok: true, text };
    }
    case "mcp_tool_call": {
      if (isObj(item.error) || status === "failed") return { ok: false, text: (isObj(item.error) && s(item.error.message)) || "failed" };
      const result = item.result;
      if (!isObj(result)) return { ok: true, text: "" };
      const texts = (Array.isArray(result.content) ? result.content : []).filter(isObj).map((b) => b.text).filter((t): t is string => typeof t === "string");
      return { ok: true, text: texts.length > 0 ? texts.join("\n") : JSON.stringify(result) };
    }
    case "todo_list":
      return { ok: true, text: (Array.isArray(item.items) ? item.items : []).filter(isObj).map((i) => `[${i.completed ? "x" : " "}] ${s(i.text)}`).join("\n") };
    default:
      return { ok: status !== "failed", text: "" };
  }
}

/** Converts `codex exec --json` events into dialog entries (the reference's mapping of them). */
export class CodexStream {
  private readonly running = new Map<string, string>();
  private turns = 0;
  private tokens: Tokens = { in: 0, out: 0 };
  private failure: string | undefined;
  private lastError: string | undefined;
  private lastMessage: string | undefined;

  constructor(private readonly dialog: Dialog) {}

  line(raw: string): void {
    let ev: unknown;
    try {
      ev = JSON.parse(raw);
    } catch {
      return;
    }
    if (!isObj(ev)) return;
    if (ev.type === "turn.started") this.turns++;
    else if (ev.type === "turn.completed" && isObj(ev.usage)) {
      // OpenAI's input count includes the cached tokens; its output count the reasoning ones.
      this.tokens = { in: this.tokens.in + num(ev.usage.input_tokens), out: this.tokens.out + num(ev.usage.output_tokens) };
    } else if (ev.type === "turn.failed") this.failure = (isObj(ev.error) && s(ev.error.message)) || "The turn failed";
    // Top-level errors are retry notices as often as failures: only kept as the closing reason.
    else if (ev.type === "error") this.lastError = s(ev.message) || undefined;
    else if ((ev.type === "item.started" || ev.type === "item.completed") && isObj(ev.item)) this.item(ev.type === "item.completed", ev.item);
  }

  private item(done: boolean, item: Json): void {
    if (item.type === "agent_message" || item.type === "reasoning") {
      const text = s(item.text);
      if (!done || !text) return;
      if (item.type === "reasoning") this.dialog.write({ type: "thinking", content: text });
      else {
        this.lastMessage = text;
        this.dialog.write({ type: "message", role: "assistant", content: text });
      }
      return;
    }
    const tool = toolOf(item);
    // The todo list repeats itself while it is updated: only its final state is shown.
    if (!tool || (item.type === "todo_list" && !done)) return;
    const id = s(item.id) || `item_${this.running.size}`;
    // An item first seen completed still gets its start entry, which its result pairs with.
    if (!this.running.has(id)) {
      this.running.set(id, tool.name);
      this.dialog.write({ type: "tool", tool_id: id, name: tool.name, status: "running", ...(isObj(tool.args) ? { args: tool.args } : {}) });
    }
    if (!done) return;
    this.running.delete(id);
    const o = outcomeOf(item);
    if (o.ok) this.dialog.write({ type: "tool", tool_id: id, name: tool.name, status: "success", result: o.text });
    else this.dialog.write({ type: "tool", tool_id: id, name: tool.name, status: "error", error: o.text });
  }

  complete(exit: CliExit, durationMs: number): void {
    // A tool without a result would show as still running.
    for (const [id, name] of this.running) this.dialog.write({ type: "tool", tool_id: id, name, status: "error", error: "The agent ended before the tool finished" });
    this.running.clear();
    let status: "success" | "error" | "timeout" = "success";
    let message = this.lastMessage;
    if (exit.stopped) {
      status = "timeout";
      message = "The agent's time limit was reached";
    } else if (this.failure !== undefined || exit.code !== 0) {
      status = "error";
      message = readable(this.failure ?? this.lastError ?? `codex exited with status ${exit.code}`);
    }
    this.dialog.write({ type: "complete", status, turns: this.turns, duration_ms: durationMs, total_tokens: this.tokens, ...(message ? { message } : {}) });
  }
}
