/**
 * The agent phase (docs/container-contract.md §5 steps 4–7): its hooks around the agent's command,
 * run as the agent user with its own environment; then its end: every process of the agent's user
 * and of the runner (the tool API's checks) stopped, the archive taken back, what the agent left in
 * the shared folders removed.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AGENT_DRIVER, REFERENCE_AGENT } from "../../contract/agent.ts";
import type { AgentEnv } from "../../contract/env.ts";
import { log } from "../log.ts";
import { agentExtraNames, allowedInherited, childEnv, LLM_VARS } from "../privilege/child-env.ts";
import { clearLeftovers, returnArchive } from "../privilege/lockdown.ts";
import { type Outcome, start } from "../privilege/processes.ts";
import { killUserProcesses } from "../privilege/user-processes.ts";
import type { Sandbox } from "./set-up.ts";

export interface AgentRun {
  /** the agent's status, the entrypoint's own exit status: 124 when it timed out */
  status: number;
  /** why the agent's command could not start (then nothing is graded) */
  startFailure: string | undefined;
}

export interface AgentPhaseEnd {
  /** processes of the agent's user no SIGKILL stopped */
  survivors: number[];
  /** processes of the runner (the tool API's checks) no SIGKILL stopped */
  runnerLeft: number[];
}

export async function agentPhase(s: Sandbox, agentArgv: string[]): Promise<AgentRun> {
  const { cfg, record, pluginRunner: plugins, tools, model } = s;
  record.phase = "the agent phase";
  await record.gate(plugins.runBlocking("before-agent"));
  plugins.startOn("on-agent");
  const { argv, stdin } = agentCommand(agentArgv, cfg.referencePatch);
  log("INFO", "Agent command", { argv: JSON.stringify(agentArgv), timeout_s: cfg.agentTimeoutMs / 1000 });
  const agent = start({ argv, cwd: s.source, env: agentEnv(s), user: model, log: join(cfg.results, "agent.log"), stdin }, cfg.agentTimeoutMs, cfg.graceMs);
  record.agentStartedAt = agent.startedAt;
  tools.warm();
  const outcome = await record.gate(agent.done);
  await record.gate(tools.endPhase());
  return settleAgent(s, outcome);
}

/** The agent's outcome in the run record, and the status the entrypoint exits with. */
export function settleAgent({ record }: Sandbox, outcome: Outcome): AgentRun {
  record.runtime.agent_duration = Math.round(outcome.durationMs / 1000);
  record.runtime.agent_timeout = outcome.timedOut;
  if (outcome.timedOut) log("WARN", "Agent execution timed out");
  let startFailure: string | undefined;
  if (outcome.exitCode === null) {
    startFailure = `Failed to start agent: ${outcome.startError}`;
    log("ERROR", "Failed to start agent", { err: outcome.startError });
  }
  const status = outcome.timedOut ? 124 : (outcome.exitCode ?? 1);
  record.runtime.agent_exit_code = outcome.exitCode === null ? null : status;
  log("INFO", "Agent finished", { status, seconds: record.runtime.agent_duration });
  return { status, startFailure };
}

/** The agent's environment: the SSE_ variables it is given, its layer's own (SSE_AGENT_ENV), no others. */
function agentEnv(s: Sandbox): Record<string, string> {
  const agentExtras = agentExtraNames(s.cfg.agentEnv);
  return childEnv(allowedInherited(s.env, s.prepared.env, agentExtras), s.model, ["SSE_DIFFICULTY", ...LLM_VARS, ...agentExtras], {
    SSE_ARCHIVE: s.cfg.archive,
    SSE_SOURCE: s.source,
    SSE_TASK_FILE: s.taskFile,
    SSE_TOOL_API: s.tools.url,
    SSE_MCP_URL: `${s.tools.url}/mcp`,
  } satisfies AgentEnv);
}

/** The reserved agent commands as what they run; any other command as it is. */
function agentCommand(agentArgv: string[], referencePatch: string): { argv: string[]; stdin?: Uint8Array } {
  if (agentArgv.length === 1 && agentArgv[0] === REFERENCE_AGENT) {
    try {
      return { argv: ["git", "apply", "--binary", "--whitespace=nowarn", "-"], stdin: readFileSync(referencePatch) };
    } catch {
      return { argv: ["/bin/sh", "-c", `echo "no reference patch at $0" >&2; exit 1`, referencePatch] };
    }
  }
  // The driver is this binary, run as the agent user like any agent command.
  if (agentArgv.length === 2 && agentArgv[0] === AGENT_DRIVER) return { argv: [process.execPath, "agent-driver", agentArgv[1] as string] };
  return { argv: agentArgv };
}

/** Stops what the agent's user and the tool API's checks left running and takes the archive back. */
export async function endAgentPhase(s: Sandbox): Promise<AgentPhaseEnd> {
  const { cfg, record, pluginRunner: plugins, model } = s;
  await record.gate(plugins.awaitOn("on-agent", true));
  let survivors = await record.gate(killUserProcesses(model));
  await record.gate(plugins.runBlocking("after-agent"));
  survivors = [...survivors, ...(await record.gate(killUserProcesses(model)))];
  const runnerLeft = await record.gate(s.tools.close());
  returnArchive(cfg, s.archiveOwner, model);
  record.archiveReturned = true;
  clearLeftovers(model, [s.source, cfg.archive, model.home]);
  return { survivors, runnerLeft };
}
