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
import { runCli } from "./cli-process.ts";
import { CodexStream, codexLaunch } from "./codex.ts";
import { Dialog } from "./dialog.ts";
import { driverMsg } from "./messages.ts";
import { gatewayWires, lockConfigDir, OpencodeStream, opencodeArgv, opencodeEnv, pickWire } from "./opencode.ts";
import { DIALOG_FILE, type TaskBrief } from "../contract/agent.ts";
import type { AgentEnv } from "../contract/env.ts";
import { taskPrompt } from "./prompt.ts";

export const DRIVERS = ["claude-code", "codex", "opencode"] as const;

/** What a driver runs: the CLI's argv and environment, and the converter of its stdout. */
interface Launch {
  argv: string[];
  env: Record<string, string>;
  stream: { line: (raw: string) => void; complete: (exit: { code: number; stopped: boolean }, durationMs: number) => void };
}
interface LaunchContext {
  env: Record<string, string | undefined>;
  model: string;
  agentDir: string;
  timeoutS: number;
  dialog: Dialog;
}

const LAUNCHERS: Record<(typeof DRIVERS)[number], (c: LaunchContext) => Promise<Launch>> = {
  "claude-code": async (c) => ({
    argv: claudeArgv(join(c.agentDir, "bin", "claude"), c.model, need(c.env, "SSE_MCP_URL")),
    env: claudeEnv(c.env, c.timeoutS),
    stream: new ClaudeStream(c.dialog),
  }),
  codex: async (c) => ({ ...codexLaunch({ ...c, mcpUrl: need(c.env, "SSE_MCP_URL") }), stream: new CodexStream(c.dialog) }),
  opencode: async (c) => {
    const [baseUrl, key] = [need(c.env, "SSE_BASE_URL"), need(c.env, "SSE_API_KEY")];
    const wire = pickWire(await gatewayWires(baseUrl, key, c.model));
    const setup = { baseUrl, key, model: c.model, mcpUrl: need(c.env, "SSE_MCP_URL"), wire, timeoutS: c.timeoutS };
    lockConfigDir(c.env);
    return { argv: opencodeArgv(join(c.agentDir, "bin", "opencode"), c.model), env: opencodeEnv(c.env, setup), stream: new OpencodeStream(c.dialog) };
  },
};

const need = (env: Record<string, string | undefined>, name: keyof AgentEnv): string => {
  const v = env[name];
  if (!v) throw new UserError(driverMsg.notSet(name));
  return v;
};

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
  const archive = need(env, "SSE_ARCHIVE");
  const brief = readBrief(need(env, "SSE_TASK_FILE"));
  const model = need(env, "SSE_MODEL_NAME");
  const cwd = env.SSE_SOURCE || brief.source;
  const agentDir = env.SSE_AGENT_DIR || "/opt/agent";
  const timeoutS = Number(env.TIMEOUT) > 0 ? Number(env.TIMEOUT) : 14400;
  const prompt = taskPrompt(brief);
  const dialog = new Dialog(join(archive, DIALOG_FILE));
  dialog.write({ type: "init", data: { task: brief.id, cwd, model, agent: name } });
  dialog.write({ type: "prompt", content: prompt });
  const { argv, env: cliEnv, stream } = await LAUNCHERS[name as (typeof DRIVERS)[number]]({ env, model, agentDir, timeoutS, dialog });
  const exit = await runCli({
    argv,
    env: cliEnv,
    cwd,
    stdin: prompt,
    rawFile: join(archive, `${name}.stream.jsonl`),
    onLine: (line) => stream.line(line),
  });
  stream.complete(exit, dialog.elapsedMs());
  dialog.close();
  return exit.stopped ? 124 : exit.code;
}
