import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { CodexStream, codexArgv, codexConfig, codexEnv, codexLaunch } from "../../src/agents/codex.ts";
import { catalogEntry, writeCatalog } from "../../src/agents/codex-catalog.ts";
import { readDriverSettings } from "../../src/agents/config.ts";
import { Dialog } from "../../src/agents/dialog.ts";
import { tempDir } from "../helpers/cli.ts";

const dir = tempDir("ssebench-codex-stream-");
afterAll(() => dir.cleanup());
const fixtures = join(import.meta.dir, "fixtures", "codex");

/** The dialog entries (without ts) of a real captured codex stream, ended by `exit`. */
function convert(fixture: string | string[], exit = { code: 0, stopped: false }): Record<string, unknown>[] {
  const file = join(dir.path, `${Math.random().toString(36).slice(2)}.jsonl`);
  const dialog = new Dialog(file);
  const stream = new CodexStream(dialog);
  const lines = Array.isArray(fixture) ? fixture : readFileSync(join(fixtures, fixture), "utf8").split("\n");
  for (const line of lines) if (line.trim()) stream.line(line);
  stream.complete(exit, 1234);
  dialog.close();
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => {
      const { ts, ...rest } = JSON.parse(l) as Record<string, unknown>;
      expect(typeof ts).toBe("string");
      return rest;
    });
}

describe("codex driver: configuration", () => {
  test("config.toml: the gateway on the Responses wire with env_key, every model slot, web search, sandbox and update check off, the MCP server required with the agent's time limit", () => {
    const config = Bun.TOML.parse(codexConfig("m", "http://127.0.0.1:4000", "http://127.0.0.1:3000/mcp", 600));
    expect(config).toEqual({
      model: "m",
      review_model: "m",
      model_provider: "ssebench",
      approval_policy: "never",
      sandbox_mode: "danger-full-access",
      web_search: "disabled",
      check_for_update_on_startup: false,
      analytics: { enabled: false },
      feedback: { enabled: false },
      model_providers: { ssebench: { name: "ssebench gateway", base_url: "http://127.0.0.1:4000/v1", wire_api: "responses", env_key: "SSE_API_KEY" } },
      mcp_servers: { ssebench: { url: "http://127.0.0.1:3000/mcp", required: true, startup_timeout_sec: 60, tool_timeout_sec: 600 } },
    });
  });

  test("config.toml: a model name with quotes or backslashes stays one TOML string", () => {
    expect(Bun.TOML.parse(codexConfig('a"b\\c\n', "http://h/", "u", 1))).toMatchObject({ model: 'a"b\\c\n', model_providers: { ssebench: { base_url: "http://h/v1" } } });
  });

  test("a model name from codex's own catalog: its entry, with tool search off, as a one-entry catalog the config points at", () => {
    const bundled = JSON.stringify({ models: [{ slug: "gpt-5.5", supports_search_tool: true, apply_patch_tool_type: "freeform" }, { slug: "gpt-6-sol" }] });
    expect(catalogEntry(bundled, "scripted-fix")).toBeUndefined();
    expect(catalogEntry("not json", "gpt-5.5")).toBeUndefined();
    const entry = catalogEntry(bundled, "gpt-5.5");
    expect(entry).toEqual({ slug: "gpt-5.5", supports_search_tool: true, apply_patch_tool_type: "freeform" });
    const path = writeCatalog(dir.path, entry as Record<string, unknown>);
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ models: [{ slug: "gpt-5.5", supports_search_tool: false, apply_patch_tool_type: "freeform" }] });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(Bun.TOML.parse(codexConfig("gpt-5.5", "http://h", "u", 1, path))).toMatchObject({ model_catalog_json: path, model: "gpt-5.5" });
    expect(codexConfig("m", "http://h", "u", 1)).not.toContain("model_catalog_json");
  });

  test("argv: exec with JSON events, unknown config keys refused, no sandbox or approvals, prompt on stdin", () => {
    expect(codexArgv("/opt/agent/bin/codex")).toEqual(["/opt/agent/bin/codex", "exec", "--json", "--strict-config", "--dangerously-bypass-approvals-and-sandbox", "--skip-git-repo-check", "-"]);
  });

  test("environment: CODEX_HOME set, the image's OPENAI_* variables removed, the rest kept", () => {
    expect(codexEnv({ SSE_API_KEY: "k", OPENAI_API_KEY: "leak", OPENAI_BASE_URL: "http://x", PATH: "/bin", GONE: undefined }, "/home/model/.codex")).toEqual({
      SSE_API_KEY: "k",
      PATH: "/bin",
      CODEX_HOME: "/home/model/.codex",
    });
  });

  test("launch writes ~/.codex/config.toml (0600, in a 0700 folder) and points the CLI at it", () => {
    const home = join(dir.path, "home");
    const launch = codexLaunch({ ...readDriverSettings({ HOME: home, SSE_BASE_URL: "http://127.0.0.1:4000", SSE_API_KEY: "k", SSE_AGENT_DIR: "/opt/agent", TIMEOUT: "30" }), model: "m", mcpUrl: "http://127.0.0.1:3000/mcp" });
    expect(launch.argv[0]).toBe("/opt/agent/bin/codex");
    expect(launch.env.CODEX_HOME).toBe(join(home, ".codex"));
    const file = join(home, ".codex", "config.toml");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, ".codex")).mode & 0o777).toBe(0o700);
    expect(readFileSync(file, "utf8")).toBe(codexConfig("m", "http://127.0.0.1:4000", "http://127.0.0.1:3000/mcp", 30));
  });
});

describe("codex driver: exec --json events → dialog (real captured streams)", () => {
  test("a fix: messages, command, apply_patch file change and the MCP test_patch call as tool pairs; complete with turns, tokens and the last message", () => {
    const lines = convert("fix.stream.jsonl");
    const testPatch = "test_patch result: every check that ran passed.\n\nChecks:\n- build: passed\n- functional tests: passed\n\nNot available at difficulty level 2 (NO_FUTURE_TEST): PoCs, intent tests. Nothing is reported about them. Without the PoCs, this result does not show whether the vulnerability is fixed.";
    expect(lines.map(({ result, ...rest }) => rest)).toEqual([
      { seq: 0, type: "message", role: "assistant", content: "The report shows html_escaped_length undercounting quotes. Let me read htmlesc.c." },
      { seq: 1, type: "tool", tool_id: "item_2", name: "bash", status: "running", args: { command: "/bin/bash -lc 'sed -n 18,31p htmlesc.c'" } },
      { seq: 2, type: "tool", tool_id: "item_2", name: "bash", status: "success" },
      { seq: 3, type: "message", role: "assistant", content: "The length table misses the quote entities; I compute it from entity() instead." },
      { seq: 4, type: "tool", tool_id: "item_4", name: "file_change", status: "running", args: { changes: [{ path: "/src/htmlesc/htmlesc.c", kind: "update" }] } },
      { seq: 5, type: "tool", tool_id: "item_4", name: "file_change", status: "success" },
      { seq: 6, type: "message", role: "assistant", content: "Now I check the patch." },
      { seq: 7, type: "tool", tool_id: "item_6", name: "mcp__ssebench__test_patch", status: "running", args: {} },
      { seq: 8, type: "tool", tool_id: "item_6", name: "mcp__ssebench__test_patch", status: "success" },
      { seq: 9, type: "message", role: "assistant", content: "The patch builds and passes the tests. Done." },
      { seq: 10, type: "complete", status: "success", turns: 1, duration_ms: 1234, total_tokens: { in: 400, out: 80 }, message: "The patch builds and passes the tests. Done." },
    ]);
    expect(lines[2]?.result).toStartWith("size_t html_escaped_length(const char *in, size_t len)\n{\n");
    expect(lines[5]?.result).toBe("update /src/htmlesc/htmlesc.c");
    expect(lines[8]?.result).toBe(testPatch);
  });

  test("giving up: one message, no tools; the model-metadata warning item stays out of the dialog", () => {
    expect(convert("give-up.stream.jsonl")).toEqual([
      { seq: 0, type: "message", role: "assistant", content: "I could not find a fix for this vulnerability, so I am giving up." },
      { seq: 1, type: "complete", status: "success", turns: 1, duration_ms: 1234, total_tokens: { in: 100, out: 20 }, message: "I could not find a fix for this vulnerability, so I am giving up." },
    ]);
  });

  test("a spent budget: turn.failed makes complete an error with the gateway's own message", () => {
    const lines = convert("budget.stream.jsonl", { code: 1, stopped: false });
    expect(lines.at(-1)).toEqual({
      seq: 3,
      type: "complete",
      status: "error",
      turns: 1,
      duration_ms: 1234,
      total_tokens: { in: 0, out: 0 },
      message: "Budget exhausted: this run spent $0.0006 of its $0.00 budget; no further model calls are answered",
    });
  });

  test("a failed command is an error result with its output and exit code", () => {
    const lines = convert("failed-command.stream.jsonl");
    expect(lines[2]).toEqual({ seq: 2, type: "tool", tool_id: "item_2", name: "bash", status: "error", error: "cat: missing.c: No such file or directory\n[exit code 1]" });
  });

  test("stopped mid-tool: the open tool gets an error result and complete says timeout; later lines and junk are ignored", () => {
    const all = readFileSync(join(fixtures, "fix.stream.jsonl"), "utf8").split("\n");
    const cut = all.findIndex((l) => l.includes('"item.started"') && l.includes("mcp_tool_call"));
    const lines = convert([...all.slice(0, cut + 1), "not json", "[1]"], { code: 143, stopped: true });
    expect(lines.slice(-3)).toEqual([
      { seq: 7, type: "tool", tool_id: "item_6", name: "mcp__ssebench__test_patch", status: "running", args: {} },
      { seq: 8, type: "tool", tool_id: "item_6", name: "mcp__ssebench__test_patch", status: "error", error: "The agent ended before the tool finished" },
      { seq: 9, type: "complete", status: "timeout", turns: 1, duration_ms: 1234, total_tokens: { in: 0, out: 0 }, message: "The agent's time limit was reached" },
    ]);
  });

  test("an exit without turn.failed: error with the exit status", () => {
    expect(convert([], { code: 1, stopped: false })).toEqual([{ seq: 0, type: "complete", status: "error", turns: 0, duration_ms: 1234, total_tokens: { in: 0, out: 0 }, message: "codex exited with status 1" }]);
  });
});
