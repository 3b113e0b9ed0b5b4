/**
 * The option model of `ssebench run`: the command line's strings turned into typed values. Only the
 * syntax checks (exit 2) live here; checks against the task, agents and plugins are in validate.ts.
 */
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import type { Argv } from "../argv.ts";
import { UserError, usageError } from "../errors.ts";
import type { Resources } from "../formats/run/summary.ts";
import { isAgentPath } from "./layers/agents.ts";
import { BACKENDS, type BackendName } from "./backends/backend.ts";
import { msg } from "./messages.ts";

export const MODES = ["sandbox", "sidecar"] as const;
export const EGRESS = ["restricted", "open"] as const;
export type Mode = (typeof MODES)[number];
export type Egress = (typeof EGRESS)[number];

export interface RunOptions {
  task: string;
  agent: string;
  model: string | undefined;
  /** --models DIR: the user's models folder, searched after the built-in models (gateway/model-folders.ts) */
  models?: string;
  local: string | undefined;
  catalog: string | undefined;
  /** undefined: --plugin not given (the container runs the plugins enabled in plugins.yaml). */
  plugins: string[] | undefined;
  /** undefined: --mode not given (the agent's own, agent.yaml `mode`) */
  mode: Mode | undefined;
  difficulty: number;
  /** the agent's time limit, seconds (TIMEOUT in the container) */
  timeout: number;
  /** grading's time limit, seconds (SSE_GRADING_TIMEOUT; default: the agent's) */
  gradingTimeout: number;
  /** the whole run's limit, seconds: pull, builds, agent, grading and teardown */
  runTimeout: number;
  egress: Egress;
  runId: string | undefined;
  requirePass: boolean;
  results: string;
  keepContainer: boolean;
  build: boolean;
  resources: Resources;
  /** USD the run's model calls may spend (the gateway refuses calls once it is spent) */
  budget: number;
  /** the job this run is a trial of (summary.json provenance) */
  job?: string;
  /** that job's folder: labels what the run leaves outside its run folder (backends/owner.ts) */
  jobDir?: string;
  /** the patch the built-in `patch` agent applies (a --predictions line, saved by the job) */
  patchFile?: string;
  /** where the container runs (docs/backends.md); default local */
  backend?: BackendName;
  /** --constraint: Swarm placement constraints of the trial's service (swarm backend only) */
  constraints?: string[];
}

export const DEFAULTS = {
  timeout: 3600,
  difficulty: 2,
  memory: "4g",
  pidsLimit: 4096,
  /** the container's writable layer (grading's scratch trees and build outputs included) */
  disk: "20g",
  results: "results",
  /** USD per run, as the reference's LiteLLM budget */
  budget: 10,
  /** pull + builds + teardown on top of the agent and grading limits */
  runOverheadSeconds: 1800,
} as const;

/**
 * Upper bounds of the time limits. Timers (here and in the entrypoint, which gets TIMEOUT) hold at
 * most 2^31-1 ms (about 24.8 days); a longer delay fires at once, so a huge --timeout would stop the
 * run immediately. --timeout leaves room for the default run limit (2 x timeout + overhead).
 */
export const MAX_SECONDS = { timeout: 1_000_000, runTimeout: 2_000_000 } as const;

/** Default CPU limit: 2, or fewer on a smaller machine (docker refuses more than the host has). */
export function defaultCpus(): number {
  return Math.min(2, availableParallelism());
}

/** Default whole-run limit: agent time + grading time (by default the agent's) + overhead. */
export function defaultRunTimeout(timeout: number, gradingTimeout = timeout): number {
  return timeout + gradingTimeout + DEFAULTS.runOverheadSeconds;
}

const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** --task, --agent and --model values name folders of the results: one safe path segment each. */
export function checkSegment(flag: string, value: string): string {
  if (!SEGMENT.test(value)) throw usageError(msg.pathSegment(flag, value));
  return value;
}

export function checkRunId(id: string): string {
  if (id.toLowerCase() === "latest") throw usageError(msg.runIdLatest());
  if (!RUN_ID.test(id)) throw usageError(msg.runIdSyntax(id));
  return id;
}

function choice<T extends string>(flag: string, value: string, choices: readonly T[]): T {
  if (!(choices as readonly string[]).includes(value)) throw usageError(msg.choice(flag, value, choices));
  return value as T;
}

function positiveInt(flag: string, value: string, max?: number): number {
  if (!/^[0-9]+$/.test(value) || Number(value) < 1) throw usageError(msg.positiveInt(flag, value));
  if (max !== undefined && Number(value) > max) throw usageError(msg.tooManySeconds(flag, value, max));
  return Number(value);
}

/** Every value of a repeatable string flag, in order (citty keeps only the last one). */
export function repeatedFlag(argv: Argv, name: string): string[] | undefined {
  if (!argv.has(name)) return undefined;
  // "--plugin a,b" is accepted as well as "--plugin a --plugin b".
  return argv.values(name).flatMap((v) => v.split(",")).map((v) => v.trim()).filter((v) => v.length > 0);
}

export interface RawRunArgs {
  /** positional words: `run` takes none */
  _?: string[];
  task?: string;
  agent?: string;
  model?: string;
  models?: string;
  local?: string;
  catalog?: string;
  mode?: string;
  difficulty?: string;
  timeout?: string;
  gradingTimeout?: string;
  runTimeout?: string;
  egress?: string;
  runId?: string;
  requirePass?: boolean;
  results?: string;
  keepContainer?: boolean;
  build?: boolean;
  cpus?: string;
  memory?: string;
  pidsLimit?: string;
  disk?: string;
  budget?: string;
  backend?: string;
  constraint?: string;
}

/** Turns the command line into RunOptions; bad syntax is a usage error (exit 2). */
export function parseRunOptions(
  raw: RawRunArgs,
  argv: Argv,
  env: NodeJS.ProcessEnv = process.env,
): RunOptions {
  const stray = raw._?.[0];
  if (stray !== undefined) throw usageError(msg.unexpectedArgument(stray));
  if (!raw.task) throw usageError(msg.missingFlag("--task"));
  if (!raw.agent) throw usageError(msg.missingFlag("--agent"));
  for (const [flag, value] of [["--task", raw.task], ["--agent", raw.agent], ["--model", raw.model]] as const) {
    if (value !== undefined && !(flag === "--agent" && isAgentPath(value))) checkSegment(flag, value);
  }
  const difficulty = raw.difficulty ?? String(DEFAULTS.difficulty);
  if (!/^[0-4]$/.test(difficulty)) throw usageError(msg.difficulty(difficulty));
  const timeout = raw.timeout === undefined ? DEFAULTS.timeout : positiveInt("--timeout", raw.timeout, MAX_SECONDS.timeout);
  const gradingTimeout =
    raw.gradingTimeout === undefined ? timeout : positiveInt("--grading-timeout", raw.gradingTimeout, MAX_SECONDS.timeout);
  const cpus = raw.cpus === undefined ? defaultCpus() : Number(raw.cpus);
  if (!(cpus > 0) || !/^[0-9]*\.?[0-9]+$/.test(raw.cpus ?? "1")) throw usageError(msg.cpus(raw.cpus ?? ""));
  const memory = raw.memory ?? DEFAULTS.memory;
  if (!/^[1-9][0-9]*[bkmg]?$/i.test(memory)) throw usageError(msg.memory(memory));
  const disk = raw.disk ?? DEFAULTS.disk;
  if (!/^[1-9][0-9]*[bkmgt]?$/i.test(disk)) throw usageError(msg.disk(disk));
  const budget = raw.budget === undefined ? DEFAULTS.budget : Number(raw.budget);
  if (!/^[0-9]*\.?[0-9]+$/.test(raw.budget ?? "1") || !(budget > 0)) throw usageError(msg.budget(raw.budget ?? ""));
  let egress: Egress;
  if (raw.egress !== undefined) egress = choice("--egress", raw.egress, EGRESS);
  else {
    const setting = env.SSEBENCH_EGRESS?.trim();
    if (setting && !(EGRESS as readonly string[]).includes(setting)) throw new UserError(msg.egressSetting(setting));
    egress = (setting || "restricted") as Egress;
  }
  return {
    task: raw.task,
    agent: raw.agent,
    model: raw.model || undefined,
    ...(raw.models ? { models: resolve(raw.models) } : {}),
    local: raw.local || undefined,
    catalog: raw.catalog?.trim() || undefined,
    plugins: repeatedFlag(argv, "plugin"),
    mode: raw.mode === undefined ? undefined : choice("--mode", raw.mode, MODES),
    difficulty: Number(difficulty),
    timeout,
    gradingTimeout,
    runTimeout:
      raw.runTimeout === undefined ? defaultRunTimeout(timeout, gradingTimeout) : positiveInt("--run-timeout", raw.runTimeout, MAX_SECONDS.runTimeout),
    egress,
    runId: raw.runId === undefined ? undefined : checkRunId(raw.runId),
    requirePass: Boolean(raw.requirePass),
    results: raw.results || DEFAULTS.results,
    keepContainer: Boolean(raw.keepContainer),
    build: Boolean(raw.build),
    resources: {
      cpus,
      memory: memory.toLowerCase(),
      pids_limit: raw.pidsLimit === undefined ? DEFAULTS.pidsLimit : positiveInt("--pids-limit", raw.pidsLimit),
      disk: disk.toLowerCase(),
    },
    budget,
    backend: choice("--backend", raw.backend ?? "local", BACKENDS),
    constraints: constraints(raw.backend, argv),
  };
}

/** Every --constraint (repeatable; one expression each, so no splitting at ','); swarm only. */
function constraints(backend: string | undefined, argv: Argv): string[] {
  const values = argv.values("constraint");
  for (const c of values) if (!/^[A-Za-z0-9_.-]+\s*(==|!=)\s*\S.*$/.test(c)) throw usageError(msg.constraintSyntax(c));
  if (values.length > 0 && backend !== "swarm") throw usageError(msg.constraintNeedsSwarm());
  return values;
}
