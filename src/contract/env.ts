/**
 * The environment across the seam (docs/container-contract.md §2): what `ssebench run` sets for
 * the entrypoint, and what the entrypoint gives the agent. The entrypoint's own defaults and the
 * variables that exist for tests are in its configuration (src/runtime/config.ts).
 */

/** What `ssebench run` sets for the entrypoint (`docker run -e`, `service create --env`). */
export type RunEnv = {
  /** ARCHIVE_MOUNT */
  SSE_ARCHIVE: string;
  /** 0–4 */
  SSE_DIFFICULTY: string;
  /** the agent's time limit, seconds */
  TIMEOUT: string;
  /** grading's time limit, seconds */
  SSE_GRADING_TIMEOUT: string;
  /** the run's own uids (run/run-uids.ts) */
  SSE_MODEL_UID: string;
  SSE_RUNNER_UID: string;
  /** the model the run serves, when it has one */
  SSE_MODEL_NAME?: string;
  /** exactly these plugins (`--plugin`); unset: the ones enabled in plugins.yaml */
  SSE_PLUGINS?: string;
  /** "1" with SSEBENCH_DEBUG */
  SSE_DEBUG?: string;
  /** a Swarm trial's reference patch secret (SECRETS_DIR/SECRET_PATCH_TARGET) */
  SSE_REFERENCE_PATCH?: string;
};

/** What the entrypoint gives the agent (and the drivers of src/agents/ read). */
export type AgentEnv = {
  SSE_ARCHIVE: string;
  SSE_SOURCE: string;
  /** the task brief (agent.ts TaskBrief) */
  SSE_TASK_FILE: string;
  /** the tool API (HTTP) and its MCP endpoint */
  SSE_TOOL_API: string;
  SSE_MCP_URL: string;
  SSE_DIFFICULTY?: string;
  /** the model's forwarder on loopback, the run's key, the model's name (when the run has a model) */
  SSE_BASE_URL?: string;
  SSE_API_KEY?: string;
  SSE_MODEL_NAME?: string;
  TIMEOUT?: string;
};
