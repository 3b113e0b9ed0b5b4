/**
 * `ssebench run` end to end: validate (§4.2), create the run folder, make sure the case, tool and
 * agent layers are current, run the container with no network under the run guard, tear down,
 * and record result.json + summary.json.
 */
import { copyFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import type { RunEnv } from "../contract/env.ts";
import { ARCHIVE_MOUNT } from "../contract/paths.ts";
import { UserError } from "../errors.ts";
import type { TaskMetadata } from "../formats/manifest/manifest-types.ts";
import type { ContainerRecord, DiskUsage, RunConfig, Summary } from "../formats/run/summary.ts";
import { caseBaseImages, ensureCaseImage } from "./case-image.ts";
import type { ContainerSpec, ContainerState } from "./container.ts";
import type { Backend, Trial } from "./backend.ts";
import { openBackend } from "./open-backend.ts";
import { saveDigestCache } from "./content-hash.ts";
import { checkFreeSpace, checkResources, engineFacts } from "./engine-check.ts";
import type { Docker } from "./docker.ts";
import { RunGuard } from "./guard.ts";
import type { Home } from "./home.ts";
import { buildLogFile, ensureLayer, IMAGE_LABELS, type ImageInfo, inspectImages } from "./layers.ts";
import { msg } from "./messages.ts";
import type { RunTotals } from "../gateway/keys.ts";
import { openRunGateway, type RunGateway } from "./model-gateway.ts";
import type { RunOptions } from "./options.ts";
import { judgeResult, readContainerResult, readPluginResults, recordRun, summaryLines } from "./record.ts";
import { type ExtractedPatch, extractReferencePatch } from "./reference-patch.ts";
import { diskUse } from "./safe-read.ts";
import type { Reporter } from "./reporter.ts";
import { createRunDir, newRunId, type RunDir } from "./results.ts";
import { pickRunUids } from "./run-uids.ts";
import { PATCH_AGENT } from "./agents.ts";
import { agentRecord } from "./agent-record.ts";
import { ensureNpmCli, npmBuildContext, npmCacheDir } from "./agent-npm.ts";
import { agentFilesSpec, agentLayerInputs, agentLayerSpec, checkAgentImage, checkAgentSource, imageConfigs } from "./agent-layer.ts";
import { agentFilesTag, agentTag, toolInputs, toolLayerSpec, toolTag } from "./tool-layers.ts";
import { type RunPlan, validateRun } from "./validate.ts";
import { VERSION } from "../version.ts";

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

interface Images {
  caseId: string | null;
  agentId: string | null;
  /** the agent's command (its layer's CMD), passed after the pinned entrypoint */
  agentCmd: string[];
  built: string[];
}

function runConfig(opts: RunOptions, plan: RunPlan, tool: string): RunConfig {
  return {
    agent: plan.agent.name,
    model: plan.model,
    mode: opts.mode,
    timeout: opts.timeout,
    grading_timeout: opts.gradingTimeout,
    run_timeout: opts.runTimeout,
    difficulty: opts.difficulty,
    tool_layer: tool,
    egress: opts.egress,
    reference_run: plan.agent.reference,
    plugins: plan.plugins.selected,
    resources: opts.resources,
    keep_container: opts.keepContainer,
  };
}

/** One docker call for the three layers and the case image's bases; also the first contact with the engine. */
function lookUpLayers(docker: Docker, plan: RunPlan): Promise<Map<string, ImageInfo>> {
  return inspectImages(docker, [
    plan.task.case.tag,
    toolTag(plan.registry, plan.task.id),
    agentFilesTag(plan.registry, plan.agent),
    agentTag(plan.registry, plan.agent, plan.task.id),
    ...caseBaseImages(plan.task.case, plan.registry),
  ]);
}

/** Builds what is out of date; a failed build's output is kept in the run folder. */
async function buildLayers(deps: RunDeps, plan: RunPlan, guard: RunGuard, images: Images, known: Map<string, ImageInfo>, runDir: string): Promise<void> {
  const { docker, reporter, home } = deps;
  const tTag = toolTag(plan.registry, plan.task.id);
  const aTag = agentTag(plan.registry, plan.agent, plan.task.id);
  guard.phase = "the image builds";
  const task = { [IMAGE_LABELS.task]: plan.task.id };
  const caseLabels = { ...task, [IMAGE_LABELS.dataset]: plan.task.dataset.name };
  const caseImage = await ensureCaseImage(docker, plan.task.case, plan.registry, reporter, guard.abortSignal, known, plan.platform, buildLogFile(runDir, "case image"), home.root, caseLabels);
  images.caseId = caseImage.id;
  if (caseImage.built) images.built.push(caseImage.tag);
  const inputs = toolInputs(home, caseImage.id, plan.plugins.selected);
  let tool = { id: known.get(tTag)?.id ?? "", built: false, tag: tTag };
  if (known.get(tTag)?.inputs !== inputs) {
    const { spec, cleanup } = toolLayerSpec(home, tTag, caseImage.id, plan.plugins.selected, inputs);
    try {
      tool = await ensureLayer(docker, { ...spec, log: buildLogFile(runDir, spec.layer), labels: task }, known.get(tTag), reporter, guard.abortSignal);
    } finally {
      cleanup();
    }
    images.built.push(tTag);
  } else reporter.info(msg.layerCached("tool layer", tTag));
  await buildAgentLayer(deps, plan, guard, images, known, tool.id, runDir);
  saveDigestCache();
}

/** The agent's files image, then the agent layer on the tool layer (agent-layer.ts); both checked. */
async function buildAgentLayer(deps: RunDeps, plan: RunPlan, guard: RunGuard, images: Images, known: Map<string, ImageInfo>, toolId: string, runDir: string): Promise<void> {
  const { docker, reporter } = deps;
  const fTag = agentFilesTag(plan.registry, plan.agent);
  const filesSpec = agentFilesSpec(plan.agent, fTag);
  let context: { context: string; cleanup: () => void } | undefined;
  const npm = plan.agent.npm;
  if (npm && known.get(fTag)?.inputs !== filesSpec.inputs) {
    const dir = await ensureNpmCli(npm, deps.env, (spec) => reporter.info(msg.npmInstalling(spec, npmCacheDir(deps.env, npm))));
    context = npmBuildContext(plan.agent.dir, npm, dir);
  }
  let files: Awaited<ReturnType<typeof ensureLayer>>;
  try {
    const labels = { [IMAGE_LABELS.agent]: plan.agent.name };
    const spec = { ...filesSpec, log: buildLogFile(runDir, filesSpec.layer), labels, ...(context ? { context: context.context } : {}) };
    files = await ensureLayer(docker, spec, known.get(fTag), reporter, guard.abortSignal);
  } finally {
    context?.cleanup();
  }
  if (files.built) images.built.push(fTag);
  const aTag = agentTag(plan.registry, plan.agent, plan.task.id);
  const inputs = agentLayerInputs(files.id, toolId);
  const cached = known.get(aTag);
  if (cached && cached.inputs === inputs) {
    reporter.info(msg.layerCached("agent layer", aTag));
    images.agentId = cached.id;
    images.agentCmd = cached.cmd;
    return;
  }
  const [filesConfig = {}, toolConfig = {}] = await imageConfigs(docker, [files.id, toolId]);
  const checked = checkAgentImage(plan.agent, filesConfig, toolConfig);
  const { spec, cleanup } = agentLayerSpec(aTag, toolId, files.id, checked, inputs);
  try {
    const labels = { [IMAGE_LABELS.task]: plan.task.id, [IMAGE_LABELS.agent]: plan.agent.name };
    const agent = await ensureLayer(docker, { ...spec, log: buildLogFile(runDir, spec.layer), labels }, undefined, reporter, guard.abortSignal);
    images.built.push(aTag);
    images.agentId = agent.id;
    images.agentCmd = checked.cmd;
  } finally {
    cleanup();
  }
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

/** The `docker run` settings of a run (spec §4.5): environment, mounts, labels, limits. */
function containerSpec(
  opts: RunOptions,
  plan: RunPlan,
  hostEnv: NodeJS.ProcessEnv,
  run: { runDir: RunDir; runId: string; image: string; command: string[]; referencePatch: string | undefined; modelDir?: string },
): ContainerSpec {
  const env: RunEnv = {
    SSE_ARCHIVE: ARCHIVE_MOUNT,
    SSE_DIFFICULTY: String(opts.difficulty),
    TIMEOUT: String(opts.timeout),
    SSE_GRADING_TIMEOUT: String(opts.gradingTimeout),
    ...pickRunUids(),
  };
  if (plan.served) env.SSE_MODEL_NAME = plan.served.config.name;
  if (plan.plugins.env !== undefined) env.SSE_PLUGINS = plan.plugins.env;
  if (hostEnv.SSEBENCH_DEBUG) env.SSE_DEBUG = "1";
  const labels: Record<string, string> = {
    "ssebench.results": run.runDir.path,
    "ssebench.task-id": plan.task.id,
    "ssebench.model": plan.model,
    "ssebench.agent": plan.agent.name,
    "ssebench.run-id": run.runId,
  };
  if (plan.agent.reference) labels["ssebench.reference-run"] = "true";
  return {
    image: run.image,
    runDir: run.runDir.path,
    archiveDir: run.runDir.archive,
    env,
    labels,
    resources: opts.resources,
    platform: plan.platform,
    referencePatch: run.referencePatch,
    command: run.command,
    modelDir: run.modelDir,
  };
}

async function runDiskUsage(run: RunDir): Promise<DiskUsage> {
  const [runDir, archive] = await diskUse([run.path, run.archive]);
  return { run_dir_bytes: runDir ?? null, archive_bytes: archive ?? null };
}

export async function runTask(opts: RunOptions, deps: RunDeps): Promise<RunOutcome> {
  const { docker, reporter } = deps;
  const startedAt = new Date();
  const timer = new PhaseTimer(reporter);
  const plan = await validateRun(opts, { home: deps.home, env: deps.env, warn: reporter.warn });
  checkAgentSource(plan.agent);
  // A Swarm that is not there is said before any build, as a job says it before its first trial.
  const early = deps.backend ?? (opts.backend === "swarm" ? await openBackend("swarm", docker, deps.env, reporter.debug, opts.constraints) : undefined);
  timer.lap("validation");
  const runId = opts.runId ?? newRunId(startedAt);
  // Before the run folder exists: a missing docker CLI or a dead engine leaves nothing behind.
  const [known, facts] = await Promise.all([lookUpLayers(docker, plan), engineFacts(docker)]);
  if (facts) {
    checkResources(opts.resources, facts);
    checkFreeSpace(facts.rootDir, deps.env);
  }
  const run = createRunDir(opts.results, { task: plan.task.id, model: plan.model, agent: plan.agent.name, runId }, reporter.warn);
  const config = runConfig(opts, plan, toolTag(plan.registry, plan.task.id));
  const guard = new RunGuard(opts.runTimeout, reporter.warn, deps.handleSignals, deps.stop);
  const images: Images = { caseId: null, agentId: null, agentCmd: [], built: [] };
  let trial: Trial | undefined;
  let state: ContainerState = { exitCode: null, oomKilled: false, startedAt: null, finishedAt: null };
  let extracted: ExtractedPatch | undefined;
  let failure: UserError | undefined;
  let clientStatus = 0;
  let gateway: RunGateway | undefined;
  let modelTotals: RunTotals | undefined;
  let backend: Backend | undefined = early;
  let spec: ContainerSpec | undefined;
  try {
    await buildLayers(deps, plan, guard, images, known, run.path);
    timer.lap("layers");
    if (plan.agent.reference) {
      const patch = (plan.task.metadata as TaskMetadata).files.patch as string;
      extracted = await extractReferencePatch(docker, images.caseId as string, patch, plan.platform);
    }
    if (guard.stopped) throw new UserError(msg.aborted(guard.reason ?? "stopped"));
    guard.phase = "the container run";
    backend ??= await openBackend(opts.backend ?? "local", docker, deps.env, reporter.debug, opts.constraints);
    const image = await backend.prepareImages(images.agentId as string, guard.abortSignal);
    if (guard.stopped) throw new UserError(msg.aborted(guard.reason ?? "stopped"));
    if (plan.served) gateway = await openRunGateway(plan.served, runId, run.path, opts.budget);
    // The patch agent's prediction is mounted where the reference patch would be, and kept with the run.
    const prediction = plan.agent.name === PATCH_AGENT ? opts.patchFile : undefined;
    if (prediction) copyFileSync(prediction, join(run.path, "prediction.patch"));
    spec = containerSpec(opts, plan, deps.env, { runDir: run, runId, image, command: images.agentCmd, referencePatch: extracted?.path ?? prediction, modelDir: gateway?.dir });
    const started = backend.start(spec, reporter.container);
    trial = started;
    const running = backend;
    guard.onStop(() => running.stop(started));
    timer.lap("container_start");
    const status = await started.done;
    timer.lap("docker_run");
    guard.onStop(undefined);
    // The engine's reason is kept in the record (result.json's error_msg), not only on stderr.
    const refusal = started.startError();
    if (refusal) throw new UserError(msg.containerNotStarted(refusal));
    clientStatus = status;
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    if (!guard.stopped) failure = error;
  } finally {
    guard.phase = "teardown";
    // The trial's final state and results are read before it is removed.
    if (backend && trial?.id()) {
      state = await backend.inspect(trial);
      if (spec) for (const w of await backend.collectResults(trial, spec)) reporter.warn(w);
    }
    if (backend) for (const w of await backend.cleanup(trial, opts.keepContainer)) reporter.warn(w);
    const kept = trial?.id();
    if (opts.keepContainer && kept) reporter.info(msg.containerKept(kept.slice(0, 12)));
    // A backend opened for this run alone is closed with it; a job's is closed by the job.
    if (backend && !deps.backend) for (const w of await backend.close()) reporter.warn(w);
    guard.dispose();
    // The container is gone: no more calls can come. Stop serving, revoke the key.
    modelTotals = await gateway?.close();
    timer.lap("teardown");
  }
  if (state.oomKilled) reporter.warn(msg.oomWarning(opts.resources.memory));
  const agentSummary = agentRecord(plan.agent, images.agentCmd, run.path, run.archive, plan.served !== undefined);
  if (agentSummary.budget_refused_calls > 0) reporter.warn(msg.budgetStopped(opts.budget, agentSummary.budget_refused_calls));
  if (clientStatus && !guard.stopped) reporter.error(msg.containerFailed(state.exitCode ?? clientStatus));
  copyReferencePatch(plan, run.path, extracted);
  extracted?.cleanup();

  const result = judgeResult(readContainerResult(run.path, reporter.warn), {
    failure: failure?.message,
    interrupted: guard.stopped ? (guard.reason ?? "stopped") : undefined,
    state,
    memory: opts.resources.memory,
    error: reporter.error,
    answeredCalls: plan.served && plan.agent.usesModel ? (modelTotals?.answered ?? 0) : undefined,
  });
  const container: ContainerRecord = {
    image: images.agentId,
    case_image: images.caseId,
    exit_code: state.exitCode,
    oom_killed: state.oomKilled,
    started_at: state.startedAt,
    finished_at: state.finishedAt,
  };
  const summary = recordRun({
    runDir: run.path,
    task: plan.task.metadata,
    config,
    result,
    plugins: readPluginResults(run.path, plan.plugins.selected, reporter.warn),
    diskUsage: await runDiskUsage(run),
    runId,
    startedAt: startedAt.toISOString(),
    container,
    interrupted: guard.reason ?? null,
    timings: timer.done(),
    model: modelTotals,
    provenance: {
      ssebench_version: VERSION,
      dataset: plan.task.dataset,
      agent: { name: plan.agent.name, version: plan.agent.version ?? VERSION, image: images.agentId },
      job: opts.job ?? null,
    },
    agentRun: agentSummary,
  });
  // The run folder is recorded even so (a failed build's log is in it): a job's trial points at it.
  if (failure) throw Object.assign(failure, { runDir: run.path });
  const interrupted = guard.exitCode();
  const passed = summary.patch_result.status === "passed";
  const exitCode = interrupted ?? (opts.requirePass && !passed ? 1 : 0);
  return { summary, runDir: run.path, lines: summaryLines(summary, run.path), exitCode, built: images.built };
}
