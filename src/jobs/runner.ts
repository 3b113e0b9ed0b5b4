/**
 * Runs a job's pending trials, N containers at once. A trial is one runTask (the same run folder,
 * result and summary as `ssebench run`); it ends with one line in trials.jsonl. An infrastructure
 * error is retried with backoff; a stop (Ctrl-C) starts nothing new and the running trials are
 * recorded as interrupted. The first trial of a task and agent runs alone among that task's
 * trials, so the layers it builds are built once and reused by the rest.
 */
import { basename, join, relative } from "node:path";
import { UserError } from "../errors.ts";
import type { Backend } from "../run/backends/backend.ts";
import type { Docker } from "../run/backends/docker.ts";
import type { Home } from "../run/home.ts";
import type { RunOptions } from "../run/options.ts";
import { runTask } from "../run/orchestrate.ts";
import { fileReporter } from "../run/reporter.ts";
import { type JobFile, NO_MODEL, type TrialSpec } from "./plan.ts";
import type { Emit } from "./progress.ts";
import { backoffSeconds, isInfraError, latestByTrial, pendingTrials } from "./rules.ts";
import { IoLatch } from "./io.ts";
import { msg } from "./messages.ts";
import { appendTrial, jobLog, readTrials, spentOf, type TrialRecord, trialLogName } from "./store.ts";

export interface JobDeps {
  docker: Docker;
  home: Home;
  env: NodeJS.ProcessEnv;
  /** progress events (progress.ts renders them) */
  emit: Emit;
  /** a torn trials.jsonl line and the like */
  warn: (line: string) => void;
  /** aborted with the signal's name on Ctrl-C */
  stop: AbortSignal;
  /** milliseconds before retry n (default backoffSeconds) */
  backoffMs?: (retry: number) => number;
  /** where every trial's container runs (default: each run opens the one its options name) */
  backend?: Backend;
}

export interface JobRun {
  dir: string;
  job: JobFile;
  /** the options every trial shares (task, agent and model are the trial's) */
  base: RunOptions;
  jobs: number;
  retries: number;
}

const sleep = (ms: number, stop: AbortSignal) =>
  new Promise<void>((resolveSleep) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      stop.removeEventListener("abort", done);
      resolveSleep();
    }
    stop.addEventListener("abort", done, { once: true });
  });

/** A trial's view of the job: its stop is the job's (a signal, or the job's first I/O error). */
type TrialDeps = JobDeps & { latch: IoLatch };

async function runOneTrial(run: JobRun, deps: TrialDeps, spec: TrialSpec, attemptNo: number): Promise<TrialRecord> {
  const opts: RunOptions = { ...run.base, task: spec.task, agent: spec.agent_dir ?? spec.agent, model: spec.model === NO_MODEL ? undefined : spec.model, runId: undefined, requirePass: false, job: run.job.name, jobDir: run.dir, patchFile: spec.patch ? join(run.dir, spec.patch) : undefined };
  const log = join(run.dir, "logs", trialLogName(spec.trial, attemptNo));
  const reporter = fileReporter(log, (cause) => deps.latch.take(cause, log));
  const started = new Date();
  const base = { trial: spec.trial, task: spec.task, agent: spec.agent, model: spec.model, attempt: spec.attempt, try: attemptNo };
  const ended = () => ({ dataset: run.job.dataset, started_at: started.toISOString(), finished_at: new Date().toISOString(), duration_ms: Date.now() - started.getTime() });
  try {
    const outcome = await runTask(opts, { docker: deps.docker, reporter, home: deps.home, env: deps.env, handleSignals: false, stop: deps.stop, backend: deps.backend });
    const p = outcome.summary.patch_result;
    return {
      ...base,
      status: p.status,
      error_type: p.error_type,
      error_msg: p.error_msg,
      run_id: outcome.summary.run_id,
      run_dir: relative(run.base.results, outcome.runDir),
      ...ended(),
      images: { agent: outcome.summary.container.image, case: outcome.summary.container.case_image },
      spend: outcome.summary.spend,
    };
  } catch (caught) {
    // A write of the run that failed (disk full) stops the job; the trial is interrupted, not graded.
    const io = caught instanceof UserError ? undefined : deps.latch.take(caught, run.base.results);
    const error = io ? new UserError(msg.ioFailed(io.path, io.cause)) : caught;
    if (!(error instanceof UserError)) throw error;
    reporter.error(error.message);
    const interrupted = deps.stop.aborted;
    // A failure after the run folder existed (a failed build) was recorded there too.
    const runDir = (error as UserError & { runDir?: string }).runDir;
    return {
      ...base,
      status: "error",
      error_type: interrupted ? "interrupted" : "infra",
      error_msg: error.message,
      run_id: runDir ? basename(runDir) : null,
      run_dir: runDir ? relative(run.base.results, runDir) : null,
      ...ended(),
      images: { agent: null, case: null },
      spend: 0,
    };
  }
}

/**
 * Runs what the job still lacks; returns the number of trial runs made. The job's first I/O error
 * (disk full) stops its trials as a signal would and is thrown, one line, once they have ended.
 */
export async function runJob(run: JobRun, jobDeps: JobDeps): Promise<number> {
  const halt = new AbortController();
  const follow = () => halt.abort(jobDeps.stop.reason);
  if (jobDeps.stop.aborted) follow();
  else jobDeps.stop.addEventListener("abort", follow, { once: true });
  const deps: TrialDeps = { ...jobDeps, stop: halt.signal, latch: new IoLatch(halt) };
  const runs = await runTrials(run, deps);
  jobDeps.stop.removeEventListener("abort", follow);
  const failed = deps.latch.error(run.job.name);
  if (failed) {
    try {
      jobLog(run.dir)(failed.message);
    } catch {
      // the same disk
    }
    throw failed;
  }
  return runs;
}

async function runTrials(run: JobRun, deps: TrialDeps): Promise<number> {
  const earlier = readTrials(run.dir, deps.warn);
  const { todo, tries } = pendingTrials(run.job.trials, earlier);
  const total = run.job.trials.length;
  let finished = total - todo.length;
  const latest = latestByTrial(earlier);
  let passed = run.job.trials.filter((t) => latest.get(t.trial)?.status === "passed").length;
  let spent = spentOf(earlier);
  let runs = 0;
  deps.emit({ event: "planned", job: run.job.name, total, todo: todo.length, jobs: run.jobs });
  const backoffMs = deps.backoffMs ?? ((n: number) => backoffSeconds(n) * 1000);

  const withRetries = async (spec: TrialSpec) => {
    for (let retry = 0; ; retry++) {
      const no = (tries.get(spec.trial) ?? 0) + 1;
      tries.set(spec.trial, no);
      runs++;
      deps.emit({ event: "started", trial: spec.trial, try: no });
      const record = await runOneTrial(run, deps, spec, no);
      try {
        appendTrial(run.dir, record);
      } catch (error) {
        if (!deps.latch.take(error, join(run.dir, "trials.jsonl"))) throw error;
      }
      const again = isInfraError(record) && retry < run.retries && !deps.stop.aborted;
      if (!again) finished++;
      if (!again && record.status === "passed") passed++;
      spent += spentOf([record]);
      const { status, error_type, error_msg, run_dir, duration_ms, spend } = record;
      deps.emit({ event: "ended", trial: spec.trial, try: no, status, error_type, error_msg, run_dir, duration_ms, final: !again, done: finished, total, spend, passed, spent });
      if (!again) return;
      const wait = backoffMs(retry + 1);
      deps.emit({ event: "retry", trial: spec.trial, retry: retry + 1, retries: run.retries, wait_s: Math.round(wait / 1000) });
      await sleep(wait, deps.stop);
      if (deps.stop.aborted) return;
    }
  };

  const queue = [...todo];
  const running = new Map<Promise<void>, { task: string; warming: boolean }>();
  const startedPairs = new Set<string>();
  for (;;) {
    while (running.size < run.jobs && !deps.stop.aborted) {
      const index = queue.findIndex((t) => ![...running.values()].some((r) => r.warming && r.task === t.task));
      if (index < 0) break;
      const [spec] = queue.splice(index, 1) as [TrialSpec];
      const pair = `${spec.task}/${spec.agent}`;
      const warming = !startedPairs.has(pair);
      startedPairs.add(pair);
      const promise: Promise<void> = withRetries(spec).finally(() => running.delete(promise));
      running.set(promise, { task: spec.task, warming });
    }
    if (running.size === 0) break;
    await Promise.race(running.keys());
  }
  return runs;
}
