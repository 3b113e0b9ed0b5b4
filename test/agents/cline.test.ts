import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { ClineStream, clineArgv, clineEnv, clineSettings, pickClineWire, splitPrompt, toolOutput, writeClineSettings } from "../../src/agents/cline.ts";
import { taskPrompt } from "../../src/agents/prompt.ts";
import { tempDir } from "../helpers/cli.ts";
import { convertStream, FIX_MESSAGES, fixSteps, toolPairs, toolSteps } from "./support.ts";

const dir = tempDir("ssebench-cline-stream-");
afterAll(() => dir.cleanup());
const fixtures = join(import.meta.dir, "fixtures", "cline");
const setup = { baseUrl: "http://127.0.0.1:4000/", key: "sk-1", model: "m", mcpUrl: "http://127.0.0.1:3000/mcp", wire: "chat" as const, timeoutS: 600, home: "/home/model" };
const convert = (fixture: string, exit = { code: 0, stopped: false }) => convertStream((d) => new ClineStream(d), fixtures, fixture, dir.path, exit);
const BUDGET = "Budget exhausted: this run spent $0.0000 of its $0.0001 budget; no further model calls are answered";

describe("cline driver", () => {
  test("the wire: the model's first that cline speaks (not gemini, whose provider sends no tools), chat when none", () => {
    expect(pickClineWire(["gemini", "anthropic", "chat"])).toBe("anthropic");
    expect(pickClineWire(["responses"])).toBe("responses");
    expect(pickClineWire(["gemini"])).toBe("chat");
  });

  test("settings: the provider of the wire on the gateway (with updatedAt), our MCP server with the agent's limit in seconds, no telemetry, updates or web fetch", () => {
    const s = clineSettings(setup);
    expect(s["providers.json"]).toEqual({
      version: 1,
      lastUsedProvider: "openai-compatible",
      modes: {},
      providers: { "openai-compatible": { settings: { provider: "openai-compatible", apiKey: "sk-1", model: "m", baseUrl: "http://127.0.0.1:4000/v1" }, updatedAt: "2026-01-01T00:00:00.000Z", tokenSource: "manual" } },
    });
    expect((clineSettings({ ...setup, wire: "responses" })["providers.json"] as { lastUsedProvider: string }).lastUsedProvider).toBe("openai-native");
    expect((clineSettings({ ...setup, wire: "anthropic" })["providers.json"] as { lastUsedProvider: string }).lastUsedProvider).toBe("anthropic");
    expect(s["cline_mcp_settings.json"]).toEqual({ mcpServers: { ssebench: { type: "streamableHttp", url: "http://127.0.0.1:3000/mcp", timeout: 600 } } });
    expect(s["global-settings.json"]).toEqual({ telemetryOptOut: true, autoUpdateEnabled: false, disabledTools: ["fetch_web_content"] });
  });

  test("the settings files are 0600 in a 0700 folder under the home", () => {
    const home = join(dir.path, "home");
    const settings = writeClineSettings({ ...setup, home });
    expect(settings).toBe(join(home, ".cline", "data", "settings"));
    for (const [name, content] of Object.entries(clineSettings({ ...setup, home }))) {
      expect(JSON.parse(readFileSync(join(settings, name), "utf8"))).toEqual(content);
      expect(statSync(join(settings, name)).mode & 0o777).toBe(0o600);
    }
    expect(statSync(settings).mode & 0o777).toBe(0o700);
  });

  test("environment: no hub daemon; the image's CLINE_, OPENAI_ and ANTHROPIC_ variables removed", () => {
    expect(clineEnv({ PATH: "/bin", HOME: "/x", CLINE_DIR: "/y", OPENAI_API_KEY: "leak", ANTHROPIC_BASE_URL: "u", SSE_MCP_URL: "m" }, "/home/model")).toEqual({ PATH: "/bin", HOME: "/home/model", SSE_MCP_URL: "m", CLINE_SESSION_BACKEND_MODE: "local" });
  });

  test("the prompt: its first line as the argument, the rest on stdin, which cline joins back with a blank line", () => {
    const prompt = taskPrompt({ id: "t", project: "p", language: "c", source: "/src/p", crash_reports: [] } as unknown as Parameters<typeof taskPrompt>[0]);
    const { argument, stdin } = splitPrompt(prompt);
    expect(argument).toBe("# Task");
    expect(`${argument}\n\n${stdin}`).toBe(prompt);
    expect(splitPrompt("one line")).toEqual({ argument: "one line", stdin: "" });
  });

  test("argv: the binary in JSON mode with the wire's provider and the run's model, never --yolo", () => {
    expect(clineArgv("/opt/agent", "m", "anthropic", "# Task")).toEqual(["/opt/agent/cline/bin/cline", "--json", "-P", "anthropic", "-m", "m", "# Task"]);
  });

  test("tool output: built-in tools' items, MCP content, failures with cline's text", () => {
    expect(toolOutput([{ query: "a", result: "A", success: true }, { query: "b", result: "B", success: true }])).toEqual({ failed: false, text: "A\nB" });
    expect(toolOutput({ content: [{ type: "text", text: "test_patch result" }] })).toEqual({ failed: false, text: "test_patch result" });
    expect(toolOutput({ query: "edit", result: "", error: "Editor operation failed", success: false })).toEqual({ failed: true, text: "Editor operation failed" });
  });

  for (const wire of ["chat", "anthropic", "responses"]) {
    test(`a fix on the ${wire} wire: messages, tools paired by id, test_patch by MCP, tokens and turns`, () => {
      const entries = convert(`fix-${wire}`);
      expect(entries.filter((e) => e.type === "message").map((e) => e.content)).toEqual(FIX_MESSAGES);
      expect(toolSteps(entries)).toEqual(fixSteps("read_files", wire === "responses" ? "apply_patch" : "editor", "ssebench__test_patch"));
      const starts = entries.filter((e) => e.type === "tool" && e.status === "running").map((e) => e.tool_id);
      expect(entries.filter((e) => e.type === "tool" && e.status !== "running").map((e) => e.tool_id)).toEqual(starts);
      expect(String(entries.find((e) => e.name === "ssebench__test_patch" && e.status === "success")?.result)).toStartWith("test_patch result:");
      expect(entries.at(-1)).toEqual({ type: "complete", status: "success", turns: 4, duration_ms: 1000, total_tokens: { in: 560, out: 80 }, message: "The patch builds and passes the tests. Done." });
    });
  }

  test("giving up: one turn, no tool, success", () => {
    const entries = convert("give-up");
    expect(toolSteps(entries)).toEqual([]);
    expect(entries.at(-1)).toMatchObject({ type: "complete", status: "success", turns: 1, total_tokens: { in: 100, out: 20 }, message: "I could not find a fix for this vulnerability, so I am giving up." });
  });

  test("a spent budget: cline exits 1 with the gateway's message; no turn", () => {
    const entries = convert("budget", { code: 1, stopped: false });
    expect(entries.at(-1)).toMatchObject({ type: "complete", status: "error", turns: 0, message: BUDGET });
  });

  test("tool errors: a failed command (its output with the exit code) and an edit that matches nothing", () => {
    const entries = convert("tool-error");
    expect(toolSteps(entries)).toEqual(toolPairs(["run_commands", "error"], ["editor", "error"]));
    expect(entries.find((e) => e.name === "run_commands" && e.status === "error")?.error).toBe("[Command exited with code 1]\n\n[stderr]\ncat: missing.c: No such file or directory\n");
    expect(String(entries.find((e) => e.name === "editor" && e.status === "error")?.error)).toStartWith("Editor operation failed: No replacement performed: text not found in");
    expect(entries.at(-1)).toMatchObject({ status: "success", turns: 3, message: "I give up." });
  });

  test("an end without a result, or the time limit with a tool running: error or timeout", () => {
    const cut = convertStream((d) => {
      const s = new ClineStream(d);
      let toolStarted = false;
      return { line: (l: string) => (toolStarted ? undefined : (s.line(l), (toolStarted = l.includes('"contentType":"tool"')))), complete: (e, ms) => s.complete(e, ms) };
    }, fixtures, "fix-chat", dir.path, { code: 143, stopped: true });
    expect(toolSteps(cut)).toEqual(toolPairs(["read_files", "error"]));
    expect(cut.at(-1)).toMatchObject({ status: "timeout", turns: 1, message: "The agent's time limit was reached" });
    const noResult = convertStream((d) => {
      const s = new ClineStream(d);
      return { line: (l: string) => (l.includes('"run_result"') ? undefined : s.line(l)), complete: (e, ms) => s.complete(e, ms) };
    }, fixtures, "fix-chat", dir.path, { code: 1, stopped: false });
    expect(noResult.at(-1)).toMatchObject({ status: "error", turns: 4, message: "cline exited with status 1 without a result" });
  });
});
