import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { Dialog } from "../../src/agents/dialog.ts";
import { GEMINI_SUBAGENTS, GeminiStream, geminiArgv, geminiEnv, geminiErrorText, geminiSettings, writeGeminiSettings } from "../../src/agents/gemini-cli.ts";
import { tempDir } from "../helpers/cli.ts";
import { convertStream, type Entry, FIX_MESSAGES, fixSteps, toolPairs, toolSteps } from "./support.ts";

const dir = tempDir("ssebench-gemini-stream-");
afterAll(() => dir.cleanup());
const fixtures = join(import.meta.dir, "fixtures", "gemini-cli");
const setup = { baseUrl: "http://127.0.0.1:4000/", key: "sk-1", model: "m", mcpUrl: "http://127.0.0.1:3000/mcp", timeoutS: 600, home: "/home/model" };

/** The dialog entries (without seq and ts) that a captured stream converts into. */
const convert = (fixture: string, exit = { code: 0, stopped: false }) => convertStream((d) => new GeminiStream(d), fixtures, fixture, dir.path, exit);
const tools = toolSteps;

describe("gemini-cli driver", () => {
  test("settings: the API-key auth, the run's model in every scope, our MCP server with the agent's limit, no web tools, statistics, updates or local .env", () => {
    const s = geminiSettings(setup);
    expect(s.security).toEqual({ auth: { selectedType: "gemini-api-key" } });
    expect(s.model).toEqual({ name: "m", maxSessionTurns: 500 });
    const overrides = (s.modelConfigs as { customOverrides: { match: { overrideScope: string }; modelConfig: { model: string } }[] }).customOverrides;
    expect(overrides.map((o) => o.match.overrideScope)).toEqual(["core", ...GEMINI_SUBAGENTS]);
    expect(overrides.every((o) => o.modelConfig.model === "m")).toBe(true);
    expect(s.mcpServers).toEqual({ ssebench: { httpUrl: "http://127.0.0.1:3000/mcp", trust: true, timeout: 600_000 } });
    expect(s.tools).toEqual({ exclude: ["google_web_search", "web_fetch"] });
    expect(s).toMatchObject({ privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false }, general: { enableAutoUpdate: false, enableAutoUpdateNotification: false }, advanced: { ignoreLocalEnv: true } });
  });

  test("the settings file is the user's, 0600 in a 0700 ~/.gemini", () => {
    const home = join(dir.path, "home");
    const file = writeGeminiSettings({ ...setup, home });
    expect(file).toBe(join(home, ".gemini", "settings.json"));
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(geminiSettings({ ...setup, home }));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, ".gemini")).mode & 0o777).toBe(0o700);
  });

  test("environment: the gateway and key, the home, no relaunch; no Google or Gemini variable of the image", () => {
    const env = geminiEnv({ PATH: "/bin", GOOGLE_API_KEY: "leak", GOOGLE_GENAI_USE_VERTEXAI: "true", GEMINI_MODEL: "other", GOOGLE_CLOUD_PROJECT: "p", GEMINI_CLI_TRUST_WORKSPACE: "true" }, setup);
    expect(env).toEqual({ PATH: "/bin", GEMINI_API_KEY: "sk-1", GOOGLE_GEMINI_BASE_URL: "http://127.0.0.1:4000", GEMINI_CLI_HOME: "/home/model", GEMINI_CLI_NO_RELAUNCH: "true", DO_NOT_TRACK: "1" });
  });

  test("argv: the bundle on the shipped Bun without auto-install, headless yolo stream-json, the run's model, this session's trust, only our MCP server", () => {
    expect(geminiArgv("/opt/agent", "m")).toEqual(["/opt/agent/bin/bun", "--no-install", "/opt/agent/gemini-cli/bundle/gemini.js", "--approval-mode", "yolo", "--output-format", "stream-json", "--model", "m", "--skip-trust", "--allowed-mcp-server-names", "ssebench"]);
  });

  test("a fix: deltas joined into one message per turn, tools paired by tool_id, MCP test_patch, tokens and turns", () => {
    const entries = convert("fix");
    expect(entries.filter((e) => e.type === "message").map((e) => e.content)).toEqual(FIX_MESSAGES);
    expect(tools(entries)).toEqual(fixSteps("read_file", "replace", "mcp_ssebench_test_patch"));
    const running = entries.find((e) => e.name === "replace" && e.status === "running");
    expect(running?.args).toMatchObject({ file_path: "/src/htmlesc/htmlesc.c" });
    const starts = entries.filter((e) => e.type === "tool" && e.status === "running").map((e) => e.tool_id);
    const ends = entries.filter((e) => e.type === "tool" && e.status !== "running").map((e) => e.tool_id);
    expect(ends).toEqual(starts);
    expect(String(entries.find((e) => e.name === "mcp_ssebench_test_patch" && e.status === "success")?.result)).toStartWith("test_patch result: every check that ran passed.");
    expect(entries.at(-1)).toEqual({ type: "complete", status: "success", turns: 4, duration_ms: 1000, total_tokens: { in: 400, out: 80 }, message: "The patch builds and passes the tests. Done." });
  });

  test("giving up: one turn, no tool, success", () => {
    const entries = convert("give-up");
    expect(tools(entries)).toEqual([]);
    expect(entries.at(-1)).toMatchObject({ type: "complete", status: "success", turns: 1, total_tokens: { in: 100, out: 20 }, message: "I could not find a fix for this vulnerability, so I am giving up." });
  });

  test("a spent budget: the gateway's own message, not gemini's wrapping of it", () => {
    const entries = convert("budget", { code: 1, stopped: false });
    expect(entries.at(-1)).toMatchObject({ type: "complete", status: "error", turns: 0, message: "Budget exhausted: this run spent $0.0000 of its $0.0001 budget; no further model calls are answered" });
  });

  test("tool errors: a failed command is its output; a replace that matches nothing is an error with gemini's message", () => {
    const entries = convert("tool-error");
    expect(tools(entries)).toEqual(toolPairs(["run_shell_command", "success"], ["replace", "error"]));
    expect(entries.find((e) => e.name === "run_shell_command" && e.status === "success")?.result).toBe("cat: missing.c: No such file or directory");
    expect(String(entries.find((e) => e.status === "error")?.error)).toStartWith("Could not find an exact match for 'old_string'");
    expect(entries.at(-1)).toMatchObject({ status: "success", turns: 3 });
  });

  test("the time limit, or an end without a result: timeout, or an error with the exit status; a tool left running gets an error", () => {
    const file = join(dir.path, "cut.dialog.jsonl");
    const dialog = new Dialog(file);
    const stream = new GeminiStream(dialog);
    stream.line(JSON.stringify({ type: "tool_use", tool_name: "run_shell_command", tool_id: "t1", parameters: { command: "make" } }));
    stream.complete({ code: 143, stopped: true }, 5);
    dialog.close();
    const lines = readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Entry);
    expect(lines.map((l) => [l.type, l.status])).toEqual([["tool", "running"], ["tool", "error"], ["complete", "timeout"]]);
    const other = new Dialog(join(dir.path, "none.dialog.jsonl"));
    const quiet = new GeminiStream(other);
    quiet.complete({ code: 41, stopped: false }, 5);
    other.close();
    expect(JSON.parse(readFileSync(join(dir.path, "none.dialog.jsonl"), "utf8"))).toMatchObject({ status: "error", message: "gemini exited with status 41 without a result" });
  });

  test("an API error's text: the answer's message inside gemini's [API Error: …]; other text as it is", () => {
    expect(geminiErrorText('[API Error: {"error":{"code":403,"message":"This key may use model m only","status":"PERMISSION_DENIED"}}]')).toBe("This key may use model m only");
    expect(geminiErrorText("[API Error: not json]")).toBe("not json");
    expect(geminiErrorText("Loop detected, stopping execution")).toBe("Loop detected, stopping execution");
  });
});
