import { afterAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { readDriverSettings } from "../../src/agents/config.ts";
import { Dialog } from "../../src/agents/dialog.ts";
import { lockConfigDir, OpencodeStream, opencodeArgv, opencodeConfig, opencodeEnv, pickWire } from "../../src/agents/opencode.ts";
import { tempDir } from "../helpers/cli.ts";
import { convertStream, type Entry, FIX_MESSAGES, fixSteps, toolSteps } from "./support.ts";

const dir = tempDir("ssebench-opencode-stream-");
afterAll(() => dir.cleanup());
const fixtures = join(import.meta.dir, "fixtures", "opencode");
const setup = { baseUrl: "http://127.0.0.1:4000", key: "sk-1", model: "m", mcpUrl: "http://127.0.0.1:3000/mcp", wire: "chat" as const, timeoutS: 600 };

/** The dialog entries (without seq and ts) that a captured stream converts into. */
const convert = (fixture: string, exit = { code: 0, stopped: false }) => convertStream((d) => new OpencodeStream(d), fixtures, fixture, dir.path, exit);
const tools = toolSteps;

describe("opencode driver", () => {
  test("wire: the first of the model's wires that opencode speaks, chat when none", () => {
    expect(pickWire(["anthropic", "chat", "responses"])).toBe("anthropic");
    expect(pickWire(["responses", "chat"])).toBe("chat");
    expect(pickWire(["chat", "anthropic"])).toBe("chat");
    expect(pickWire([])).toBe("chat");
  });

  test("config: the gateway per wire, every model slot and only our provider, MCP timeout = the agent's limit, no web tools, updates or sharing", () => {
    const chat = opencodeConfig(setup);
    expect(chat).toMatchObject({ model: "ssebench/m", small_model: "ssebench/m", enabled_providers: ["ssebench"], autoupdate: false, share: "disabled", snapshot: false });
    expect(chat.provider).toEqual({ ssebench: { npm: "@ai-sdk/openai-compatible", name: "ssebench gateway", options: { baseURL: "http://127.0.0.1:4000/v1", apiKey: "sk-1" }, models: { m: { name: "m" } } } });
    expect(chat.mcp).toEqual({ ssebench: { type: "remote", url: "http://127.0.0.1:3000/mcp", enabled: true, timeout: 600_000 } });
    expect(chat.permission).toEqual({ "*": "allow", webfetch: "deny", websearch: "deny" });
    expect(opencodeConfig({ ...setup, wire: "anthropic", baseUrl: "http://127.0.0.1:4000/" }).provider).toMatchObject({ ssebench: { npm: "@ai-sdk/anthropic", options: { baseURL: "http://127.0.0.1:4000/v1" } } });
  });

  test("environment: the inline config, the switches off, no other config or provider key", () => {
    const env = opencodeEnv({ PATH: "/bin", OPENCODE_CONFIG: "/x.json", OPENAI_API_KEY: "leak", ANTHROPIC_API_KEY: "leak" }, setup);
    expect(JSON.parse(env.OPENCODE_CONFIG_CONTENT as string)).toEqual(opencodeConfig(setup));
    for (const k of ["AUTOUPDATE", "MODELS_FETCH", "DEFAULT_PLUGINS", "LSP_DOWNLOAD", "SHARE", "PROJECT_CONFIG"]) expect(env[`OPENCODE_DISABLE_${k}`]).toBe("1");
    expect(env.PATH).toBe("/bin");
    for (const k of ["OPENCODE_CONFIG", "OPENAI_API_KEY", "ANTHROPIC_API_KEY"]) expect(env[k]).toBeUndefined();
  });

  test("the global config folder is made empty and read-only (opencode then skips its background npm install there)", () => {
    const home = join(dir.path, "home");
    const made = lockConfigDir(readDriverSettings({ HOME: home }));
    expect(made).toBe(join(home, ".config", "opencode"));
    expect(statSync(made).mode & 0o777).toBe(0o555);
    expect(readdirSync(made)).toEqual([]);
    expect(lockConfigDir(readDriverSettings({ HOME: home, XDG_CONFIG_HOME: join(dir.path, "xdg") }))).toBe(join(dir.path, "xdg", "opencode"));
  });

  test("argv: run with JSON events, the run's model under our provider, warnings to stderr", () => {
    expect(opencodeArgv("/opt/agent/bin/opencode", "m")).toEqual(["/opt/agent/bin/opencode", "run", "--format", "json", "--thinking", "--print-logs", "--log-level", "WARN", "--model", "ssebench/m"]);
  });

  test("kilo, opencode's fork: the same configuration under KILO_ names, its provider list off, its own uploads and telemetry off, --auto and --pure", () => {
    const env = opencodeEnv({ PATH: "/bin", KILO_CONFIG: "/x.json", KILO_CONFIG_DIR: "/y", OPENCODE_CONFIG_CONTENT: "{}" }, setup, "kilo");
    expect(JSON.parse(env.KILO_CONFIG_CONTENT as string)).toEqual({ ...opencodeConfig(setup), disabled_providers: ["kilo"] });
    for (const k of ["AUTOUPDATE", "MODELS_FETCH", "DEFAULT_PLUGINS", "LSP_DOWNLOAD", "SHARE", "PROJECT_CONFIG", "SESSION_INGEST", "CODEBASE_INDEXING", "PRESENCE"]) expect(env[`KILO_DISABLE_${k}`]).toBe("1");
    expect(env.KILO_TELEMETRY_LEVEL).toBe("off");
    for (const k of ["KILO_CONFIG", "KILO_CONFIG_DIR"]) expect(env[k]).toBeUndefined();
    expect(Object.keys(env).filter((k) => k.startsWith("OPENCODE_DISABLE"))).toEqual([]);
    expect(opencodeArgv("/opt/agent/kilo/bin/kilo", "m", "kilo")).toEqual(["/opt/agent/kilo/bin/kilo", "run", "--format", "json", "--thinking", "--auto", "--pure", "--print-logs", "--log-level", "WARN", "--model", "ssebench/m"]);
    expect(lockConfigDir(readDriverSettings({ HOME: join(dir.path, "kilo-home") }), "kilo")).toBe(join(dir.path, "kilo-home", ".config", "kilo"));
  });

  for (const wire of ["anthropic", "chat"]) {
    test(`a captured fix (${wire} wire) → messages, read/edit/test_patch pairs, complete with 4 turns and tokens`, () => {
      const entries = convert(`fix-${wire}`);
      expect(entries.filter((e) => e.type === "message").map((e) => e.content)).toEqual(FIX_MESSAGES);
      expect(tools(entries)).toEqual(fixSteps("read", "edit", "ssebench_test_patch"));
      const read = entries.filter((e) => e.name === "read");
      expect(read[0]?.args).toEqual({ filePath: "/src/htmlesc/htmlesc.c" });
      expect(read[0]?.tool_id).toBe(read[1]?.tool_id as string);
      expect(String(read[1]?.result)).toContain("html_escape");
      expect(String(entries.find((e) => e.name === "ssebench_test_patch" && e.status === "success")?.result)).toContain("test_patch result: every check that ran passed.");
      expect(entries.at(-1)).toEqual({ type: "complete", status: "success", turns: 4, duration_ms: 1000, total_tokens: { in: 400, out: 80 }, message: "The patch builds and passes the tests. Done." });
    });
  }

  test("kilo's captured streams (its events are opencode's) → the same dialog: fixes on both wires, a give-up, a refused call", () => {
    const kilo = (fixture: string, exit = { code: 0, stopped: false }) => convertStream((d) => new OpencodeStream(d, "kilo"), join(import.meta.dir, "fixtures", "kilo"), fixture, dir.path, exit);
    for (const wire of ["anthropic", "chat"]) {
      const entries = kilo(`fix-${wire}`);
      expect(entries.filter((e) => e.type === "message").map((e) => e.content)).toEqual(FIX_MESSAGES);
      expect(tools(entries)).toEqual(fixSteps("read", "edit", "ssebench_test_patch"));
      expect(entries.at(-1)).toEqual({ type: "complete", status: "success", turns: 4, duration_ms: 1000, total_tokens: { in: 400, out: 80 }, message: "The patch builds and passes the tests. Done." });
    }
    expect(kilo("give-up").at(-1)).toMatchObject({ status: "success", turns: 1, total_tokens: { in: 100, out: 20 } });
    expect(kilo("budget", { code: 1, stopped: false }).at(-1)).toMatchObject({ status: "error", turns: 0, message: expect.stringMatching(/^APIError: Budget exhausted: /) });
    const file = join(dir.path, "kilo-empty.jsonl");
    const dialog = new Dialog(file);
    new OpencodeStream(dialog, "kilo").complete({ code: 2, stopped: false }, 5);
    dialog.close();
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ status: "error", message: "kilo exited with status 2" });
  });

  test("a captured give-up → one message, no tools, one turn", () => {
    const entries = convert("give-up");
    expect(entries).toEqual([
      { type: "message", role: "assistant", content: "I could not find a fix for this vulnerability, so I am giving up." },
      { type: "complete", status: "success", turns: 1, duration_ms: 1000, total_tokens: { in: 100, out: 20 }, message: "I could not find a fix for this vulnerability, so I am giving up." },
    ]);
  });

  test("a captured budget refusal (error event, exit 1) → complete with status error and the gateway's message", () => {
    expect(convert("budget", { code: 1, stopped: false })).toEqual([
      { type: "complete", status: "error", turns: 0, duration_ms: 1000, total_tokens: { in: 0, out: 0 }, message: "APIError: Budget exhausted: this run spent $0.0006 of its $0.00 budget; no further model calls are answered" },
    ]);
  });

  test("a captured failed edit → the tool pair ends in error with opencode's message", () => {
    const edit = convert("tool-error").filter((e) => e.name === "edit");
    expect(edit.map((e) => e.status)).toEqual(["running", "error"]);
    expect(edit[1]?.error).toBe("Could not find oldString in the file. It must match exactly, including whitespace, indentation, and line endings.");
  });

  test("no events: exit status in the message; a stop is a timeout", () => {
    const file = join(dir.path, "empty.jsonl");
    const dialog = new Dialog(file);
    new OpencodeStream(dialog).complete({ code: 2, stopped: false }, 5);
    dialog.close();
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ type: "complete", status: "error", turns: 0, message: "opencode exited with status 2" });
    const file2 = join(dir.path, "stopped.jsonl");
    const d2 = new Dialog(file2);
    const s2 = new OpencodeStream(d2);
    s2.line("not json");
    s2.complete({ code: 143, stopped: true }, 5);
    d2.close();
    expect(JSON.parse(readFileSync(file2, "utf8"))).toMatchObject({ type: "complete", status: "timeout", message: "The agent's time limit was reached" });
  });
});
