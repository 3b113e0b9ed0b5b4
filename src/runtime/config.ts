/** The entrypoint's configuration: environment variables with defaults (docs/container-contract.md §2). */
import { REFERENCE_MOUNT, RESULTS_MOUNT } from "../contract/paths.ts";
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
  /** SSE_MAX_ARCHIVE_MB: what the archive may hold at the end of the run. */
  maxArchiveBytes: number;
  /** SSE_MAX_CHANGE_MB, SSE_MAX_CHANGE_FILES, SSE_MAX_PATCH_MB */
  changeBounds: { maxTotalBytes: number; maxFiles: number; maxPatchBytes: number };
  /** RLIMIT_NPROC of model / sse-runner (SSE_MODEL_NPROC / SSE_RUNNER_NPROC); undefined = from the pids limit. */
  modelNproc: number | undefined;
  runnerNproc: number | undefined;
  debug: boolean;
}

type Env = Record<string, string | undefined>;

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

/** Paths only; used by `prepare` and `artifact`, which need no archive. */
export function readConfig(env: Env, needArchive: boolean): RuntimeConfig {
  const archive = env.SSE_ARCHIVE ?? "";
  const modelUser = env.SSE_MODEL_USER || "model";
  const runnerUser = env.SSE_RUNNER_USER || "sse-runner";
  if (needArchive && archive === "") throw new UserError(msg.archiveRequired());
  return {
    archive,
    results: env.SSE_RESULTS || RESULTS_MOUNT,
    taskRoot: env.SSE_TASK_ROOT || "/ssebench",
    pluginsDir: env.SSE_PLUGINS_DIR || "/plugins",
    sourceOverride: env.SSE_SOURCE || undefined,
    referencePatch: env.SSE_REFERENCE_PATCH || REFERENCE_MOUNT,
    work: env.SSE_WORK || "/var/lib/ssebench-work",
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
    maxArchiveBytes: megabytes(env, "SSE_MAX_ARCHIVE_MB", 1024),
    changeBounds: {
      maxTotalBytes: megabytes(env, "SSE_MAX_CHANGE_MB", CHANGE_DEFAULTS.totalMb),
      maxFiles: count(env, "SSE_MAX_CHANGE_FILES") ?? CHANGE_DEFAULTS.files,
      maxPatchBytes: megabytes(env, "SSE_MAX_PATCH_MB", CHANGE_DEFAULTS.patchMb),
    },
    modelNproc: count(env, "SSE_MODEL_NPROC"),
    runnerNproc: count(env, "SSE_RUNNER_NPROC"),
    debug: (env.SSE_DEBUG ?? "") !== "",
  };
}
