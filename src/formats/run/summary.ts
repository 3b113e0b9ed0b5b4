/**
 * `summary.json`, which `ssebench run` writes beside `result.json` in every run folder (spec
 * runtime-run §4.7), plus this build's resource limits, container state and interruption.
 * `patch_result` and `runtime_result` are result.json's (formats/run/result.ts). Compact JSON, keys in
 * the order below. No I/O here.
 */
import type { PatchResult, RuntimeResult } from "./result.ts";

export type { PatchResult, RuntimeResult };

/** The entrypoint's log of the agent's tool-API calls, in the run folder (one JSON object a line). */
export const TOOL_CALLS = "tool-calls.jsonl";

export interface Resources {
  /** docker run --cpus */
  cpus: number;
  /** docker run --memory (and --memory-swap: no swap beyond it) */
  memory: string;
  /** docker run --pids-limit */
  pids_limit: number;
  /**
   * What the container's writable layer may hold (--disk): `--storage-opt size=` where the engine
   * allows it, else watched while the trial runs (a trial past it is stopped and failed).
   */
  disk: string;
}

/** The run's settings; also added to result.json as `config`. */
export interface RunConfig {
  agent: string;
  /** `none` for agents that make no model calls */
  model: string;
  mode: "sandbox" | "sidecar";
  /** the agent's limit (TIMEOUT), seconds */
  timeout: number;
  /** grading's limit (SSE_GRADING_TIMEOUT), seconds */
  grading_timeout: number;
  /** the whole run's limit (pull, builds, agent, grading, teardown), seconds */
  run_timeout: number;
  difficulty: number;
  /** the tool layer's image tag in sandbox mode */
  tool_layer: string | null;
  egress: "restricted" | "open";
  reference_run: boolean;
  /** plugins installed in the tool layer, plugins.yaml order */
  plugins: string[];
  resources: Resources;
  keep_container: boolean;
}

/** One entry of archive/plugins/results.json as the CLI copies it (`started` dropped). */
export interface PluginResult {
  name: string;
  hook: string;
  status: "ok" | "skipped" | "failed" | "timeout" | "error";
  exit_code: number;
  duration_seconds: number;
  reason?: string;
  error?: string;
}

export interface ContainerRecord {
  /** the agent layer's image ID the container ran */
  image: string | null;
  /** the case image's ID */
  case_image: string | null;
  exit_code: number | null;
  /** the kernel killed the container for exceeding --memory */
  oom_killed: boolean;
  started_at: string | null;
  finished_at: string | null;
}

/** Tokens the run's model calls used, as the gateway metered them. */
export interface TokenCounts {
  /** input tokens not read from or written to the prompt cache */
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
}

/** What the run left on the host's disk (`du`: allocated bytes, symlinks not followed), null if unknown. */
export interface DiskUsage {
  /** the whole run folder, archive included */
  run_dir_bytes: number | null;
  /** archive/ alone */
  archive_bytes: number | null;
  /** the container's writable layer when the trial ended (the engine's SizeRw: apparent sizes), null when the engine did not say */
  container_bytes: number | null;
}

/** Where a result comes from, so results of different datasets, agents or builds never mix. */
export interface Provenance {
  ssebench_version: string;
  /** the catalog's dataset, or the --local folder's name and its dataset.yaml version ("" when none) */
  dataset: { name: string; version: string };
  /** the agent, its version (the agent layer's tag) and the agent layer's image ID the container ran */
  agent: { name: string; version: string; image: string | null };
  /** the job the run was a trial of, else null */
  job: string | null;
  /** the days of the task's vulnerability, from its upstream/sources.yaml (nulls without one) */
  task_dates: TaskDates;
  /** the model the gateway served and the models that answered (gateway/provenance.ts); null without a model */
  model: ModelProvenance | null;
}

/** The served model against the models its upstream's answers named. */
export interface ModelProvenance {
  name: string;
  /** the model file's upstream_model (null for a scripted model) */
  upstream_model: string | null;
  /** the distinct models the answers said they came from (the ledger's answered_model), in order */
  answered: string[];
  /** an answer named another model than upstream_model (a dated snapshot of it is the same model) */
  mismatch: boolean;
}

/** YYYY-MM-DD: `published` the day the vulnerability was published, `fixed` the day of the fix's release. */
export interface TaskDates {
  published: string | null;
  fixed: string | null;
}

/** How the agent ran (src/run/record/agent-record.ts); which agent and version: `provenance.agent`. */
export interface AgentRecord {
  /** the entrypoint's driver (`CMD ["ssebench:agent", "<driver>"]`), null for an agent's own command */
  driver: string | null;
  /** the CLI installed from npm, `package@version`, null for none */
  cli: string | null;
  /** the wire(s) of the answered model calls (the gateway's ledger), comma-separated; null without one */
  wire: string | null;
  /** turns in the closing entry of archive/dialog.jsonl (as the agent reports them), null without one */
  turns: number | null;
  /** model calls the gateway refused because the run's budget was spent */
  budget_refused_calls: number;
}

export interface Summary {
  /** the task's full validated config */
  task: Record<string, unknown>;
  config: RunConfig;
  patch_result: PatchResult;
  runtime_result: RuntimeResult;
  /** USD spent on model calls (the gateway's ledger, model-calls.jsonl); 0 without a model */
  spend: number;
  /** model calls the gateway received for the run (refused ones included) */
  model_calls: number;
  tokens: TokenCounts;
  /** calls of the agent's tool API (MCP test_patch and /sse/v1 routes, refused ones included): lines of tool-calls.jsonl */
  tool_calls: number;
  agent_run: AgentRecord;
  run_id: string;
  /** UTC ISO time the CLI began the run */
  started_at: string;
  plugin_results: PluginResult[];
  container: ContainerRecord;
  /** why the run stopped early (a signal, the run time limit), else null */
  interrupted: string | null;
  /**
   * milliseconds spent by ssebench per phase: validation, layers (look-up and builds),
   * container_start (reference patch, network), docker_run (the `docker run` client, start to exit),
   * teardown (inspect, removal), total (CLI start of the run to recording)
   */
  timings_ms: Record<string, number>;
  disk_usage: DiskUsage;
  provenance: Provenance;
}

export const SUMMARY_KEYS = [
  "task",
  "config",
  "patch_result",
  "runtime_result",
  "spend",
  "model_calls",
  "tokens",
  "tool_calls",
  "agent_run",
  "run_id",
  "started_at",
  "plugin_results",
  "container",
  "interrupted",
  "timings_ms",
  "disk_usage",
  "provenance",
] as const satisfies readonly (keyof Summary)[];
