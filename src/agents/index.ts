/**
 * `ssebench-entrypoint agent-driver <name>`: the drivers of real agent CLIs, started by the
 * reserved agent command `["ssebench:agent", "<name>"]` and run as the agent user. A driver writes
 * the CLI's configuration, sends the task prompt (prompt.ts), runs the CLI and converts its event
 * stream into $SSE_ARCHIVE/dialog.jsonl, keeping the raw stream beside it (`<name>.stream.jsonl`).
 * Its exit status is the CLI's.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describeCause, ExitCode, UserError } from "../errors.ts";
import { ClaudeStream, claudeArgv, claudeEnv } from "./claude-code.ts";
import { ClineStream, clineArgv, clineEnv, pickClineWire, splitPrompt, writeClineSettings } from "./cline.ts";
import { runCli } from "./cli-process.ts";
import { type DriverSettings, need, readDriverSettings } from "./config.ts";
import { CodexStream, codexLaunch } from "./codex.ts";
import { Dialog } from "./dialog.ts";
import { GeminiStream, geminiArgv, geminiEnv, writeGeminiSettings } from "./gemini-cli.ts";
import { driverMsg } from "./messages.ts";
import { gatewayWires, lockConfigDir, type OpencodeFork, OpencodeStream, opencodeArgv, opencodeEnv, pickWire } from "./opencode.ts";
import { DIALOG_FILE, type TaskBrief } from "../contract/agent.ts";
import { pickPiWire, PiStream, piArgv, piEnv, writePiConfig } from "./pi.ts";
import { taskPrompt } from "./prompt.ts";
import { pickQwenWire, qwenArgv, qwenEnv, qwenStream, writeQwenSettings } from "./qwen-code.ts";

export const DRIVERS = ["claude-code", "codex", "opencode", "gemini-cli", "qwen-code", "pi", "cline", "kilo"] as const;

/** What a driver runs: the CLI's argv and environment, and the converter of its stdout. */
interface Launch {
  argv: string[];
  env: Record<string, string>;
  /** what the CLI reads on stdin (default: the prompt) */
  stdin?: string;
  stream: { line: (raw: string) => void; complete: (exit: { code: number; stopped: boolean }, durationMs: number) => void };
}
interface LaunchContext {
  settings: DriverSettings;
  model: string;
  prompt: string;
  dialog: Dialog;
}

const LAUNCHERS: Record<(typeof DRIVERS)[number], (c: LaunchContext) => Promise<Launch>> = {
  "claude-code": async (c) => ({
    argv: claudeArgv(join(c.settings.agentDir, "bin", "claude"), c.model, need(c.settings.mcpUrl, "SSE_MCP_URL")),
    env: claudeEnv(c.settings),
    stream: new ClaudeStream(c.dialog),
  }),
  codex: async (c) => ({ ...codexLaunch({ ...c.settings, model: c.model, mcpUrl: need(c.settings.mcpUrl, "SSE_MCP_URL") }), stream: new CodexStream(c.dialog) }),
  opencode: (c) => opencodeLaunch(c, "opencode"),
  kilo: (c) => opencodeLaunch(c, "kilo"),
  "gemini-cli": async (c) => {
    const s = c.settings;
    const setup = { baseUrl: need(s.baseUrl, "SSE_BASE_URL"), key: need(s.apiKey, "SSE_API_KEY"), model: c.model, mcpUrl: need(s.mcpUrl, "SSE_MCP_URL"), timeoutS: s.timeoutS, home: s.home };
    writeGeminiSettings(setup);
    return { argv: geminiArgv(s.agentDir, c.model), env: geminiEnv(s.inherited, setup), stream: new GeminiStream(c.dialog) };
  },
  "qwen-code": async (c) => {
    const s = c.settings;
    const [baseUrl, key] = [need(s.baseUrl, "SSE_BASE_URL"), need(s.apiKey, "SSE_API_KEY")];
    const wire = pickQwenWire(await gatewayWires(baseUrl, key, c.model));
    const setup = { baseUrl, key, model: c.model, mcpUrl: need(s.mcpUrl, "SSE_MCP_URL"), wire, timeoutS: s.timeoutS, home: s.home };
    return { argv: qwenArgv(s.agentDir, c.model, wire), env: qwenEnv(s.inherited, setup, writeQwenSettings(setup)), stream: qwenStream(c.dialog) };
  },
  pi: async (c) => {
    const s = c.settings;
    const [baseUrl, key] = [need(s.baseUrl, "SSE_BASE_URL"), need(s.apiKey, "SSE_API_KEY")];
    need(s.mcpUrl, "SSE_MCP_URL");
    const wire = pickPiWire(await gatewayWires(baseUrl, key, c.model));
    const configDir = writePiConfig({ baseUrl, model: c.model, wire, home: s.home });
    return { argv: piArgv(s.agentDir, c.model), env: piEnv(s.inherited, configDir), stream: new PiStream(c.dialog) };
  },
  cline: async (c) => {
    const s = c.settings;
    const [baseUrl, key] = [need(s.baseUrl, "SSE_BASE_URL"), need(s.apiKey, "SSE_API_KEY")];
    const wire = pickClineWire(await gatewayWires(baseUrl, key, c.model));
    writeClineSettings({ baseUrl, key, model: c.model, mcpUrl: need(s.mcpUrl, "SSE_MCP_URL"), wire, timeoutS: s.timeoutS, home: s.home });
    const { argument, stdin } = splitPrompt(c.prompt);
    return { argv: clineArgv(s.agentDir, c.model, wire, argument), env: clineEnv(s.inherited, s.home), stdin, stream: new ClineStream(c.dialog) };
  },
};

/** opencode and Kilo's CLI, its fork: the model's first wire they speak, the whole configuration inline. */
async function opencodeLaunch(c: LaunchContext, fork: OpencodeFork): Promise<Launch> {
  const s = c.settings;
  const [baseUrl, key] = [need(s.baseUrl, "SSE_BASE_URL"), need(s.apiKey, "SSE_API_KEY")];
  const wire = pickWire(await gatewayWires(baseUrl, key, c.model));
  const setup = { baseUrl, key, model: c.model, mcpUrl: need(s.mcpUrl, "SSE_MCP_URL"), wire, timeoutS: s.timeoutS };
  lockConfigDir(s, fork);
  const bin = fork === "kilo" ? join(s.agentDir, "kilo", "bin", "kilo") : join(s.agentDir, "bin", "opencode");
  return { argv: opencodeArgv(bin, c.model, fork), env: opencodeEnv(s.inherited, setup, fork), stream: new OpencodeStream(c.dialog, fork) };
}

function readBrief(file: string): TaskBrief {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (cause) {
    throw new UserError(driverMsg.badTaskFile(file, describeCause(cause)));
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) throw new UserError(driverMsg.badTaskFile(file, "not a JSON object"));
  return data as TaskBrief;
}

export async function runDriver(args: string[], env: Record<string, string | undefined>): Promise<number> {
  const [name = "", ...extra] = args;
  if (!(DRIVERS as readonly string[]).includes(name)) throw new UserError(driverMsg.unknownDriver(name, DRIVERS), ExitCode.usage);
  if (extra.length > 0) throw new UserError(driverMsg.extraArgs(extra), ExitCode.usage);
  const settings = readDriverSettings(env);
  const archive = need(settings.archive, "SSE_ARCHIVE");
  const brief = readBrief(need(settings.taskFile, "SSE_TASK_FILE"));
  const model = need(settings.model, "SSE_MODEL_NAME");
  const cwd = settings.source ?? brief.source;
  const prompt = taskPrompt(brief);
  const dialog = new Dialog(join(archive, DIALOG_FILE));
  dialog.write({ type: "init", data: { task: brief.id, cwd, model, agent: name } });
  dialog.write({ type: "prompt", content: prompt });
  const { argv, env: cliEnv, stdin, stream } = await LAUNCHERS[name as (typeof DRIVERS)[number]]({ settings, model, prompt, dialog });
  const exit = await runCli({
    argv,
    env: cliEnv,
    cwd,
    stdin: stdin ?? prompt,
    rawFile: join(archive, `${name}.stream.jsonl`),
    onLine: (line) => stream.line(line),
  });
  stream.complete(exit, dialog.elapsedMs());
  dialog.close();
  return exit.stopped ? 124 : exit.code;
}
