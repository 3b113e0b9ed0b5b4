/**
 * Grades the captured patch: every check in a fresh scratch copy of the pristine tree with the
 * patch applied, scripts run as sse-runner (docs/container-contract.md §7). A crash of the grader
 * or a missing script is reported as such (error_type), never as the agent's failure.
 */
import { mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { type CheckName, type CheckRecord, deriveStatus, emptyVerdicts, notGraded, type PatchResult, type Verdicts } from "../formats/result.ts";
import { childEnv } from "./child-env.ts";
import { log } from "./log.ts";
import { msg } from "./messages.ts";
import { capture, start } from "./processes.ts";
import type { TaskConfig } from "./task.ts";
import { killUserProcesses } from "./user-processes.ts";
import type { Account } from "./users.ts";

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

class GradingTimeout extends Error {}
class GraderError extends Error {}
class ApplyFailed extends Error {}

const LOG_TAIL = 8000;

export async function grade(ctx: GradeContext): Promise<{ result: PatchResult; evaluatorTimeout: boolean }> {
  const checks: CheckRecord[] = [];
  const deadline = performance.now() + ctx.gradingTimeoutMs;
  const v: Verdicts = emptyVerdicts();
  let firstFailure: { msg: string; log: string | null } | undefined;
  const fail = (m: string, logText: string | null) => (firstFailure ??= { msg: m, log: logText });
  const gradingDir = join(ctx.results, "grading");
  mkdirSync(gradingDir, { recursive: true, mode: 0o755 });
  rmSync(ctx.scratch, { recursive: true, force: true });
  mkdirSync(ctx.scratch, { recursive: true, mode: 0o711 });
  let trees = 0;

  const freshTree = async (name: string, withPatch = true) => {
    const dir = join(ctx.scratch, `${++trees}-${name}`);
    const tree = join(dir, "tree");
    const home = join(dir, "home");
    mkdirSync(home, { recursive: true, mode: 0o700 });
    const cp = await capture(["cp", "-a", ctx.pristine, tree]);
    if (!cp.ok) throw new GraderError(`copying the pristine tree: ${cp.stderr.trim()}`);
    const own = await capture(["chown", "-R", "-h", `${ctx.runner.uid}:${ctx.runner.gid}`, dir]);
    if (!own.ok) throw new GraderError(`handing the scratch tree to ${ctx.runner.name}: ${own.stderr.trim()}`);
    if (withPatch && new TextDecoder().decode(ctx.patch).trim() !== "") {
      const r = await applyAsRunner(ctx, tree, home, ctx.patch, ["--binary"]);
      if (!r.ok) throw new ApplyFailed((r.stderr || r.stdout).trim());
    }
    return { tree, home };
  };

  const script = async (check: CheckName, label: string, rel: string, args: string[], where: { tree: string; home: string }, poc: string | null, tree: CheckRecord["tree"] = "patched") => {
    const path = join(ctx.taskRoot, rel);
    let st;
    try {
      st = statSync(path);
    } catch {
      st = undefined;
    }
    if (!st?.isFile() || (st.mode & 0o111) === 0) throw new GraderError(msg.scriptMissing(check, path));
    const left = deadline - performance.now();
    if (left <= 0) throw new GradingTimeout();
    const limit = Math.min(ctx.checkTimeoutMs, left);
    const logPath = join(gradingDir, `${label}.log`);
    const env = childEnv(ctx.inherited, ctx.runner, ["SSE_DIFFICULTY"], { SSE_SOURCE: where.tree, SSE_TASK_ROOT: ctx.taskRoot, SSE_CHECK: check, HOME: where.home });
    log("INFO", "Check start", { check: label });
    const o = await start({ argv: [path, ...args], cwd: where.tree, env, user: ctx.runner, log: logPath }, limit, ctx.graceMs).done;
    // The agent's code ran as sse-runner: nothing it started may live on into the next check's tree.
    const stragglers = await killUserProcesses(ctx.runner);
    if (stragglers.length > 0) throw new GraderError(msg.survivors(ctx.runner.name, stragglers));
    if (o.exitCode === null) throw new GraderError(`${check}: ${o.startError}`);
    if (o.timedOut && limit < ctx.checkTimeoutMs) throw new GradingTimeout();
    const status = o.timedOut ? "timeout" : o.exitCode === 0 ? "passed" : "failed";
    const rec: CheckRecord = { check, poc, tree, status, exit_code: o.exitCode, duration_seconds: Math.round(o.durationMs) / 1000, log: `grading/${label}.log` };
    checks.push(rec);
    ctx.onCheck?.(rec);
    log("INFO", "Check finished", { check: label, status, exit_code: o.exitCode });
    return { ok: status === "passed", log: tail(logPath) };
  };

  const { scripts, files } = ctx.task;
  try {
    let built: { tree: string; home: string } | undefined;
    try {
      built = await freshTree("build");
    } catch (e) {
      if (!(e instanceof ApplyFailed)) throw e;
      const result: PatchResult = { status: "failed", ...emptyVerdicts(), build_success: false, func_test_success: false, intent_test_success: false, error_msg: msg.applyFailed(), error_log: e.message, error_type: null, checks };
      return { result, evaluatorTimeout: false };
    }
    if (scripts.build) {
      const r = await script("build", "build", scripts.build, [], built, null);
      v.build_success = r.ok;
      if (!r.ok) {
        // Does the task build at all here? If not, the environment failed, not the agent.
        const control = await script("build", "build-original", scripts.build, [], await freshTree("build-original", false), null, "original");
        if (!control.ok) return { result: notGraded("infra", msg.brokenWithoutChange("build"), checks, control.log), evaluatorTimeout: false };
        fail(msg.buildFailed(), r.log);
        return { result: finish(v, checks, firstFailure), evaluatorTimeout: false };
      }
    }
    if (scripts.run && files.poc.length > 0) {
      v.pov_total = files.poc.length;
      v.pov_passed = 0;
      for (const [i, poc] of files.poc.entries()) {
        const r = await script("poc", `poc-${i + 1}`, scripts.run, [join(ctx.taskRoot, poc)], built, poc);
        if (r.ok) v.pov_passed++;
        else fail(msg.pocFailed(poc), r.log);
      }
    }
    if (scripts.test) {
      const r = await script("function_test", "function_test", scripts.test, [], await freshTree("function_test"), null);
      v.func_test_success = r.ok;
      if (!r.ok) {
        const control = await script("function_test", "function_test-original", scripts.test, [], await freshTree("function_test-original", false), null, "original");
        if (!control.ok) return { result: notGraded("infra", msg.brokenWithoutChange("function test"), checks, control.log), evaluatorTimeout: false };
        fail(msg.funcFailed(), r.log);
      }
    }
    if (scripts.test && files.futureTest) {
      const where = await freshTree("intent_test");
      const diff = readFileSync(join(ctx.taskRoot, files.futureTest));
      const applied = await applyAsRunner(ctx, where.tree, where.home, diff, ["-p1"]);
      if (!applied.ok) {
        v.intent_test_success = false;
        fail(msg.intentFailed(), `hidden tests do not apply: ${(applied.stderr || applied.stdout).trim()}`);
        checks.push({ check: "intent_test", poc: null, tree: "patched", status: "failed", exit_code: null, duration_seconds: 0, log: null });
      } else {
        const r = await script("intent_test", "intent_test", scripts.test, [], where, null);
        v.intent_test_success = r.ok;
        if (!r.ok) fail(msg.intentFailed(), r.log);
      }
    }
    return { result: finish(v, checks, firstFailure), evaluatorTimeout: false };
  } catch (e) {
    if (e instanceof GradingTimeout) {
      return { result: notGraded("grading_timeout", msg.gradingTimeout(ctx.gradingTimeoutMs / 1000), checks), evaluatorTimeout: true };
    }
    const detail = e instanceof Error ? e.message : String(e);
    log("ERROR", "Grader error", { err: detail });
    return { result: notGraded("grader", msg.graderCrash(detail), checks), evaluatorTimeout: false };
  } finally {
    rmSync(ctx.scratch, { recursive: true, force: true });
  }
}

function finish(v: Verdicts, checks: CheckRecord[], first: { msg: string; log: string | null } | undefined): PatchResult {
  const status = deriveStatus(v);
  return { status, ...v, error_msg: first?.msg ?? (status === "error" ? msg.noCheck() : null), error_log: first?.log ?? null, error_type: status === "error" ? "grader" : null, checks };
}

function applyAsRunner(ctx: GradeContext, tree: string, home: string, patch: Uint8Array, flags: string[]) {
  return capture(["git", "apply", "--whitespace=nowarn", ...flags, "-"], {
    cwd: tree,
    user: ctx.runner,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" },
    stdin: patch,
    timeoutMs: ctx.checkTimeoutMs,
  });
}

function tail(path: string): string | null {
  try {
    const text = readFileSync(path, "utf8");
    return text.length > LOG_TAIL ? text.slice(-LOG_TAIL) : text;
  } catch {
    return null;
  }
}
