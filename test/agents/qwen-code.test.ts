import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { apiErrorText } from "../../src/agents/claude-code.ts";
import { Dialog } from "../../src/agents/dialog.ts";
import { pickQwenWire, qwenArgv, qwenEnv, qwenSettings, qwenStream, writeQwenSettings } from "../../src/agents/qwen-code.ts";
import { tempDir } from "../helpers/cli.ts";
import { convertStream, FIX_MESSAGES, fixSteps, toolPairs, toolSteps } from "./support.ts";

const dir = tempDir("ssebench-qwen-stream-");
afterAll(() => dir.cleanup());
const fixtures = join(import.meta.dir, "fixtures", "qwen-code");
const setup = { baseUrl: "http://127.0.0.1:4000/", key: "sk-1", model: "m", mcpUrl: "http://127.0.0.1:3000/mcp", wire: "chat" as const, timeoutS: 600, home: "/home/model" };
const convert = (fixture: string, exit = { code: 0, stopped: false }) => convertStream(qwenStream, fixtures, fixture, dir.path, exit);

describe("qwen-code driver", () => {
  test("wire: the first of the model's wires, chat when none qwen speaks", () => {
    expect(pickQwenWire(["anthropic", "chat"])).toBe("anthropic");
    expect(pickQwenWire(["gemini"])).toBe("gemini");
    expect(pickQwenWire(["responses", "chat"])).toBe("responses");
    expect(pickQwenWire([])).toBe("chat");
  });

  test("settings: the wire's auth type, the run's model in every slot, our MCP server loaded eagerly with the agent's limit, no memory, web, statistics, telemetry, updates or ripgrep", () => {
    const s = qwenSettings(setup);
    expect(s).toMatchObject({
      $version: 4,
      security: { auth: { selectedType: "openai" } },
      model: { name: "m", maxSessionTurns: 500 },
      fastModel: "m",
      agents: { builtin: { exploreModel: "m" } },
      mcpServers: { ssebench: { httpUrl: "http://127.0.0.1:3000/mcp", trust: true, timeout: 600_000, alwaysLoadTools: true } },
      tools: { exclude: ["web_fetch", "web_search"], webSearch: { enabled: false }, useRipgrep: false },
      memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false, enableAutoSkill: false },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false },
    });
    const auth = (wire: "responses" | "anthropic" | "gemini") => (qwenSettings({ ...setup, wire }).security as { auth: { selectedType: string } }).auth.selectedType;
    expect([auth("responses"), auth("anthropic"), auth("gemini")]).toEqual(["openai-responses", "anthropic", "gemini"]);
  });

  test("the settings are a system settings file under ~/.qwen (0600), which the environment names", () => {
    const home = join(dir.path, "home");
    const file = writeQwenSettings({ ...setup, home });
    expect(file).toBe(join(home, ".qwen", "ssebench-settings.json"));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(qwenSettings({ ...setup, home }));
    expect(qwenEnv({}, setup, file).QWEN_CODE_SYSTEM_SETTINGS_PATH).toBe(file);
  });

  test("environment: the wire's variables for the gateway, no other provider's, no relaunch", () => {
    const image = { PATH: "/bin", OPENAI_API_KEY: "leak", ANTHROPIC_BASE_URL: "https://x", DASHSCOPE_API_KEY: "leak", QWEN_HOME: "/x", GEMINI_MODEL: "other" };
    const fixed = { QWEN_CODE_SYSTEM_SETTINGS_PATH: "/s.json", QWEN_CODE_NO_RELAUNCH: "true", QWEN_CODE_SUPPRESS_YOLO_WARNING: "1", DO_NOT_TRACK: "1", PATH: "/bin" };
    expect(qwenEnv(image, setup, "/s.json")).toEqual({ ...fixed, OPENAI_BASE_URL: "http://127.0.0.1:4000/v1", OPENAI_API_KEY: "sk-1", OPENAI_MODEL: "m" });
    expect(qwenEnv(image, { ...setup, wire: "anthropic" }, "/s.json")).toEqual({ ...fixed, ANTHROPIC_BASE_URL: "http://127.0.0.1:4000", ANTHROPIC_API_KEY: "sk-1", ANTHROPIC_MODEL: "m" });
    expect(qwenEnv(image, { ...setup, wire: "gemini" }, "/s.json")).toEqual({ ...fixed, GOOGLE_GEMINI_BASE_URL: "http://127.0.0.1:4000", GEMINI_API_KEY: "sk-1", GEMINI_MODEL: "m" });
  });

  test("argv: cli.js on the shipped Bun without auto-install, headless yolo stream-json, the run's model and wire, only our MCP server", () => {
    expect(qwenArgv("/opt/agent", "m", "responses")).toEqual(["/opt/agent/bin/bun", "--no-install", "/opt/agent/qwen-code/cli.js", "--approval-mode", "yolo", "--output-format", "stream-json", "--model", "m", "--auth-type", "openai-responses", "--allowed-mcp-server-names", "ssebench"]);
  });

  for (const wire of ["chat", "gemini"]) {
    test(`a fix (${wire} wire): messages, read_file/edit/MCP test_patch pairs, 4 turns, tokens with the cache counted once`, () => {
      const entries = convert(`fix-${wire}`);
      expect(entries.filter((e) => e.type === "message").map((e) => e.content)).toEqual(FIX_MESSAGES);
      expect(toolSteps(entries)).toEqual(fixSteps("read_file", "edit", "mcp__ssebench__test_patch"));
      // Only the last message carries usage; qwen's input count includes the cache's tokens (4 × (100 + 40)).
      expect(entries.filter((e) => e.tokens !== undefined).length).toBe(1);
      expect(entries.at(-1)).toEqual({ type: "complete", status: "success", turns: 4, duration_ms: 1000, total_tokens: { in: 560, out: 80 }, message: "The patch builds and passes the tests. Done." });
    });
  }

  test("giving up: one turn, no tool, success", () => {
    const entries = convert("give-up");
    expect(toolSteps(entries)).toEqual([]);
    expect(entries.at(-1)).toMatchObject({ status: "success", turns: 1, total_tokens: { in: 100, out: 20 } });
  });

  test("a spent budget: an error with the gateway's own message", () => {
    const entries = convert("budget", { code: 1, stopped: false });
    expect(entries.at(-1)).toMatchObject({ type: "complete", status: "error", message: "Budget exhausted: this run spent $0.0000 of its $0.0001 budget; no further model calls are answered" });
  });

  test("tool errors: a failed command and an edit of a file not read are error results", () => {
    const entries = convert("tool-error");
    expect(toolSteps(entries)).toEqual(toolPairs(["run_shell_command", "error"], ["edit", "error"]));
    expect(String(entries.find((e) => e.name === "run_shell_command" && e.status === "error")?.error)).toContain("Exit Code: 1");
    expect(entries.at(-1)).toMatchObject({ status: "success", turns: 3, message: "Both failed; I stop." });
  });

  test("an end without a result names qwen and its exit status", () => {
    const file = join(dir.path, "none.jsonl");
    const dialog = new Dialog(file);
    qwenStream(dialog).complete({ code: 55, stopped: false }, 1);
    dialog.close();
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ status: "error", message: "qwen exited with status 55 without a result" });
  });

  test("an API error's text: the message inside qwen's [API Error: <status> …]", () => {
    expect(apiErrorText("[API Error: 400 Budget exhausted: x]")).toBe("Budget exhausted: x");
    expect(apiErrorText("[API Error: connection refused]")).toBe("connection refused");
    expect(apiErrorText("plain")).toBe("plain");
  });
});
