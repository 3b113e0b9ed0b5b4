import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { PI_SETTINGS, PiStream, piArgv, piEnv, piErrorText, piModels, pickPiWire, writePiConfig } from "../../src/agents/pi.ts";
import { tempDir } from "../helpers/cli.ts";
import { convertStream, FIX_MESSAGES, fixSteps, toolPairs, toolSteps } from "./support.ts";

const dir = tempDir("ssebench-pi-stream-");
afterAll(() => dir.cleanup());
const fixtures = join(import.meta.dir, "fixtures", "pi");
const setup = { baseUrl: "http://127.0.0.1:4000/", model: "m", wire: "chat" as const, home: "/home/model" };
const convert = (fixture: string, exit = { code: 0, stopped: false }) => convertStream((d) => new PiStream(d), fixtures, fixture, dir.path, exit);
const BUDGET = "Budget exhausted: this run spent $0.0000 of its $0.0001 budget; no further model calls are answered";

describe("pi driver", () => {
  test("the wire: the model's first that pi speaks (all four), chat when none", () => {
    expect(pickPiWire(["anthropic", "chat"])).toBe("anthropic");
    expect(pickPiWire(["gemini"])).toBe("gemini");
    expect(pickPiWire(["responses"])).toBe("responses");
    expect(pickPiWire([])).toBe("chat");
  });

  test("models.json: one provider on the gateway, each wire's API and base URL, the key read from SSE_API_KEY", () => {
    const provider = (wire: "chat" | "responses" | "anthropic" | "gemini") => (piModels({ ...setup, wire }).providers as Record<string, unknown>).ssebench;
    expect(provider("chat")).toEqual({ baseUrl: "http://127.0.0.1:4000/v1", api: "openai-completions", apiKey: "SSE_API_KEY", models: [{ id: "m" }] });
    expect(provider("responses")).toMatchObject({ baseUrl: "http://127.0.0.1:4000/v1", api: "openai-responses" });
    expect(provider("anthropic")).toMatchObject({ baseUrl: "http://127.0.0.1:4000", api: "anthropic-messages" });
    expect(provider("gemini")).toMatchObject({ baseUrl: "http://127.0.0.1:4000/v1beta", api: "google-generative-ai" });
  });

  test("the configuration is pi's own folder under the home, 0600 files in a 0700 folder, no key in it", () => {
    const home = join(dir.path, "home");
    const config = writePiConfig({ ...setup, home });
    expect(config).toBe(join(home, ".pi", "agent"));
    expect(JSON.parse(readFileSync(join(config, "models.json"), "utf8"))).toEqual(piModels({ ...setup, home }));
    expect(JSON.parse(readFileSync(join(config, "settings.json"), "utf8"))).toEqual(PI_SETTINGS);
    expect(PI_SETTINGS.enableInstallTelemetry).toBe(false);
    for (const f of ["models.json", "settings.json"]) expect(statSync(join(config, f)).mode & 0o777).toBe(0o600);
    expect(statSync(config).mode & 0o777).toBe(0o700);
  });

  test("environment: pi's folder, offline, no telemetry; the image's PI_ variables removed, the agent's kept", () => {
    const env = piEnv({ PATH: "/bin", SSE_API_KEY: "k", SSE_MCP_URL: "u", PI_CODING_AGENT_DIR: "/elsewhere", PI_PACKAGE_DIR: "/x" }, "/home/model/.pi/agent");
    expect(env).toEqual({ PATH: "/bin", SSE_API_KEY: "k", SSE_MCP_URL: "u", PI_CODING_AGENT_DIR: "/home/model/.pi/agent", PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", PI_TELEMETRY: "0" });
  });

  test("argv: pi's cli.js on the Bun of its install, headless JSON, our provider and model, no session, only our extension, nothing discovered", () => {
    expect(piArgv("/opt/agent", "m")).toEqual([
      "/opt/agent/pi/node_modules/@oven/bun-linux-x64/bin/bun",
      "--no-install",
      "/opt/agent/pi/node_modules/@mariozechner/pi-coding-agent/dist/cli.js",
      ...["-p", "--mode", "json", "--provider", "ssebench", "--model", "m", "--no-session"],
      ...["--no-extensions", "-e", "/opt/agent/ssebench-mcp.ts", "--no-skills", "--no-prompt-templates", "--no-themes", "--offline"],
    ]);
  });

  test("a failed call's message: the API's own, without pi's status prefix or the error body around it", () => {
    expect(piErrorText(`400 ${BUDGET}`)).toBe(BUDGET);
    expect(piErrorText(`400 {"type":"error","error":{"type":"invalid_request_error","message":"${BUDGET}"}}`)).toBe(BUDGET);
    expect(piErrorText(`{"error":{"code":400,"message":"${BUDGET}","status":"INVALID_ARGUMENT"}}`)).toBe(BUDGET);
    expect(piErrorText("Connection error.")).toBe("Connection error.");
  });

  for (const wire of ["chat", "anthropic", "gemini", "responses"]) {
    test(`a fix on the ${wire} wire: one message per turn, tools paired by id, test_patch through the extension, tokens with the cache`, () => {
      const entries = convert(`fix-${wire}`);
      expect(entries.filter((e) => e.type === "message").map((e) => e.content)).toEqual(FIX_MESSAGES);
      expect(toolSteps(entries)).toEqual(fixSteps("read", "edit", "mcp__ssebench__test_patch"));
      const starts = entries.filter((e) => e.type === "tool" && e.status === "running").map((e) => e.tool_id);
      expect(entries.filter((e) => e.type === "tool" && e.status !== "running").map((e) => e.tool_id)).toEqual(starts);
      expect(entries.find((e) => e.name === "edit" && e.status === "running")?.args).toMatchObject({ path: "/src/htmlesc/htmlesc.c" });
      expect(String(entries.find((e) => e.name === "mcp__ssebench__test_patch" && e.status === "success")?.result)).toStartWith("test_patch result:");
      expect(entries.at(-1)).toEqual({ type: "complete", status: "success", turns: 4, duration_ms: 1000, total_tokens: { in: 560, out: 80 }, message: "The patch builds and passes the tests. Done." });
    });
  }

  test("giving up: one turn, no tool, success", () => {
    const entries = convert("give-up");
    expect(toolSteps(entries)).toEqual([]);
    expect(entries.at(-1)).toMatchObject({ type: "complete", status: "success", turns: 1, total_tokens: { in: 100, out: 20 }, message: "I could not find a fix for this vulnerability, so I am giving up." });
  });

  test("a spent budget: pi exits 0, but the refused call makes the dialog an error with the gateway's message; no turn", () => {
    const entries = convert("budget");
    expect(entries.at(-1)).toMatchObject({ type: "complete", status: "error", turns: 0, total_tokens: { in: 0, out: 0 }, message: BUDGET });
  });

  test("tool errors: a failed command and an edit that matches nothing are errors with pi's text", () => {
    const entries = convert("tool-error");
    expect(toolSteps(entries)).toEqual(toolPairs(["bash", "error"], ["edit", "error"]));
    expect(entries.find((e) => e.name === "bash" && e.status === "error")?.error).toBe("cat: missing.c: No such file or directory\n\n\nCommand exited with code 1");
    expect(String(entries.find((e) => e.name === "edit" && e.status === "error")?.error)).toStartWith("Could not find the exact text in htmlesc.c.");
    expect(entries.at(-1)).toMatchObject({ status: "success", turns: 3, message: "I give up." });
  });

  test("an end without agent_end, a tool left running, or the time limit: error or timeout", () => {
    const entries = convertStream((d) => {
      const s = new PiStream(d);
      return { line: (l: string) => (l.includes('"agent_end"') ? undefined : s.line(l)), complete: (e, ms) => s.complete(e, ms) };
    }, fixtures, "fix-chat", dir.path, { code: 1, stopped: false });
    expect(entries.at(-1)).toMatchObject({ status: "error", turns: 4, message: "pi exited with status 1 without ending its session" });
    const cut = convertStream((d) => {
      const s = new PiStream(d);
      let toolEnded = false;
      return { line: (l: string) => (toolEnded || (l.includes("tool_execution_end") && (toolEnded = true)) ? undefined : s.line(l)), complete: (e, ms) => s.complete(e, ms) };
    }, fixtures, "fix-chat", dir.path, { code: 143, stopped: true });
    expect(toolSteps(cut)).toEqual(toolPairs(["read", "error"]));
    expect(cut.at(-1)).toMatchObject({ status: "timeout", turns: 1, message: "The agent's time limit was reached" });
  });
});
