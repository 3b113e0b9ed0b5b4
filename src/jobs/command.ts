/**
 * `ssebench run` with several tasks, agents, models or attempts (or any job flag): plan the job,
 * write job.json, lock the job, run its pending trials and print two lines. A resume (`--job NAME`
 * again) reads the plan and the options from job.json.
 */
import { existsSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Argv } from "../argv.ts";
import { out } from "../output/terminal.ts";
import { usageError, UserError } from "../errors.ts";
import { openBackend } from "../run/backends/open.ts";
import { DockerCli } from "../run/backends/docker.ts";
import { findHome, type Home } from "../run/home.ts";
import { msg as runMsg } from "../run/messages.ts";
import { checkSegment, parseRunOptions, type RawRunArgs, type RunOptions } from "../run/options.ts";
import { consoleReporter, type Reporter } from "../run/reporter.ts";
import { newRunId } from "../run/record/results.ts";
import { matrixFlags, type MatrixFlags } from "./flags.ts";
import { msg } from "./messages.ts";
import { defaultJobs, type JobFile, memoryBytes, planTrials, type TaskImages, type TrialSpec } from "./plan.ts";
import { predictionTrials, readPredictions, samePatches, savePatches } from "./predictions.ts";
import { isAgentPath, PATCH_AGENT } from "../run/layers/agents.ts";
import { latestByTrial, isInfraError } from "./rules.ts";
import { type Emit, jsonProgress, plainProgress, terminalProgress } from "./progress.ts";
import { runJob } from "./runner.ts";
import { asUserError } from "./io.ts";
import { removeLeftovers } from "./leftovers.ts";
import { lockJob } from "./lock.ts";
import { jobDir, jobLog, openJobFolder, readJobFile, readTrials, spentOf, writeJobFile } from "./store.ts";
import { listTasks, selectTasks } from "./task-list.ts";

export interface RawJobArgs extends RawRunArgs {
  tasks?: string;
  attempts?: string;
  jobs?: string;
  job?: string;
  retries?: string;
  json?: boolean;
  predictions?: string;
}

const JOB_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

function wholeNumber(value: string | undefined, min: number, max: number, message: (v: string) => string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[0-9]+$/.test(value) || Number(value) < min || Number(value) > max) throw usageError(message(value));
  return Number(value);
}

/** The flags of this command line alone: where the job is and how this command prints. */
const THIS_COMMAND = new Set(["job", "results", "json", "predictions"]);

/** The flags a resume may change; not given again, they keep the job's (job.json). */
const PACE = new Set(["jobs", "retries", "require-pass"]);

const RESUME_OWN = new Set([...THIS_COMMAND, ...PACE]);

/** The flags that make the matrix (compared as trials on a resume). */
const MATRIX = new Set(["task", "tasks", "agent", "model", "attempts"]);

/** --local and every agent folder of --agent made absolute, so a resume from elsewhere finds them. */
function absoluteLocal(argv: Argv): Argv {
  const agents = (list: string) => list.split(",").map((a) => (isAgentPath(a.trim()) ? resolve(a.trim()) : a)).join(",");
  return argv.mapValues((name, value) => (name === "local" ? resolve(value) : name === "agent" ? agents(value) : value));
}

function baseOptions(args: RawJobArgs, argv: Argv): RunOptions {
  // task and agent are each trial's; the rest is checked as for one run.
  return parseRunOptions({ ...args, task: "job", agent: "job", model: undefined }, argv);
}

async function planJob(name: string, matrix: MatrixFlags, spec: { tasks: string | undefined; attempts: number; predicted?: TrialSpec[]; dir: string }, base: RunOptions, argv: string[], deps: { home: Home; reporter: Reporter }): Promise<JobFile> {
  if (spec.predicted) return finishPlan(name, spec.predicted, { tasks: [...new Set(spec.predicted.map((t) => t.task))], agents: [PATCH_AGENT], models: [], attempts: Math.max(...spec.predicted.map((t) => t.attempt)) }, base, argv, deps, spec.dir);
  const tasks = [...matrix.tasks];
  if (spec.tasks !== undefined) {
    const source = await listTasks(base.local, base.catalog, process.env);
    for (const id of selectTasks(spec.tasks, source)) if (!tasks.includes(id)) tasks.push(id);
  }
  if (tasks.length === 0) throw usageError(msg.noTask());
  if (matrix.agents.length === 0) throw usageError(msg.noAgent());
  const { loadAgent } = await import("../run/layers/agents.ts");
  const agents = await Promise.all(matrix.agents.map((a) => loadAgent(deps.home.agentsDir, a)));
  const clash = agents.find((a, i) => agents.findIndex((b) => b.name === a.name) !== i);
  if (clash) throw new UserError(msg.agentNameClash(clash.name, agents.filter((a) => a.name === clash.name).map((a) => a.dir)));
  for (const a of agents) {
    if (a.usesModel && matrix.models.length === 0) throw new UserError(runMsg.modelRequired(a.name));
    if (!a.usesModel && matrix.models.length > 0) deps.reporter.warn(runMsg.modelIgnored(a.name, matrix.models.join(", ")));
  }
  const trials = planTrials(tasks, agents, matrix.models, spec.attempts);
  return finishPlan(name, trials, { tasks, agents: matrix.agents, models: matrix.models, attempts: spec.attempts }, base, argv, deps, spec.dir);
}

/** Every cell is checked as its runs will be, before anything is written or started. */
async function finishPlan(name: string, trials: TrialSpec[], matrix: JobFile["matrix"], base: RunOptions, argv: string[], deps: { home: Home; reporter: Reporter }, dir: string): Promise<JobFile> {
  const { loadAgent } = await import("../run/layers/agents.ts");
  const agents = await Promise.all(matrix.agents.map((a) => loadAgent(deps.home.agentsDir, a)));
  const { validateRun } = await import("../run/validate.ts");
  const images: Record<string, TaskImages> = {};
  let dataset = { name: "", version: "" };
  const cells = new Map(trials.map((t) => [`${t.task}/${t.model}/${t.agent}`, t]));
  for (const t of cells.values()) {
    const patchFile = t.patch ? join(dir, t.patch) : undefined;
    const plan = await validateRun({ ...base, task: t.task, agent: t.agent_dir ?? t.agent, model: t.model === "none" ? undefined : t.model, patchFile }, { home: deps.home, env: process.env, warn: deps.reporter.warn });
    dataset = plan.task.dataset;
    const pull = plan.task.case.pull;
    images[t.task] = { case_image: plan.task.case.tag, pull: pull?.ref ?? null, digest: pull?.digest ?? null, built_from: plan.task.case.folder ?? null };
  }
  const { VERSION } = await import("../version.ts");
  return {
    name,
    created_at: new Date().toISOString(),
    ssebench_version: VERSION,
    dataset,
    matrix,
    trials,
    images,
    agents: Object.fromEntries(agents.map((a) => [a.name, { version: a.version ?? VERSION, uses_model: a.usesModel }])),
    argv,
  };
}

export async function jobCommand(args: RawJobArgs, argv: Argv): Promise<number> {
  if (args.runId !== undefined) throw usageError(msg.jobRunId());
  const matrix = matrixFlags(argv);
  for (const t of matrix.tasks) checkSegment("--task", t);
  for (const a of matrix.agents) if (!isAgentPath(a)) checkSegment("--agent", a);
  matrix.agents = matrix.agents.map((a) => (isAgentPath(a) ? resolve(a) : a));
  for (const m of matrix.models) checkSegment("--model", m);
  const attempts = wholeNumber(args.attempts, 1, 100, msg.attempts) ?? 1;
  let pace = paceOf(args);
  if (args.job !== undefined && !JOB_NAME.test(args.job)) throw usageError(msg.jobName(args.job));
  const name = args.job ?? `job-${newRunId()}`;
  let base = baseOptions(args, argv);
  const reporter = await consoleReporter();
  const home = findHome();
  const dir = jobDir(base.results, name);
  const release = await lockJob(dir, name);
  try {
    let job = readJobFile(dir);
    const planning = ["task", "tasks", "agent", "model", "attempts"].some((f) => argv.has(f));
    if (planning && args.predictions !== undefined) throw usageError(msg.predictionsAlone());
    const predictions = args.predictions === undefined ? undefined : readPredictions(resolve(args.predictions));
    const predicted = predictions && predictionTrials(predictions);
    if (job) {
      if (predicted && predictions) {
        const same = predicted.map((t) => t.trial).join("\n") === job.trials.map((t) => t.trial).join("\n") && samePatches(predictions, job.trials, dir);
        if (!same) throw new UserError(msg.jobDiffers(name, `${dir}/job.json`));
      } else if (planning) {
        const again = await planJob(name, matrix, { tasks: args.tasks, attempts, dir }, base, job.argv, { home, reporter });
        if (again.trials.map((t) => t.trial).join("\n") !== job.trials.map((t) => t.trial).join("\n")) throw new UserError(msg.jobDiffers(name, `${dir}/job.json`));
      }
      // Options other than the resume's own come from job.json; a different one is refused, not dropped.
      const planned = (f: string) => RESUME_OWN.has(f) || MATRIX.has(f);
      const stored = argv.reread(job.argv);
      const given = absoluteLocal(argv).without(planned).words();
      if (given.length > 0 && given.join("\0") !== stored.without(planned).words().join("\0")) throw new UserError(msg.resumeOptions(name, `${dir}/job.json`));
      const kept = stored.without((f) => THIS_COMMAND.has(f) || (PACE.has(f) && argv.has(f)));
      const resumed = argv.reread([...kept.words(), ...argv.without((f) => !RESUME_OWN.has(f)).words()]);
      base = baseOptions({ ...storedArgs(resumed), results: base.results }, resumed);
      pace = paceOf(storedArgs(resumed));
    } else {
      if (!planning && !predicted) throw new UserError(msg.jobMissing(name, resolve(base.results, "jobs")));
      const stored = absoluteLocal(argv).without((f) => f === "job" || f === "predictions").words();
      if (predicted && predictions) savePatches(predictions, predicted, dir);
      job = await planJob(name, matrix, { tasks: args.tasks, attempts, predicted, dir }, base, stored, { home, reporter });
      writeJobFile(dir, job);
    }
    const log = jobLog(dir);
    const note = (line: string, detail?: string) => {
      reporter.warn(line);
      log(line, detail);
    };
    openJobFolder(dir, note);
    const jobs = pace.jobs ?? defaultJobs(base.resources.cpus, memoryBytes(base.resources.memory));
    const controller = new AbortController();
    const { emit, close } = await progressFor(Boolean(args.json), reporter);
    const onSignal = (sig: NodeJS.Signals) => {
      emit({ event: "stopping", signal: sig });
      controller.abort(sig);
    };
    const handlers = (["SIGINT", "SIGTERM"] as const).map((sig) => [sig, () => onSignal(sig)] as const);
    for (const [sig, h] of handlers) process.once(sig, h);
    const docker = new DockerCli(reporter.debug);
    // One backend for the whole job: what its trials share (a Swarm connection) is set up once.
    const backend = await openBackend(base.backend ?? "local", docker, process.env, reporter.debug, base.constraints);
    try {
      await removeLeftovers(dir, name, backend, note);
      await runJob({ dir, job, base, jobs, retries: pace.retries }, { docker, home, env: process.env, emit, warn: reporter.warn, stop: controller.signal, backend });
    } finally {
      for (const [sig, h] of handlers) process.removeListener(sig, h);
      close();
      for (const w of await backend.close()) reporter.warn(w);
    }
    return finish(job, dir, controller.signal, pace.requirePass, args.json ? emit : undefined);
  } catch (error) {
    // A full disk while planning or opening the job: one line naming the file, never an internal error.
    throw asUserError(error, dir);
  } finally {
    // A job that never got its plan leaves no folder behind (removed while still locked).
    if (!existsSync(join(dir, "job.json"))) rmSync(dir, { recursive: true, force: true });
    release();
  }
}

/** --jobs, --retries and --require-pass: this command line's, or on a resume the job's unless given again. */
function paceOf(args: RawJobArgs): { jobs: number | undefined; retries: number; requirePass: boolean } {
  return {
    jobs: wholeNumber(args.jobs, 1, 1000, msg.jobsCount),
    retries: wholeNumber(args.retries, 0, 10, msg.retries) ?? 2,
    requirePass: Boolean(args.requirePass),
  };
}

/** citty-like values of the stored flags a resume re-parses. */
function storedArgs(argv: Argv): RawJobArgs {
  const camel = (s: string) => s.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  const raw: Record<string, unknown> = {};
  for (const { name, long, value } of argv.flags) if (long) raw[camel(name)] = argv.takesValue.has(name) ? value : true;
  return raw as RawJobArgs;
}

/** --json: events on stdout; a terminal: the live block on stderr; else plain lines on stderr. */
async function progressFor(json: boolean, reporter: Reporter): Promise<{ emit: Emit; close: () => void }> {
  if (json) return { emit: jsonProgress(out), close: () => {} };
  if (process.stderr.isTTY) {
    const live = terminalProgress(process.stderr);
    return { emit: live, close: live.close };
  }
  return { emit: plainProgress((l) => reporter.info(l)), close: () => {} };
}

function finish(job: JobFile, dir: string, stop: AbortSignal, requirePass: boolean, json: Emit | undefined): number {
  const all = readTrials(dir);
  const latest = latestByTrial(all);
  const records = job.trials.map((t) => latest.get(t.trial));
  const count = (s: string) => records.filter((r) => r?.status === s).length;
  const missing = records.filter((r) => r === undefined).length;
  let exitCode = 0;
  if (stop.aborted) exitCode = stop.reason === "SIGTERM" ? 143 : 130;
  else if (missing > 0 || records.some((r) => r && isInfraError(r))) exitCode = 1;
  else if (requirePass && count("passed") < job.trials.length) exitCode = 1;
  const totals = { total: job.trials.length, passed: count("passed"), failed: count("failed"), errors: count("error"), not_run: missing, spent: spentOf(all) };
  if (json) json({ event: "done", job: job.name, dir, ...totals, exit_code: exitCode });
  else {
    out(msg.jobSummary(job.name, totals.total, totals.passed, totals.failed, totals.errors, missing, totals.spent));
    out(msg.jobDir(dir));
  }
  return exitCode;
}
