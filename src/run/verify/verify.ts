/**
 * `ssebench dataset verify [TASK…]`: proves each task is gradable both ways. The reference agent
 * (the task's own fix) must pass every check the task has; the dummy agent (no change) must leave
 * a PoC triggering. Each run is a real `ssebench run --local`, logged to <output>/logs/<id>.<agent>.log;
 * the verdict goes to <output>/tasks/<id>.json.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describeCause, UserError } from "../../errors.ts";
import type { TaskMetadata } from "../../formats/manifest/manifest-types.ts";
import type { PatchResult, Summary } from "../../formats/run/summary.ts";
import type { Docker } from "../backends/docker.ts";
import type { Home } from "../home.ts";
import { auditAgentView, auditCaseImage } from "./image-audit.ts";
import { taskSecrets } from "./task-secrets.ts";
import { gradingCodeDigest, type RecordKey, recordKey } from "./record-key.ts";
import { msg } from "../messages.ts";
import { DEFAULTS, defaultCpus, defaultRunTimeout, type RunOptions } from "../options.ts";
import { runTask } from "../orchestrate.ts";
import { fileReporter, type Reporter } from "../reporter.ts";
import { NO_MODEL, newRunId } from "../record/results.ts";
import { type Disagreement, describeDisagreement, findDisagreements, mergeRepetitionFailures } from "./verify-repeat.ts";

export interface VerifyOptions {
  dir: string;
  tasks: string[];
  output: string;
  timeout: number;
  /** how many times each task is verified; the repetitions must agree (verify-repeat.ts) */
  repeat: number;
}

export interface AgentRun {
  agent: string;
  exit_code: number | null;
  seconds: number;
  log: string;
  run_dir: string | null;
  /** the case image's ID */
  image: string | null;
  /** the ID of the image the agent's container ran (the agent layer): what the leak audit reads as the agent */
  agent_image: string | null;
  result: PatchResult | null;
  failures: string[];
}

/** One repetition of a task's reference and dummy runs. */
export interface Repetition {
  runs: Record<string, AgentRun>;
  failures: string[];
}

export interface TaskVerdict {
  task: string;
  checks: string[];
  ok: boolean;
  seconds: number;
  /** the disagreements first, then every repetition's failures (verify-repeat.ts) */
  failures: string[];
  /** What the task's images leak to an agent, one line each (image-audit.ts). */
  leaks: string[];
  /** how long the leak audit took */
  audit_seconds: number;
  /** the first repetition's runs */
  runs: Record<string, AgentRun>;
  /** every repetition, in order (one without --repeat) */
  repetitions: Repetition[];
  /** the checks whose outcome differed between repetitions */
  disagreements: Disagreement[];
  /** the verification record's key of what was verified, taken before the runs (record-key.ts); null outside a checkout */
  key: RecordKey | null;
}

/** The checks a task's config gives it (spec dataset-catalog §2.1 `checks`). */
export function taskChecks(meta: TaskMetadata): string[] {
  const checks: string[] = [];
  if (meta.scripts.build) checks.push("build");
  if (meta.scripts.run && (meta.files.poc?.length ?? 0) > 0) checks.push("poc");
  if (meta.scripts.test) checks.push("function_test");
  if (meta.scripts.test && meta.files.future_test) checks.push("intent_test");
  return checks;
}

/** What the reference run must show: every check of the task ran and passed. */
export function referenceFailures(checks: readonly string[], p: PatchResult): string[] {
  const out: string[] = [];
  if (p.status !== "passed") out.push(`reference: graded ${p.status}${p.error_msg ? ` (${p.error_msg})` : ""}`);
  if (checks.includes("build") && p.build_success !== true) out.push("reference: the build did not pass");
  if (checks.includes("poc") && (p.pov_total === null || p.pov_passed !== p.pov_total)) {
    out.push(`reference: ${p.pov_passed ?? 0}/${p.pov_total ?? 0} PoCs stopped triggering`);
  }
  if (checks.includes("function_test") && p.func_test_success !== true) out.push("reference: the tests did not pass");
  if (checks.includes("intent_test") && p.intent_test_success !== true) out.push("reference: the hidden tests did not pass");
  return [...new Set(out)];
}

/** What the dummy run must show: the unchanged project builds and a PoC still triggers. */
export function dummyFailures(checks: readonly string[], p: PatchResult): string[] {
  if (!checks.includes("poc")) return ["dummy: the task has no PoC to trigger"];
  if (p.build_success === false) return ["dummy: the unchanged project does not build"];
  if (p.pov_total === null || p.pov_total === 0) return [`dummy: no PoC ran${p.error_msg ? ` (${p.error_msg})` : ""}`];
  if (p.pov_passed === p.pov_total) return ["dummy: no PoC triggers on the unchanged project"];
  return [];
}

export function listTaskFolders(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, "sse", "config.yaml")))
    .map((e) => e.name)
    .sort();
}

function runOptions(v: VerifyOptions, task: string, agent: string, runsDir: string, runId: string): RunOptions {
  return {
    task,
    agent,
    model: undefined,
    local: v.dir,
    catalog: undefined,
    plugins: undefined,
    mode: "sandbox",
    difficulty: DEFAULTS.difficulty,
    timeout: v.timeout,
    gradingTimeout: v.timeout,
    runTimeout: defaultRunTimeout(v.timeout),
    egress: "restricted",
    runId,
    requirePass: false,
    budget: DEFAULTS.budget,
    results: runsDir,
    keepContainer: false,
    build: false,
    resources: { cpus: defaultCpus(), memory: DEFAULTS.memory, pids_limit: DEFAULTS.pidsLimit, disk: DEFAULTS.disk },
  };
}

interface RunRecordOfVerify {
  run: AgentRun;
  summary?: Summary;
  /** 130/143 when Ctrl-C or SIGTERM stopped the run: verify stops too */
  interrupted?: number;
}

async function verifyRun(v: VerifyOptions, task: string, agent: string, rep: number, deps: FullDeps): Promise<RunRecordOfVerify> {
  const log = join(v.output, "logs", v.repeat > 1 ? `${task}.${agent}.${rep}.log` : `${task}.${agent}.log`);
  rmSync(log, { force: true });
  const started = performance.now();
  const run: AgentRun = { agent, exit_code: null, seconds: 0, log, run_dir: null, image: null, agent_image: null, result: null, failures: [] };
  // Chosen here, so a run that fails after its folder exists (e.g. a case image build, whose log
  // is kept there) still points at it.
  const runsDir = join(v.output, "runs");
  const runId = newRunId();
  try {
    const reporter = deps.reporterFor(log);
    const outcome = await runTask(runOptions(v, task, agent, runsDir, runId), { ...deps, reporter, handleSignals: deps.handleSignals ?? false });
    run.exit_code = outcome.summary.container.exit_code;
    run.run_dir = outcome.runDir;
    run.image = outcome.summary.container.case_image;
    run.agent_image = outcome.summary.container.image;
    run.result = outcome.summary.patch_result;
    const stopped = outcome.summary.interrupted === "SIGINT" || outcome.summary.interrupted === "SIGTERM";
    return { run, summary: outcome.summary, interrupted: stopped ? outcome.exitCode : undefined };
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    run.failures.push(`${agent}: ${error.message}`);
    const runDir = join(runsDir, task, NO_MODEL, agent, runId);
    if (existsSync(runDir)) run.run_dir = runDir;
    return { run };
  } finally {
    run.seconds = seconds(started);
  }
}

export interface VerifyDeps {
  docker: Docker;
  home: Home;
  env: NodeJS.ProcessEnv;
  reporterFor?: (log: string) => Reporter;
  /** called after each task, for progress (and its record: verify waits for it) */
  onTask?: (verdict: TaskVerdict) => void | Promise<void>;
  /** called after each repetition of a task when there are several */
  onRepetition?: (task: string, rep: number, repetition: Repetition, seconds: number) => void;
  /** Ctrl-C stops the current run (recorded) and then verify; the CLI sets it */
  handleSignals?: boolean;
}

export interface VerifyOutcome {
  verdicts: TaskVerdict[];
  /** the exit status when a signal stopped verify (130/143) */
  interrupted: number | undefined;
}

type FullDeps = VerifyDeps & { reporterFor: (log: string) => Reporter };

interface RepetitionOutcome {
  repetition: Repetition;
  meta: TaskMetadata | undefined;
  image: string | null;
  interrupted?: number;
}

/** One reference and one dummy run of a task, judged on their own. */
async function verifyOnce(v: VerifyOptions, task: string, rep: number, deps: FullDeps): Promise<RepetitionOutcome> {
  const reference = await verifyRun(v, task, "reference", rep, deps);
  const runs = { reference: reference.run };
  if (reference.interrupted) return { repetition: { runs, failures: [] }, meta: undefined, image: null, interrupted: reference.interrupted };
  const dummy = await verifyRun(v, task, "dummy", rep, deps);
  const both = { reference: reference.run, dummy: dummy.run };
  if (dummy.interrupted) return { repetition: { runs: both, failures: [] }, meta: undefined, image: null, interrupted: dummy.interrupted };
  const meta = (reference.summary ?? dummy.summary)?.task as TaskMetadata | undefined;
  const checks = meta ? taskChecks(meta) : [];
  if (reference.run.result) reference.run.failures.push(...referenceFailures(checks, reference.run.result));
  if (dummy.run.result) dummy.run.failures.push(...dummyFailures(checks, dummy.run.result));
  const failures = [...reference.run.failures, ...dummy.run.failures];
  return { repetition: { runs: both, failures }, meta, image: reference.run.image ?? dummy.run.image };
}

export async function verifyTasks(v: VerifyOptions, deps: VerifyDeps): Promise<VerifyOutcome> {
  const dir = resolve(v.dir);
  if (!existsSync(dir)) throw new UserError(`${dir}: no such dataset folder`);
  if (!statSync(dir).isDirectory()) throw new UserError(`${dir}: not a folder; --dir takes a dataset folder`);
  const all = listTaskFolders(dir);
  const unknown = v.tasks.filter((t) => !all.includes(t));
  if (unknown.length > 0) throw new UserError(msg.verifyUnknownTasks(dir, unknown));
  const tasks = v.tasks.length > 0 ? v.tasks : all;
  if (tasks.length === 0) throw new UserError(msg.verifyNoTasks(dir));
  try {
    for (const sub of ["logs", "tasks", "runs"]) mkdirSync(join(v.output, sub), { recursive: true });
  } catch (cause) {
    throw new UserError(`${v.output}: cannot create the output folder: ${describeCause(cause)}`);
  }
  const full: FullDeps = { ...deps, reporterFor: deps.reporterFor ?? fileReporter };
  const verdicts: TaskVerdict[] = [];
  const grading = deps.home.source === "embedded" ? undefined : gradingCodeDigest(deps.home.root);
  for (const task of tasks) {
    const key = grading === undefined ? null : recordKey(deps.home.root, join(dir, task), grading);
    const started = performance.now();
    const repetitions: Repetition[] = [];
    let meta: TaskMetadata | undefined;
    let image: string | null = null;
    for (let rep = 1; rep <= v.repeat; rep++) {
      const repStarted = performance.now();
      const once = await verifyOnce({ ...v, dir }, task, rep, full);
      if (once.interrupted) return { verdicts, interrupted: once.interrupted };
      repetitions.push(once.repetition);
      meta ??= once.meta;
      image ??= once.image;
      if (v.repeat > 1) deps.onRepetition?.(task, rep, once.repetition, seconds(repStarted));
    }
    const agents = ["reference", "dummy"];
    const disagreements = findDisagreements(agents, repetitions.map((r) => Object.fromEntries(agents.map((a) => [a, r.runs[a]?.result?.checks]))));
    const failures = [...disagreements.map(describeDisagreement), ...mergeRepetitionFailures(repetitions.map((r) => r.failures))];
    const auditStarted = performance.now();
    const leaks = image && meta ? await auditImages(join(dir, task), task, image, repetitions[0]?.runs.dummy?.agent_image ?? null, meta, deps) : [];
    const auditSeconds = seconds(auditStarted);
    const verdict: TaskVerdict = {
      task,
      checks: meta ? taskChecks(meta) : [],
      ok: failures.length === 0 && leaks.length === 0,
      seconds: seconds(started),
      failures,
      leaks,
      audit_seconds: auditSeconds,
      runs: repetitions[0]?.runs ?? {},
      repetitions,
      disagreements,
      key,
    };
    writeFileSync(join(v.output, "tasks", `${task}.json`), `${JSON.stringify(verdict, null, 2)}\n`);
    verdicts.push(verdict);
    await deps.onTask?.(verdict);
  }
  return { verdicts, interrupted: undefined };
}

/** The leak audit of the case image (as root) and of what the dummy's container ran (as the agent). */
async function auditImages(folder: string, task: string, image: string, agentImage: string | null, meta: TaskMetadata, deps: VerifyDeps): Promise<string[]> {
  let secrets;
  try {
    secrets = await taskSecrets(folder, task, meta, deps.env);
  } catch (error) {
    return [msg.leakAuditFailed(image, error instanceof Error ? error.message : String(error))];
  }
  const leaks = await auditCaseImage(deps.docker, image, meta.source, secrets);
  if (agentImage) leaks.push(...(await auditAgentView(deps.docker, agentImage, meta.source, secrets)));
  return [...new Set(leaks)];
}

function seconds(since: number): number {
  return Math.round((performance.now() - since) / 100) / 10;
}

/** One table row per task: TASK, REFERENCE, DUMMY, SECONDS, RESULT (a grade every repetition had once, with ×N). */
export function verdictRow(v: TaskVerdict): string[] {
  const grade = (r: AgentRun | undefined) => {
    if (!r?.result) return "not run";
    const p = r.result;
    const pocs = p.pov_total === null ? "" : ` (PoC ${p.pov_passed}/${p.pov_total} fixed)`;
    return `${p.status}${pocs}`;
  };
  const reps = v.repetitions.length > 0 ? v.repetitions : [{ runs: v.runs, failures: [] }];
  const grades = (agent: string) => {
    const each = [...new Set(reps.map((r) => grade(r.runs[agent])))];
    return each.length === 1 && reps.length > 1 ? `${each[0]} ×${reps.length}` : each.join(" | ");
  };
  return [v.task, grades("reference"), grades("dummy"), v.seconds.toFixed(1), verdictResult(v)];
}

function verdictResult(v: TaskVerdict): string {
  if (v.ok) return "ok";
  if (v.disagreements.length > 0) return `FLAKY: ${v.failures[0]}`;
  return `FAILED: ${v.failures[0] ?? `case image leak: ${v.leaks[0]}`}`;
}
