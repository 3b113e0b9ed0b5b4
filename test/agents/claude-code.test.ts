import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ClaudeStream, claudeArgv, claudeEnv } from "../../src/agents/claude-code.ts";
import { readDriverSettings } from "../../src/agents/config.ts";
import { Dialog } from "../../src/agents/dialog.ts";
import { tempDir } from "../helpers/cli.ts";

const dir = tempDir("ssebench-claude-stream-");
afterAll(() => dir.cleanup());

const read = (file: string) =>
  readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("claude-code driver", () => {
  test("environment: gateway URL and key, every model slot, tool search off, MCP timeout = the agent's limit, no update or telemetry", () => {
    const env = claudeEnv(readDriverSettings({ SSE_BASE_URL: "http://127.0.0.1:4000", SSE_API_KEY: "sk-1", SSE_MODEL_NAME: "m", ANTHROPIC_API_KEY: "leak", PATH: "/bin", TIMEOUT: "600" }));
    expect(env).toMatchObject({
      ANTHROPIC_BASE_URL: "http://127.0.0.1:4000",
      ANTHROPIC_AUTH_TOKEN: "sk-1",
      ANTHROPIC_MODEL: "m",
      ANTHROPIC_DEFAULT_OPUS_MODEL: "m",
      ANTHROPIC_DEFAULT_SONNET_MODEL: "m",
      ANTHROPIC_DEFAULT_HAIKU_MODEL: "m",
      ANTHROPIC_DEFAULT_FABLE_MODEL: "m",
      CLAUDE_CODE_SUBAGENT_MODEL: "m",
      ENABLE_TOOL_SEARCH: "false",
      MCP_TOOL_TIMEOUT: "600000",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      PATH: "/bin",
    });
    expect(env.ANTHROPIC_API_KEY).toBeUndefined();
  });

  test("argv: headless stream-json, the ssebench MCP server only, no web tools, max turns", () => {
    const argv = claudeArgv("/opt/agent/bin/claude", "m", "http://127.0.0.1:3000/mcp");
    expect(argv.slice(0, 8)).toEqual(["/opt/agent/bin/claude", "-p", "--verbose", "--output-format", "stream-json", "--dangerously-skip-permissions", "--model", "m"]);
    expect(argv).toContain("--strict-mcp-config");
    expect(JSON.parse(argv[argv.indexOf("--mcp-config") + 1] as string)).toEqual({ mcpServers: { ssebench: { type: "http", url: "http://127.0.0.1:3000/mcp" } } });
    expect(argv.slice(-3)).toEqual(["--disallowedTools", "WebSearch", "WebFetch"]);
    expect(argv[argv.indexOf("--max-turns") + 1]).toBe("500");
  });

  test("stream-json → dialog: messages, thinking, tool start/result pairs, complete with turns and tokens", () => {
    const file = join(dir.path, "dialog.jsonl");
    const dialog = new Dialog(file);
    const stream = new ClaudeStream(dialog);
    const events = [
      { type: "system", subtype: "init", tools: ["Read"] },
      { type: "assistant", message: { content: [{ type: "thinking", thinking: "hmm" }, { type: "text", text: "Reading." }, { type: "tool_use", id: "t1", name: "Read", input: { file_path: "/a" } }], usage: { input_tokens: 10, output_tokens: 2 } } },
      { type: "user", message: { content: [{ type: "tool_result", tool_use_id: "t1", content: [{ type: "text", text: "data" }] }] } },
      { type: "assistant", message: { content: [{ type: "tool_use", id: "t2", name: "Edit", input: {} }] } },
      { type: "user", message: { content: [{ type: "tool_result", tool_use_id: "t2", is_error: true, content: "File has not been read yet" }] } },
      { type: "result", subtype: "success", is_error: false, num_turns: 3, result: "Done", usage: { input_tokens: 30, output_tokens: 6, cache_read_input_tokens: 4 } },
    ];
    for (const e of events) stream.line(JSON.stringify(e));
    stream.line("not json");
    stream.complete({ code: 0, stopped: false }, 1234);
    dialog.close();
    const lines = read(file).map(({ ts, ...rest }) => {
      expect(typeof ts).toBe("string");
      return rest;
    });
    expect(lines).toEqual([
      { seq: 0, type: "thinking", content: "hmm" },
      { seq: 1, type: "message", role: "assistant", content: "Reading.", tokens: { in: 10, out: 2 } },
      { seq: 2, type: "tool", tool_id: "t1", name: "Read", status: "running", args: { file_path: "/a" } },
      { seq: 3, type: "tool", tool_id: "t1", name: "Read", status: "success", result: "data" },
      { seq: 4, type: "tool", tool_id: "t2", name: "Edit", status: "running", args: {} },
      { seq: 5, type: "tool", tool_id: "t2", name: "Edit", status: "error", error: "File has not been read yet" },
      { seq: 6, type: "complete", status: "success", turns: 3, duration_ms: 1234, total_tokens: { in: 34, out: 6 }, message: "Done" },
    ]);
  });

  test("no result line: complete says error with the exit status; a stop says timeout; nothing after complete", () => {
    const file = join(dir.path, "d2.jsonl");
    const dialog = new Dialog(file);
    new ClaudeStream(dialog).complete({ code: 1, stopped: false }, 5);
    new ClaudeStream(dialog).complete({ code: 143, stopped: true }, 6);
    dialog.close();
    expect(read(file)).toMatchObject([{ type: "complete", status: "error", turns: 0, message: "claude exited with status 1 without a result" }]);
    const d3 = join(dir.path, "d3.jsonl");
    const timed = new Dialog(d3);
    new ClaudeStream(timed).complete({ code: 143, stopped: true }, 6);
    timed.close();
    expect(read(d3)).toMatchObject([{ type: "complete", status: "timeout", message: "The agent's time limit was reached" }]);
  });
});
