/**
 * The agent phase of sidecar mode (docs/container-contract.md §13): the agent runs in the sidecar,
 * so this phase waits for its supervisor, sends it what the agent gets (its variables, the task
 * brief, the ports to relay, the time limit) and waits for its report. The time limit is enforced
 * twice: by the supervisor (TERM, grace, KILL of the agent's group) and here, a little later,
 * whatever the supervisor does; the end of the phase (sandbox/agent-phase.ts) then kills every
 * process of the agent's user, which in the shared process namespace includes the whole sidecar.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SIDECAR_SOCKETS, type SidecarStart } from "../../contract/sidecar.ts";
import { log } from "../log.ts";
import { LLM_VARS } from "../privilege/child-env.ts";
import type { Outcome } from "../privilege/processes.ts";
import { agentModelTarget } from "../relay/model-access.ts";
import { type AgentRun, settleAgent } from "../sandbox/agent-phase.ts";
import type { Sandbox } from "../sandbox/set-up.ts";
import type { SidecarLink, Supervisor } from "./link.ts";
import { sidecarMsg } from "./messages.ts";

/** How much later than the supervisor's own TERM, grace and KILL this side stops waiting for its report. */
const REPORT_MARGIN_MS = 5000;

export async function sidecarAgentPhase(s: Sandbox, link: SidecarLink): Promise<AgentRun> {
  const { cfg, record, tools } = s;
  record.phase = "the agent phase";
  const socket = join(cfg.sidecar.dir, SIDECAR_SOCKETS.control);
  log("INFO", "Waiting for the sidecar", { socket, wait_s: cfg.sidecar.waitMs / 1000 });
  const supervisor = await record.gate(link.connected(cfg.sidecar.waitMs, sidecarMsg.noConnection(socket, cfg.sidecar.waitMs / 1000)));
  if (typeof supervisor === "string") return settleAgent(s, { exitCode: null, timedOut: false, durationMs: 0, startError: supervisor });
  const startedAt = performance.now();
  supervisor.send(startMessage(s));
  record.agentStartedAt = startedAt;
  log("INFO", "Agent started in the sidecar", { timeout_s: cfg.agentTimeoutMs / 1000 });
  tools.warm();
  const outcome = await record.gate(outcomeOf(supervisor, startedAt, cfg.agentTimeoutMs + cfg.graceMs + REPORT_MARGIN_MS));
  await record.gate(tools.endPhase());
  return settleAgent(s, outcome);
}

/** What the agent gets from this side: the variables a sandbox agent gets, less the image's own. */
function startMessage(s: Sandbox): SidecarStart {
  const { cfg } = s;
  const env: Record<string, string> = { SSE_ARCHIVE: cfg.archive, SSE_SOURCE: s.source };
  for (const name of ["SSE_DIFFICULTY", "TIMEOUT", ...LLM_VARS]) {
    const value = s.env[name];
    if (value !== undefined) env[name] = value;
  }
  return {
    type: "start",
    env,
    source: s.source,
    brief: readFileSync(s.taskFile, "utf8"),
    tool_port: s.port,
    model_port: agentModelTarget() ? cfg.modelAccess.port : null,
    timeout_ms: cfg.agentTimeoutMs,
    grace_ms: cfg.graceMs,
  };
}

/**
 * The supervisor's reports until the agent's end. A connection that closes once the agent started
 * is the agent's doing (its supervisor runs as its user): an exit, graded like any other.
 */
async function outcomeOf(supervisor: Supervisor, startedAt: number, limitMs: number): Promise<Outcome> {
  let timer: Timer | undefined;
  const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), limitMs)));
  let started = false;
  try {
    for (;;) {
      const report = await Promise.race([supervisor.next(), late]);
      const durationMs = performance.now() - startedAt;
      if (report === "late") {
        log("WARN", "The sidecar did not report the agent's end in time");
        return { exitCode: 124, timedOut: true, durationMs };
      }
      if (report === undefined) {
        if (!started) return { exitCode: null, timedOut: false, durationMs, startError: sidecarMsg.closedEarly() };
        log("WARN", "The sidecar's supervisor went away without the agent's exit status");
        return { exitCode: 1, timedOut: false, durationMs };
      }
      if (report.type === "started") started = true;
      else if (report.type === "start_error") return { exitCode: null, timedOut: false, durationMs, startError: report.error };
      else return { exitCode: report.code, timedOut: report.timed_out, durationMs };
    }
  } finally {
    clearTimeout(timer);
  }
}
