/**
 * A driver's settings: the variables the entrypoint gives the agent (contract/env.ts AgentEnv) and
 * the agent user's own, read here once from the environment the driver was started with. The CLI
 * inherits that environment itself (each driver removes what its CLI must not see).
 */
import { join } from "node:path";
import type { AgentEnv } from "../contract/env.ts";
import { UserError } from "../errors.ts";
import { driverMsg } from "./messages.ts";

type Env = Record<string, string | undefined>;

export interface DriverSettings {
  /** the agent's environment as the entrypoint gave it: what the CLI inherits */
  inherited: Env;
  archive: string | undefined;
  taskFile: string | undefined;
  model: string | undefined;
  /** SSE_SOURCE (unset: the brief's source) */
  source: string | undefined;
  /** SSE_AGENT_DIR: where the agent layer installed the CLI */
  agentDir: string;
  /** TIMEOUT: the agent's time limit, seconds */
  timeoutS: number;
  mcpUrl: string | undefined;
  baseUrl: string | undefined;
  apiKey: string | undefined;
  /** the agent user's HOME */
  home: string;
  /** XDG_CONFIG_HOME, else ~/.config */
  configHome: string;
}

export function readDriverSettings(env: Env): DriverSettings {
  const home = env.HOME || "/tmp";
  return {
    inherited: env,
    archive: env.SSE_ARCHIVE,
    taskFile: env.SSE_TASK_FILE,
    model: env.SSE_MODEL_NAME,
    source: env.SSE_SOURCE || undefined,
    agentDir: env.SSE_AGENT_DIR || "/opt/agent",
    timeoutS: Number(env.TIMEOUT) > 0 ? Number(env.TIMEOUT) : 14400,
    mcpUrl: env.SSE_MCP_URL,
    baseUrl: env.SSE_BASE_URL,
    apiKey: env.SSE_API_KEY,
    home,
    configHome: env.XDG_CONFIG_HOME || join(home, ".config"),
  };
}

/** A variable the driver cannot run without: its value, or the one line that says it is not set. */
export function need(value: string | undefined, name: keyof AgentEnv): string {
  if (!value) throw new UserError(driverMsg.notSet(name));
  return value;
}
