/**
 * Grades the captured patch: every check in a fresh scratch copy of the pristine tree with the
 * patch applied, scripts run as sse-runner (docs/container-contract.md §7). A crash of the grader
 * or a missing script is reported as such (error_type), never as the agent's failure.
 */
import { join } from "node:path";
import { type CheckRecord, deriveStatus, emptyVerdicts, failedByAgent, type FailureType, notGraded, type PatchResult, type Verdicts } from "../../formats/run/result.ts";
import { AgentResources, ApplyFailed, Checks, GradingTimeout, type ScriptRun, type Tree } from "./checks.ts";
import { log } from "../log.ts";
import { msg } from "../messages.ts";
import type { TaskConfig } from "../task.ts";
import type { Account } from "../privilege/users.ts";

export interface GradeContext {
  taskRoot: string;
  task: TaskConfig;
  pristine: string;
  scratch: string;
  results: string;
  runner: Account;
  patch: Uint8Array;
  inherited: Record<string, string | undefined>;
  checkTimeoutMs: number;
  gradingTimeoutMs: number;
  graceMs: number;
  /** Called with each finished check, so an interrupt can report what is known. */
  onCheck?: (c: CheckRecord) => void;
}

export async function grade(ctx: GradeContext): Promise<{ result: PatchResult; evaluatorTimeout: boolean }> {
  const run = new Checks({ ...ctx, logDir: join(ctx.results, "grading"), deadline: performance.now() + ctx.gradingTimeoutMs, markLogs: true });
  run.reset();
  try {
    const out = await gradeWith(ctx, run);
    // Whatever the verdict, result.json says which files of the change grading did not apply.
    out.result.set_aside = await run.setAsideList();
    return out;
  } finally {
    run.cleanup();
  }
}

async function gradeWith(ctx: GradeContext, run: Checks): Promise<{ result: PatchResult; evaluatorTimeout: boolean }> {
  const v: Verdicts = emptyVerdicts();
  let firstFailure: Failure | undefined;
  const fail = (m: string, logText: string | null, run?: ScriptRun) => (firstFailure ??= { msg: m, log: logText, type: run?.record.status === "timeout" ? "check_timeout" : null });
  const checks = run.records;

  const { scripts, files } = ctx.task;
  try {
    let built: Tree;
    try {
      built = await run.freshTree();
    } catch (e) {
      if (!(e instanceof ApplyFailed)) throw e;
      const result: PatchResult = { status: "failed", ...emptyVerdicts(), build_success: false, func_test_success: false, intent_test_success: false, error_msg: msg.applyFailed(), error_log: e.message, error_type: null, checks, set_aside: [] };
      return { result, evaluatorTimeout: false };
    }
    if (scripts.build) {
      const b = await run.build(built);
      v.build_success = b.state === "passed";
      // Does the task build at all here? If not, the environment failed, not the agent.
      if (b.state === "broken") return { result: notGraded("infra", msg.brokenWithoutChange("build"), checks, b.control!.log), evaluatorTimeout: false };
      if (b.state === "failed") {
        fail(msg.buildFailed(), b.run.log, b.run);
        return { result: finish(v, checks, firstFailure), evaluatorTimeout: false };
      }
    }
    if (scripts.run && files.poc.length > 0) {
      const p = await run.pocs(built, false);
      v.pov_total = p.total;
      v.pov_passed = p.passed;
      if (p.firstFailure) fail(msg.pocFailed(p.firstFailure.poc), p.firstFailure.run.log, p.firstFailure.run);
    }
    if (scripts.test) {
      const t = await run.functionTest();
      v.func_test_success = t.state === "passed";
      if (t.state === "broken") return { result: notGraded("infra", msg.brokenWithoutChange("function test"), checks, t.control!.log), evaluatorTimeout: false };
      if (t.state === "failed") fail(msg.funcFailed(), t.run.log, t.run);
    }
    if (scripts.test && files.futureTest) {
      const i = await run.intentTest();
      v.intent_test_success = i.applied && i.run.ok;
      if (!i.applied) fail(msg.intentFailed(), `hidden tests do not apply: ${i.error}`);
      else if (!i.run.ok) fail(msg.intentFailed(), i.run.log, i.run);
    }
    return { result: finish(v, checks, firstFailure), evaluatorTimeout: false };
  } catch (e) {
    if (e instanceof GradingTimeout) {
      // The grading time ran out in a check of the agent's tree: that check failed (check_timeout).
      const hung = checks.find((c) => c.status === "timeout" && c.tree === "patched");
      const environmentHung = checks.some((c) => c.status === "timeout" && c.tree === "original");
      if (hung && !environmentHung) return { result: timedOut(ctx, v, checks, hung), evaluatorTimeout: false };
      return { result: notGraded("grading_timeout", msg.gradingTimeout(ctx.gradingTimeoutMs / 1000), checks), evaluatorTimeout: true };
    }
    if (e instanceof AgentResources) return { result: failedByAgent("agent_resources", e.message, null, checks), evaluatorTimeout: false };
    const detail = e instanceof Error ? e.message : String(e);
    log("ERROR", "Grader error", { err: detail });
    return { result: notGraded("grader", msg.graderCrash(detail), checks), evaluatorTimeout: false };
  }
}

interface Failure {
  msg: string;
  log: string | null;
  type: FailureType | null;
}

function finish(v: Verdicts, checks: CheckRecord[], first: Failure | undefined): PatchResult {
  const status = deriveStatus(v);
  const errorType = status === "error" ? "grader" : status === "failed" ? (first?.type ?? null) : null;
  return { status, ...v, error_msg: first?.msg ?? (status === "error" ? msg.noCheck() : null), error_log: first?.log ?? null, error_type: errorType, checks, set_aside: [] };
}

/** The verdicts so far, the check that hung counted as failed. */
function timedOut(ctx: GradeContext, v: Verdicts, checks: CheckRecord[], hung: CheckRecord): PatchResult {
  const messages = { build: msg.buildFailed(), poc: msg.pocFailed(hung.poc ?? ""), function_test: msg.funcFailed(), intent_test: msg.intentFailed() };
  if (hung.check === "build") v.build_success = false;
  if (hung.check === "function_test") v.func_test_success = false;
  if (hung.check === "intent_test") v.intent_test_success = false;
  if (hung.check === "poc") {
    v.pov_total = ctx.task.files.poc.length;
    v.pov_passed = checks.filter((c) => c.check === "poc" && c.status === "passed").length;
  }
  return finish(v, checks, { msg: messages[hung.check], log: null, type: "check_timeout" });
}
