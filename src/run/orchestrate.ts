/**
 * `ssebench run` end to end: validate (§4.2), create the run folder, make sure the case, tool and
 * agent layers are current, run the container with no network under the run guard, tear down,
 * and record result.json + summary.json. runTask is its steps, in order.
 */
import { copyFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../errors.ts";
import type { TaskMetadata } from "../formats/manifest/manifest-types.ts";
import type { ContainerRecord, DiskUsage, Summary } from "../formats/run/summary.ts";
import type { RunTotals } from "../gateway/keys.ts";
import { VERSION } from "../version.ts";
import { checkAgentSource } from "./layers/agent-layer.ts";
import { checkSidecarSource } from "./layers/sidecar-image.ts";
import { agentRecord } from "./record/agent-record.ts";
import { PATCH_AGENT } from "./layers/agents.ts";
import type { Backend, Trial } from "./backends/backend.ts";
import type { ContainerSpec, ContainerState } from "./backends/container.ts";
import type { Docker } from "./backends/docker.ts";
import { checkFreeSpace, checkResources, engineFacts } from "./backends/engine-check.ts";
import { RunGuard } from "./guard.ts";
import type { Home } from "./home.ts";
import type { ImageInfo } from "./layers/layers.ts";
import { msg } from "./messages.ts";
import { openRunGateway, type RunGateway } from "./model-gateway.ts";
import { openBackend } from "./backends/open.ts";
import type { RunOptions } from "./options.ts";
import { judgeResult, readContainerResult, readPluginResults, recordRun, summaryLines } from "./record/record.ts";
import { type ExtractedPatch, extractReferencePatch } from "./reference-patch.ts";
import type { Reporter } from "./reporter.ts";
import { createRunDir, newRunId, type RunDir } from "./record/results.ts";
import { buildLayers, type Images, lookUpLayers } from "./run-layers.ts";
import { containerSpec, runConfig } from "./run-spec.ts";
import { diskUse } from "./record/safe-read.ts";
import { toolTag } from "./layers/tool-layers.ts";
import { readTaskDates } from "./layers/upstream-sources.ts";
import { modelProvenance } from "../gateway/provenance.ts";
import { type RunPlan, validateRun } from "./validate.ts";

/** Milliseconds per phase of the run, for summary.json and SSEBENCH_DEBUG. */
class PhaseTimer {
  private readonly started = performance.now();
  private last = this.started;
  readonly laps: Record<string, number> = {};
  constructor(private readonly reporter: Reporter) {}
  lap(name: string): void {
    const now = performance.now();
    this.laps[name] = Math.round(now - this.last);
    this.last = now;
    this.reporter.debug(`${name} took ${this.laps[name]} ms`);
  }
  done(): Record<string, number> {
    return { ...this.laps, total: Math.round(performance.now() - this.started) };
  }
}

export interface RunDeps {
  docker: Docker;
  reporter: Reporter;
  home: Home;
  env: NodeJS.ProcessEnv;
  /** install SIGINT/SIGTERM handlers (the CLI does; tests drive the guard otherwise) */
  handleSignals: boolean;
  /** a job's stop (Ctrl-C of `run` with several trials): stops this run as a signal would */
  stop?: AbortSignal;
  /** where the container runs (a job shares one); default: the one --backend names, opened for this run */
  backend?: Backend;
}

export interface RunOutcome {
  summary: Summary;
  runDir: string;
  lines: string[];
  exitCode: number;
  /** layers built by this run (empty on a fully cached run) */
  built: string[];
}

/** One run as it goes: what each step found out, for the steps after it and the record. */
interface Run {
  opts: RunOptions;
  deps: RunDeps;
  plan: RunPlan;
  runId: string;
  startedAt: Date;
  timer: PhaseTimer;
  dir: RunDir;
  guard: RunGuard;
  /** the engine's images of the run's layers, looked up before anything is built */
  known: Map<string, ImageInfo>;
  images: Images;
  /** the job's backend, or this run's once opened (a Swarm one before the builds) */
  backend: Backend | undefined;
  /** the reference patch taken out of the case image (the reference agent) */
  extracted?: ExtractedPatch;
  gateway?: RunGateway;
  spec?: ContainerSpec;
  trial?: Trial;
  /** the `docker run` client's status (the Swarm task's exit code) */
  clientStatus: number;
  state: ContainerState;
  modelTotals?: RunTotals;
  /** why the run did not get to grade (not an interruption: the guard knows those) */
  failure?: UserError;
}

export async function runTask(opts: RunOptions, deps: RunDeps): Promise<RunOutcome> {
  const run = await startRun(opts, deps);
  try {
    await prepareTrial(run);
    await runTrial(run);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    if (!run.guard.stopped) run.failure = error;
  } finally {
    await tearDown(run);
  }
  return await recordOutcome(run);
}

/** Validation, the engine's first answers and the run folder; nothing is built or started yet. */
async function startRun(opts: RunOptions, deps: RunDeps): Promise<Run> {
  const { docker, reporter } = deps;
  const startedAt = new Date();
  const timer = new PhaseTimer(reporter);
  const plan = await validateRun(opts, { home: deps.home, env: deps.env, warn: reporter.warn });
  if (plan.mode === "sidecar") checkSidecarSource(plan.agent);
  else checkAgentSource(plan.agent);
  // A Swarm that is not there is said before any build, as a job says it before its first trial.
  const backend = deps.backend ?? (opts.backend === "swarm" ? await openBackend("swarm", docker, deps.env, reporter.debug, opts.constraints) : undefined);
  timer.lap("validation");
  const runId = opts.runId ?? newRunId(startedAt);
  // Before the run folder exists: a missing docker CLI or a dead engine leaves nothing behind.
  const [known, facts] = await Promise.all([lookUpLayers(docker, plan), engineFacts(docker)]);
  if (facts) {
    checkResources(opts.resources, facts);
    checkFreeSpace(facts.rootDir, deps.env);
  }
  const dir = createRunDir(opts.results, { task: plan.task.id, model: plan.model, agent: plan.agent.name, runId }, reporter.warn);
  const guard = new RunGuard(opts.runTimeout, reporter.warn, deps.handleSignals, deps.stop);
  const images: Images = { caseId: null, agentId: null, agentCmd: [], built: [] };
  return { opts, deps, plan, runId, startedAt, timer, dir, guard, known, images, backend, clientStatus: 0, state: { ...NOT_RUN } };
}

/** The layers, the reference patch, the backend's image, the model's gateway and the container's settings. */
async function prepareTrial(run: Run): Promise<void> {
  const { opts, deps, plan, guard, images, dir } = run;
  await buildLayers(deps, plan, guard, images, run.known, dir.path);
  run.timer.lap("layers");
  if (plan.agent.reference) {
    const patch = (plan.task.metadata as TaskMetadata).files.patch as string;
    run.extracted = await extractReferencePatch(deps.docker, images.caseId as string, patch, plan.platform);
  }
  if (guard.stopped) throw new UserError(msg.aborted(guard.reason ?? "stopped"));
  guard.phase = "the container run";
  run.backend ??= await openBackend(opts.backend ?? "local", deps.docker, deps.env, deps.reporter.debug, opts.constraints);
  const image = await run.backend.prepareImages(images.agentId as string, guard.abortSignal);
  if (images.agentStore) await run.backend.prepareAgentStore(images.agentStore, guard.abortSignal);
  if (guard.stopped) throw new UserError(msg.aborted(guard.reason ?? "stopped"));
  if (plan.served) run.gateway = await openRunGateway(plan.served, { runId: run.runId, runDir: dir.path, jobDir: opts.jobDir }, opts.budget, deps.reporter);
  // The patch agent's prediction is mounted where the reference patch would be, and kept with the run.
  const prediction = plan.agent.name === PATCH_AGENT ? opts.patchFile : undefined;
  if (prediction) copyFileSync(prediction, join(dir.path, "prediction.patch"));
  const referencePatch = run.extracted?.path ?? prediction;
  const sidecar = images.sidecarId ? { image: images.sidecarId, entrypoint: deps.home.entrypointBinary } : undefined;
  run.spec = containerSpec(opts, plan, deps.env, { runDir: dir, runId: run.runId, image, command: images.agentCmd, referencePatch, modelDir: run.gateway?.dir, agentStore: images.agentStore?.volume, sidecar });
}

/** Starts the trial on the backend and waits for it; a stop of the guard stops it. */
async function runTrial(run: Run): Promise<void> {
  const backend = run.backend as Backend;
  const trial = backend.start(run.spec as ContainerSpec, run.deps.reporter.container);
  run.trial = trial;
  run.guard.onStop(() => backend.stop(trial));
  run.timer.lap("container_start");
  const status = await trial.done;
  run.timer.lap("docker_run");
  run.guard.onStop(undefined);
  // The engine's reason is kept in the record (result.json's error_msg), not only on stderr.
  const refusal = trial.startError();
  if (refusal) throw new UserError(msg.containerNotStarted(refusal));
  run.clientStatus = status;
}

/** The trial's final state and results are read before it is removed; then the gateway stops. */
async function tearDown(run: Run): Promise<void> {
  const { opts, deps, guard, backend, trial } = run;
  const { reporter } = deps;
  guard.phase = "teardown";
  if (backend && trial?.id()) {
    run.state = await backend.inspect(trial);
    if (run.spec) for (const w of await backend.collectResults(trial, run.spec)) reporter.warn(w);
  }
  if (backend) for (const w of await backend.cleanup(trial, opts.keepContainer)) reporter.warn(w);
  const kept = trial?.id();
  if (opts.keepContainer && kept) reporter.info(msg.containerKept(kept.slice(0, 12)));
  // A backend opened for this run alone is closed with it; a job's is closed by the job.
  if (backend && !deps.backend) for (const w of await backend.close()) reporter.warn(w);
  guard.dispose();
  // The container is gone: no more calls can come. Stop serving, revoke the key.
  run.modelTotals = await run.gateway?.close();
  run.timer.lap("teardown");
}

/** result.json and summary.json, the warnings about how the run went, and the outcome. */
async function recordOutcome(run: Run): Promise<RunOutcome> {
  const { opts, plan, dir, guard, images, state } = run;
  const { reporter } = run.deps;
  if (state.oomKilled) reporter.warn(msg.oomWarning(opts.resources.memory));
  const agentSummary = agentRecord(plan.agent, images.agentCmd, dir.path, dir.archive, plan.served !== undefined);
  if (agentSummary.budget_refused_calls > 0) reporter.warn(msg.budgetStopped(opts.budget, agentSummary.budget_refused_calls));
  if (run.clientStatus && !guard.stopped) reporter.error(msg.containerFailed(state.exitCode ?? run.clientStatus));
  copyReferencePatch(plan, dir.path, run.extracted);
  run.extracted?.cleanup();
  const result = judgeResult(readContainerResult(dir.path, reporter.warn), {
    failure: run.failure?.message,
    interrupted: guard.stopped ? (guard.reason ?? "stopped") : undefined,
    state,
    memory: opts.resources.memory,
    disk: state.diskExceeded === undefined ? undefined : { bytes: state.diskExceeded, limit: opts.resources.disk },
    error: reporter.error,
    answeredCalls: plan.served && plan.agent.usesModel ? (run.modelTotals?.answered ?? 0) : undefined,
    budgetRefused: agentSummary.budget_refused_calls,
    upstream: run.modelTotals && plan.agent.usesModel ? { lastFailed: run.modelTotals.agent_last_failed_upstream, first: run.modelTotals.first_upstream_error } : undefined,
  });
  const summary = recordRun({
    runDir: dir.path,
    task: plan.task.metadata,
    config: runConfig(opts, plan, toolTag(plan.registry, plan.task.id)),
    result,
    plugins: readPluginResults(dir.path, plan.plugins.selected, reporter.warn),
    diskUsage: await runDiskUsage(dir, state),
    runId: run.runId,
    startedAt: run.startedAt.toISOString(),
    container: containerRecord(images, state),
    interrupted: guard.reason ?? null,
    timings: run.timer.done(),
    model: run.modelTotals,
    provenance: {
      ssebench_version: VERSION,
      dataset: plan.task.dataset,
      agent: { name: plan.agent.name, version: plan.agent.version ?? VERSION, image: images.sidecarId ?? images.agentId },
      job: opts.job ?? null,
      task_dates: await readTaskDates(plan.task.case.folder),
      model: plan.served ? modelProvenance(plan.served.config, run.modelTotals?.answered_models ?? []) : null,
    },
    agentRun: agentSummary,
  });
  // The run folder is recorded even so (a failed build's log is in it): a job's trial points at it.
  if (run.failure) throw Object.assign(run.failure, { runDir: dir.path });
  const interrupted = guard.exitCode();
  const passed = summary.patch_result.status === "passed";
  const exitCode = interrupted ?? (opts.requirePass && !passed ? 1 : 0);
  return { summary, runDir: dir.path, lines: summaryLines(summary, dir.path), exitCode, built: images.built };
}

const NOT_RUN: ContainerState = { exitCode: null, oomKilled: false, startedAt: null, finishedAt: null };

function containerRecord(images: Images, state: ContainerState): ContainerRecord {
  return {
    image: images.agentId,
    case_image: images.caseId,
    exit_code: state.exitCode,
    oom_killed: state.oomKilled,
    started_at: state.startedAt,
    finished_at: state.finishedAt,
  };
}

function copyReferencePatch(plan: RunPlan, runDir: string, extracted: ExtractedPatch | undefined): void {
  if (extracted) return copyFileSync(extracted.path, join(runDir, "reference.patch"));
  const folder = plan.task.case.folder;
  const patch = (plan.task.metadata as TaskMetadata).files.patch;
  if (!folder || !patch) return;
  // The usual layout copies sse/<dir> to /ssebench/<dir>; other layouts simply get no copy.
  const candidate = join(folder, "sse", patch);
  if (existsSync(candidate)) copyFileSync(candidate, join(runDir, "reference.patch"));
}

async function runDiskUsage(run: RunDir, state: ContainerState): Promise<DiskUsage> {
  const [runDir, archive] = await diskUse([run.path, run.archive]);
  return { run_dir_bytes: runDir ?? null, archive_bytes: archive ?? null, container_bytes: state.diskBytes ?? null };
}
