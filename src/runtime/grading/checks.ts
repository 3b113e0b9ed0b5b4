/**
 * The checks of a change, shared by final grading (grading.ts) and the agent's tool API
 * (tool-api/): a fresh scratch copy of the pristine tree with the change applied per check,
 * scripts run as sse-runner in their own group with the per-check limit, a control run on the
 * original tree when the build or the function test fails (docs/container-contract.md §7).
 */
import { mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { CheckName, CheckRecord, SetAside } from "../../formats/run/result.ts";
import { childEnv } from "../privilege/child-env.ts";
import { log } from "../log.ts";
import { msg } from "../messages.ts";
import { capture, type Running, start } from "../privilege/processes.ts";
import type { TaskConfig } from "../task.ts";
import { appliedRecipes, diffPaths, excludeFlag, includeFlag, planSetAside, recipeCandidates, type SetAsidePlan } from "./set-aside.ts";
import { showTaskFiles } from "./task-views.ts";
import { killUserProcesses } from "../privilege/user-processes.ts";
import type { Account } from "../privilege/users.ts";
import { toolPath } from "../config.ts";

export interface CheckContext {
  taskRoot: string;
  task: TaskConfig;
  pristine: string;
  /** Root-only folder of the scratch trees (emptied by `reset`). */
  scratch: string;
  /** Folder of the check logs (`<label>.log`). */
  logDir: string;
  runner: Account;
  patch: Uint8Array;
  inherited: Record<string, string | undefined>;
  checkTimeoutMs: number;
  graceMs: number;
  /** performance.now() by which every check must be done (whole grading limit); none = no limit. */
  deadline?: number;
  /** Called with each finished check, so an interrupt can report what is known. */
  onCheck?: (c: CheckRecord) => void;
  /** Each log starts with a line marking it as the agent's code's output (the run folder's logs). */
  markLogs?: boolean;
}

export class GradingTimeout extends Error {}
export class GraderError extends Error {}
/** The agent's code left processes no SIGKILL stopped (its doing: a failure, not an ungraded run). */
export class AgentResources extends Error {}
export class ApplyFailed extends Error {}
/** The checks were stopped from outside (the agent phase ended during an agent's check). */
export class ChecksAborted extends Error {}

export interface Tree {
  tree: string;
  home: string;
}

export interface ScriptRun {
  ok: boolean;
  record: CheckRecord;
  /** The log's last characters (for result.json's error_log). */
  log: string | null;
  logPath: string;
}

/** How a build or function test ended: passed, failed, or failing on the original tree too. */
export type Controlled = { state: "passed" | "failed" | "broken"; run: ScriptRun; control?: ScriptRun };

export interface PocsOutcome {
  passed: number;
  total: number;
  runs: ScriptRun[];
  firstFailure?: { poc: string; run: ScriptRun };
}

export type IntentOutcome = { applied: true; run: ScriptRun } | { applied: false; error: string };

const LOG_TAIL = 8000;

export class Checks {
  readonly records: CheckRecord[] = [];
  private current?: Running;
  private aborted = false;
  private plan?: Promise<SetAsidePlan>;

  constructor(private readonly ctx: CheckContext) {}

  /** An empty scratch folder and the log folder. */
  reset(): void {
    mkdirSync(this.ctx.logDir, { recursive: true, mode: 0o755 });
    rmSync(this.ctx.scratch, { recursive: true, force: true });
    mkdirSync(this.ctx.scratch, { recursive: true, mode: 0o711 });
  }

  cleanup(): void {
    rmSync(this.ctx.scratch, { recursive: true, force: true });
  }

  /** Stops the running script (if any) and every later one. */
  async abort(): Promise<void> {
    this.aborted = true;
    await this.current?.stop(this.ctx.graceMs);
  }

  /** The agent's change as grading applies it: its build and test files (and, for the intent test, the hidden tests' files) set aside. */
  setAside(): Promise<SetAsidePlan> {
    this.plan ??= this.computePlan();
    return this.plan;
  }

  /** What was set aside, once known (for result.json), both lists. */
  async setAsideList(): Promise<SetAside[]> {
    if (!this.plan) return [];
    const p = await this.plan.catch(() => undefined);
    return p ? [...p.everywhere, ...p.intent] : [];
  }

  private async computePlan(): Promise<SetAsidePlan> {
    const { ctx } = this;
    const dir = ctx.scratch;
    mkdirSync(dir, { recursive: true, mode: 0o711 });
    let change: string[];
    try {
      change = await diffPaths(ctx.patch, dir, ctx.checkTimeoutMs);
    } catch (e) {
      throw new GraderError(`listing the files of the change: ${e instanceof Error ? e.message : String(e)}`);
    }
    const taskDiff = async (rel: string | null) => {
      if (!rel) return [];
      try {
        return await diffPaths(readFileSync(join(ctx.taskRoot, rel)), dir, ctx.checkTimeoutMs);
      } catch (e) {
        log("WARN", "Could not list the files of a task diff", { file: rel, err: e instanceof Error ? e.message : String(e) });
        return [];
      }
    };
    const { files } = ctx.task;
    const fix = await taskDiff(files.patch);
    const recipes = await appliedRecipes(ctx.patch, recipeCandidates(change, fix), ctx.pristine, dir, ctx.checkTimeoutMs);
    const plan = planSetAside(change, fix, await taskDiff(files.futureTest), recipes);
    for (const path of recipes) log("INFO", "Build recipe change applied: it only names new source files", { path });
    for (const s of [...plan.everywhere, ...plan.intent]) log("INFO", "Set aside from the change", { path: s.path, reason: s.reason });
    return plan;
  }

  /**
   * A fresh copy of the pristine tree owned by sse-runner, with the change applied (as grading
   * applies it) unless `withPatch` is false. Its folder's name is random: no path the agent's code
   * sees names the check (every check's tree and home look alike).
   */
  async freshTree(withPatch = true, forIntent = false): Promise<Tree> {
    if (this.aborted) throw new ChecksAborted();
    const { ctx } = this;
    const dir = join(ctx.scratch, neutralName());
    const tree = join(dir, "tree");
    const home = join(dir, "home");
    mkdirSync(home, { recursive: true, mode: 0o700 });
    const cp = await capture(["cp", "-a", "--sparse=always", ctx.pristine, tree]);
    if (!cp.ok) throw new GraderError(`copying the pristine tree: ${cp.stderr.trim()}`);
    const own = await capture(["chown", "-R", "-h", `${ctx.runner.uid}:${ctx.runner.gid}`, dir]);
    if (!own.ok) throw new GraderError(`handing the scratch tree to ${ctx.runner.name}: ${own.stderr.trim()}`);
    if (withPatch && new TextDecoder().decode(ctx.patch).trim() !== "") {
      const plan = await this.setAside();
      const aside = forIntent ? [...plan.everywhere, ...plan.intent].map((s) => s.path).concat(plan.afterHidden) : plan.everywhere.map((s) => s.path);
      const r = await this.applyAsRunner({ tree, home }, ctx.patch, ["--binary", ...aside.map(excludeFlag)]);
      if (!r.ok) throw new ApplyFailed((r.stderr || r.stdout).trim());
    }
    return { tree, home };
  }

  /** `fixedLimitMs`: this limit instead of the per-check one, whatever grading time is left (control runs). */
  async script(check: CheckName, label: string, rel: string, args: string[], where: Tree, poc: string | null, tree: CheckRecord["tree"] = "patched", fixedLimitMs?: number): Promise<ScriptRun> {
    if (this.aborted) throw new ChecksAborted();
    const { ctx } = this;
    const path = join(ctx.taskRoot, rel);
    let st;
    try {
      st = statSync(path);
    } catch {
      st = undefined;
    }
    if (!st?.isFile() || (st.mode & 0o111) === 0) throw new GraderError(msg.scriptMissing(check, path));
    const left = this.timeLeft();
    if (fixedLimitMs === undefined && left <= 0) throw new GradingTimeout();
    const limit = fixedLimitMs ?? Math.min(ctx.checkTimeoutMs, left);
    const logPath = join(ctx.logDir, `${label}.log`);
    showTaskFiles(ctx.taskRoot, ctx.task, ctx.runner, check);
    // The image's environment and the basics only: no SSE_ variable, nothing that names the check
    // (the program under test must not be able to tell which check runs it, docs §7).
    const env = childEnv(ctx.inherited, ctx.runner, [], { HOME: where.home });
    log("INFO", "Check start", { check: label });
    this.current = start({ argv: [path, ...args], cwd: where.tree, env, user: ctx.runner, log: logPath, logHeader: ctx.markLogs ? msg.agentOutputLog(check) : undefined }, limit, ctx.graceMs);
    const running = this.current;
    const o = await running.done;
    this.current = undefined;
    // The agent's code ran as sse-runner: nothing it started may live on into the next check's tree.
    const stragglers = await killUserProcesses(ctx.runner);
    if (stragglers.length === 0) await running.logged; // every writer is gone: the log is complete
    if (stragglers.length > 0) throw new AgentResources(msg.survivors(ctx.runner.name, stragglers));
    if (this.aborted) throw new ChecksAborted();
    if (o.exitCode === null) throw new GraderError(`${check}: ${o.startError}`);
    const status = o.timedOut ? "timeout" : o.exitCode === 0 ? "passed" : "failed";
    const record: CheckRecord = { check, poc, tree, status, exit_code: o.exitCode, duration_seconds: Math.round(o.durationMs) / 1000, log: `grading/${label}.log` };
    this.records.push(record);
    ctx.onCheck?.(record);
    log("INFO", "Check finished", { check: label, status, exit_code: o.exitCode });
    return { ok: status === "passed", record, log: tail(logPath), logPath };
  }

  /** A failing build or function test runs once more on the original tree: does it fail there too? */
  private async controlled(check: "build" | "function_test", rel: string, run: ScriptRun): Promise<Controlled> {
    if (run.ok) return { state: "passed", run };
    // A patched run that ran out of time: the control gets as long (even past the grading limit).
    // If the original tree does not finish in that time either, the environment cannot grade in time.
    const hung = run.record.status === "timeout";
    const limit = hung ? Math.max(1, run.record.duration_seconds * 1000) : undefined;
    const control = await this.script(check, `${check}-original`, rel, [], await this.freshTree(false), null, "original", limit);
    if (hung && control.record.status === "timeout") throw new GradingTimeout();
    return { state: control.ok ? "failed" : "broken", run, control };
  }

  private timeLeft(): number {
    return this.ctx.deadline === undefined ? Infinity : this.ctx.deadline - performance.now();
  }

  async build(where: Tree): Promise<Controlled> {
    const rel = this.ctx.task.scripts.build!;
    return this.controlled("build", rel, await this.script("build", "build", rel, [], where, null));
  }

  /** Every PoC in order in the build's tree; with `stopAtFirst`, up to the first that still triggers. */
  async pocs(where: Tree, stopAtFirst: boolean): Promise<PocsOutcome> {
    const { scripts, files } = this.ctx.task;
    const out: PocsOutcome = { passed: 0, total: files.poc.length, runs: [] };
    for (const [i, poc] of files.poc.entries()) {
      const r = await this.script("poc", `poc-${i + 1}`, scripts.run!, [join(this.ctx.taskRoot, poc)], where, poc);
      out.runs.push(r);
      if (r.ok) out.passed++;
      else {
        out.firstFailure ??= { poc, run: r };
        if (stopAtFirst) break;
      }
    }
    return out;
  }

  async functionTest(): Promise<Controlled> {
    const rel = this.ctx.task.scripts.test!;
    return this.controlled("function_test", rel, await this.script("function_test", "function_test", rel, [], await this.freshTree(), null));
  }

  /** The hidden tests applied to a fresh patched tree, then the test script. */
  async intentTest(): Promise<IntentOutcome> {
    const { ctx } = this;
    const where = await this.freshTree(true, true);
    const diff = readFileSync(join(ctx.taskRoot, ctx.task.files.futureTest!));
    const applied = await this.applyAsRunner(where, diff, ["-p1"]);
    if (!applied.ok) {
      this.records.push({ check: "intent_test", poc: null, tree: "patched", status: "failed", exit_code: null, duration_seconds: 0, log: null });
      return { applied: false, error: (applied.stderr || applied.stdout).trim() };
    }
    // A recipe change that names new sources, in a recipe the hidden tests change too, goes on top
    // of theirs; where the two collide the hidden tests' version stays.
    for (const path of (await this.setAside()).afterHidden) {
      const r = await this.applyAsRunner(where, ctx.patch, ["--binary", includeFlag(path)]);
      if (!r.ok) log("WARN", "A build recipe change does not apply over the hidden tests' version", { path, err: (r.stderr || r.stdout).trim() });
    }
    return { applied: true, run: await this.script("intent_test", "intent_test", ctx.task.scripts.test!, [], where, null) };
  }

  private applyAsRunner(where: Tree, patch: Uint8Array, flags: string[]) {
    return capture(["git", "apply", "--whitespace=nowarn", ...flags, "-"], {
      cwd: where.tree,
      user: this.ctx.runner,
      env: { PATH: toolPath(), HOME: where.home, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" },
      stdin: patch,
      timeoutMs: this.ctx.checkTimeoutMs,
    });
  }
}

/** 16 random hex digits: a scratch folder's name. */
function neutralName(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(8))).toString("hex");
}

function tail(path: string): string | null {
  try {
    const text = readFileSync(path, "utf8");
    return text.length > LOG_TAIL ? text.slice(-LOG_TAIL) : text;
  } catch {
    return null;
  }
}
