/**
 * The entrypoint's configuration: environment variables with defaults (docs/container-contract.md
 * §2). The one place that reads a variable by name: each mode hands the environment it was started
 * with to its reader here and passes the settings down. (Children get the environment itself,
 * cut down by the allow-lists of privilege/child-env.ts.)
 */
import { FORWARD_PORT, MODEL_DIR, MODEL_SECRET_FILE } from "../contract/model.ts";
import { ARCHIVE_MOUNT, REFERENCE_MOUNT, RESULTS_MOUNT } from "../contract/paths.ts";
import { SIDECAR_DIR } from "../contract/sidecar.ts";
import { UPLOAD_FILE } from "../contract/upload.ts";
import { UserError } from "../errors.ts";
import { msg } from "./messages.ts";

export interface RuntimeConfig {
  archive: string;
  results: string;
  taskRoot: string;
  pluginsDir: string;
  sourceOverride: string | undefined;
  referencePatch: string;
  work: string;
  modelUser: string;
  runnerUser: string;
  /** Folder of `passwd` and `group` (tests use a private copy). */
  etc: string;
  /** The run's own uids (SSE_MODEL_UID / SSE_RUNNER_UID): the users are renumbered at start. */
  runUids: { name: string; uid: number }[];
  agentTimeoutMs: number;
  gradingTimeoutMs: number;
  checkTimeoutMs: number;
  graceMs: number;
  pluginMinuteMs: number;
  pluginSelection: string[] | undefined;
  maxFileBytes: number;
  /** SSE_MAX_LOG_MB: each child's log (agent.log, a check's, a plugin's) keeps its first and last half of this. */
  maxLogBytes: number;
  /** SSE_MAX_ARCHIVE_MB, SSE_MAX_ARCHIVE_FILES: what the archive may hold at the end of the run. */
  archiveBounds: { maxBytes: number; maxEntries: number };
  /** SSE_MAX_CHANGE_MB, SSE_MAX_CHANGE_FILES, SSE_MAX_PATCH_MB */
  changeBounds: { maxTotalBytes: number; maxFiles: number; maxPatchBytes: number };
  /** RLIMIT_NPROC of model / sse-runner (SSE_MODEL_NPROC / SSE_RUNNER_NPROC); undefined = from the pids limit. */
  modelNproc: number | undefined;
  runnerNproc: number | undefined;
  debug: boolean;
  /** SSE_DIFFICULTY and SSE_TOOL_PORT as given (the tool API checks them) */
  difficulty: string | undefined;
  toolPort: string | undefined;
  upload: UploadSettings;
  modelAccess: ModelAccessSettings;
  /** SSE_AGENT_ENV as given: the agent layer's own variables the agent also gets (privilege/child-env.ts) */
  agentEnv: string | undefined;
  /** sidecar mode: the socket folder (SSE_SIDECAR_DIR) and how long the sidecar has to connect (SSE_SIDECAR_WAIT) */
  sidecar: { dir: string; waitMs: number };
}

/** Where a Swarm trial's results go (relay/upload-config.ts reads the file). */
export interface UploadSettings {
  /** SSE_UPLOAD_FILE */
  file: string;
  /** SSE_UPLOAD_TIMEOUT as given, seconds (checked only when the file exists) */
  timeout: string | undefined;
}

/** Where the run's model is (relay/model-access.ts). */
export interface ModelAccessSettings {
  /** SSE_MODEL_DIR: the folder `ssebench run` mounts (a local run) */
  dir: string;
  /** SSE_MODEL_FILE: the root-only secret (a Swarm trial) */
  file: string;
  /** SSE_MODEL_PORT: the forwarder's loopback port */
  port: number;
}

type Env = Record<string, string | undefined>;

/** PATH of root's own tool runs (git, cp, chown, find): the entrypoint's own, as readConfig found it. */
let rootToolPath = "/usr/bin:/bin";
export const toolPath = (): string => rootToolPath;

const TASK_ROOT = "/ssebench";
const WORK_DIR = "/var/lib/ssebench-work";

/** Bounds of the agent's change beyond SSE_MAX_FILE_MB (docs/container-contract.md §2). */
export const CHANGE_DEFAULTS = { totalMb: 1024, files: 20_000, patchMb: 256 } as const;

function seconds(env: Env, name: string, fallback: number, integer: boolean): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback * 1000;
  const ok = integer ? /^\d+$/.test(raw.trim()) : /^\d+(\.\d+)?$/.test(raw.trim());
  const value = Number(raw);
  if (!ok || !(value > 0 || (!integer && value === 0))) throw new UserError(msg.badNumber(name, raw));
  return value * 1000;
}

function megabytes(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback * 2 ** 20;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) <= 0) throw new UserError(msg.badMegabytes(name, raw));
  return Number(raw) * 2 ** 20;
}

/** Highest run uid accepted: spawn takes a signed 32-bit id. */
export const MAX_RUN_UID = 2 ** 31 - 2;

function runUids(env: Env, users: [string, string]): { name: string; uid: number }[] {
  const out: { name: string; uid: number }[] = [];
  for (const [i, key] of (["SSE_MODEL_UID", "SSE_RUNNER_UID"] as const).entries()) {
    const raw = env[key];
    if (raw === undefined || raw === "") continue;
    const uid = Number(raw.trim());
    if (!/^\d+$/.test(raw.trim()) || uid < 1000 || uid > MAX_RUN_UID) throw new UserError(msg.badUid(key, raw));
    out.push({ name: users[i]!, uid });
  }
  if (out.length === 2 && out[0]!.uid === out[1]!.uid) throw new UserError(msg.sameUids(out[0]!.uid));
  return out;
}

function count(env: Env, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === "") return undefined;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) <= 0) throw new UserError(msg.badCount(name, raw));
  return Number(raw);
}

export function pluginSelection(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  return raw
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

export function uploadSettings(env: Env): UploadSettings {
  return { file: env.SSE_UPLOAD_FILE || UPLOAD_FILE, timeout: env.SSE_UPLOAD_TIMEOUT };
}

export function modelAccessSettings(env: Env): ModelAccessSettings {
  return { dir: env.SSE_MODEL_DIR || MODEL_DIR, file: env.SSE_MODEL_FILE || MODEL_SECRET_FILE, port: env.SSE_MODEL_PORT ? Number(env.SSE_MODEL_PORT) : FORWARD_PORT };
}

/** The sandbox's and `prepare`'s settings; `prepare` needs no archive. */
export function readConfig(env: Env, needArchive: boolean): RuntimeConfig {
  rootToolPath = env.PATH ?? "/usr/bin:/bin";
  const archive = env.SSE_ARCHIVE ?? "";
  const modelUser = env.SSE_MODEL_USER || "model";
  const runnerUser = env.SSE_RUNNER_USER || "sse-runner";
  if (needArchive && archive === "") throw new UserError(msg.archiveRequired());
  return {
    archive,
    results: env.SSE_RESULTS || RESULTS_MOUNT,
    taskRoot: env.SSE_TASK_ROOT || TASK_ROOT,
    pluginsDir: env.SSE_PLUGINS_DIR || "/plugins",
    sourceOverride: env.SSE_SOURCE || undefined,
    referencePatch: env.SSE_REFERENCE_PATCH || REFERENCE_MOUNT,
    work: env.SSE_WORK || WORK_DIR,
    modelUser,
    runnerUser,
    etc: env.SSE_ETC || "/etc",
    runUids: runUids(env, [modelUser, runnerUser]),
    agentTimeoutMs: seconds(env, "TIMEOUT", 14400, true),
    gradingTimeoutMs: seconds(env, "SSE_GRADING_TIMEOUT", 3600, false),
    checkTimeoutMs: seconds(env, "SSE_CHECK_TIMEOUT", 1800, false),
    graceMs: seconds(env, "SSE_KILL_GRACE", 3, false),
    pluginMinuteMs: seconds(env, "SSE_PLUGIN_MINUTE", 60, false),
    pluginSelection: pluginSelection(env.SSE_PLUGINS),
    maxFileBytes: megabytes(env, "SSE_MAX_FILE_MB", 100),
    maxLogBytes: megabytes(env, "SSE_MAX_LOG_MB", 16),
    archiveBounds: { maxBytes: megabytes(env, "SSE_MAX_ARCHIVE_MB", 1024), maxEntries: count(env, "SSE_MAX_ARCHIVE_FILES") ?? 100_000 },
    changeBounds: {
      maxTotalBytes: megabytes(env, "SSE_MAX_CHANGE_MB", CHANGE_DEFAULTS.totalMb),
      maxFiles: count(env, "SSE_MAX_CHANGE_FILES") ?? CHANGE_DEFAULTS.files,
      maxPatchBytes: megabytes(env, "SSE_MAX_PATCH_MB", CHANGE_DEFAULTS.patchMb),
    },
    modelNproc: count(env, "SSE_MODEL_NPROC"),
    runnerNproc: count(env, "SSE_RUNNER_NPROC"),
    debug: (env.SSE_DEBUG ?? "") !== "",
    difficulty: env.SSE_DIFFICULTY,
    toolPort: env.SSE_TOOL_PORT,
    upload: uploadSettings(env),
    modelAccess: modelAccessSettings(env),
    agentEnv: env.SSE_AGENT_ENV,
    sidecar: { dir: env.SSE_SIDECAR_DIR || SIDECAR_DIR, waitMs: seconds(env, "SSE_SIDECAR_WAIT", 120, false) },
  };
}

/** `ssebench-entrypoint sidecar-agent` (in the sidecar): where the task's sockets are. */
export function sidecarAgentDir(env: Env): string {
  return env.SSE_SIDECAR_DIR || SIDECAR_DIR;
}

/** `ssebench-entrypoint artifact` and `oracle`: where the run's results, archive and task are. */
export interface PluginCommandSettings {
  results: string;
  archive: string;
  taskRoot: string;
  work: string;
  /** SSE_PLUGIN_SKIP_FILE: where a plugin says why it skipped (unset: nowhere) */
  skipFile: string | undefined;
  /** SSE_PLUGIN_NAME */
  pluginName: string | undefined;
  /** the run's model, as an `llm: true` plugin gets it ("" when the run has none) */
  model: { baseUrl: string; key: string; name: string };
}

export function pluginCommandSettings(env: Env): PluginCommandSettings {
  return {
    results: env.SSE_RESULTS || RESULTS_MOUNT,
    archive: env.SSE_ARCHIVE || ARCHIVE_MOUNT,
    taskRoot: env.SSE_TASK_ROOT || TASK_ROOT,
    work: env.SSE_WORK || WORK_DIR,
    skipFile: env.SSE_PLUGIN_SKIP_FILE || undefined,
    pluginName: env.SSE_PLUGIN_NAME || undefined,
    model: { baseUrl: env.SSE_BASE_URL ?? "", key: env.SSE_API_KEY ?? "", name: env.SSE_MODEL_NAME ?? "" },
  };
}

/** `ssebench-entrypoint check`: the running entrypoint's tool API (SSE_TOOL_API). */
export function toolApiBase(env: Env): string {
  return env.SSE_TOOL_API || "http://127.0.0.1:3000";
}
