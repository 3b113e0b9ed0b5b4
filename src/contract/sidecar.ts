/**
 * Sidecar mode (docs/container-contract.md §13): the task's container runs the entrypoint (tool
 * API, model forwarder, grading) and the agent runs in a container of its own image beside it.
 * They share the source tree (a volume at the same path), the archive, the task container's
 * process namespace, and a folder of Unix sockets where the task's entrypoint listens; in the
 * sidecar, the same binary (mounted read-only at ENTRYPOINT) runs `sidecar-agent`: it relays
 * 127.0.0.1:3000 and :4000 to those sockets, runs the agent as the run's own uid and reports
 * how it ended. Both binaries take the names and the messages of the control socket from here.
 */

/** The socket folder in both containers (SSE_SIDECAR_DIR); read-only in the sidecar. */
export const SIDECAR_DIR = "/run/ssebench-sidecar";

/** The sockets the task's entrypoint listens on in SIDECAR_DIR; control.sock is made last. */
export const SIDECAR_SOCKETS = {
  /** the start message down, the agent's start and end up (one JSON object a line) */
  control: "control.sock",
  /** the agent's output, into the task's bounded agent.log */
  log: "log.sock",
  /** the tool API (relayed to its loopback port in the task's container) */
  tool: "tool.sock",
  /** the run's model (relayed to the gateway's socket); absent when the run has none */
  model: "model.sock",
} as const;

/** The entrypoint's command in the sidecar: `ssebench-entrypoint sidecar-agent [--] <agent argv…>`. */
export const SIDECAR_AGENT_COMMAND = "sidecar-agent";

/** The task entrypoint's mode for a run with a sidecar (`--mode sidecar`, no agent argv). */
export const SIDECAR_MODE = "sidecar";

/** What the task's entrypoint sends the sidecar's supervisor once it connects. */
export interface SidecarStart {
  type: "start";
  /** the agent's SSE_ variables and TIMEOUT (the supervisor adds the loopback URLs and the brief's path) */
  env: Record<string, string>;
  /** the tree to fix, also the agent's working folder */
  source: string;
  /** the task brief's JSON text (contract/agent.ts TaskBrief), written to SSE_TASK_FILE in the sidecar */
  brief: string;
  /** the loopback ports to relay in the sidecar (0: any free one, for tests on one host) */
  tool_port: number;
  /** null: the run has no model */
  model_port: number | null;
  /** the agent's time limit and the grace between TERM and KILL of its process group */
  timeout_ms: number;
  grace_ms: number;
}

/** What the supervisor reports: the agent started, then how it ended. */
export type SidecarReport =
  | { type: "started" }
  | { type: "exit"; code: number; timed_out: boolean }
  | { type: "start_error"; error: string };

/** One line of the control socket; undefined for anything that is not one of its messages. */
export function parseSidecarLine<T extends { type: string }>(line: string, types: readonly T["type"][]): T | undefined {
  try {
    const doc = JSON.parse(line) as unknown;
    if (typeof doc !== "object" || doc === null || Array.isArray(doc)) return undefined;
    const type = (doc as { type?: unknown }).type;
    return typeof type === "string" && (types as readonly string[]).includes(type) ? (doc as T) : undefined;
  } catch {
    return undefined;
  }
}
