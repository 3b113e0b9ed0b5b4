/**
 * The checks an agent may run during its phase, on its *current* tree, through the same code as
 * final grading (checks.ts): the change is captured, applied to fresh pristine scratch copies and
 * the allowed scripts run as sse-runner with the per-check limit. One call at a time: agents send
 * parallel calls, and every check uses the same scratch folder and sse-runner.
 */
import { mkdirSync, openSync, readSync, closeSync, fstatSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CheckRecord, SetAside } from "../../formats/run/result.ts";
import { type Change, captureChange } from "../grading/change.ts";
import { AgentResources, ApplyFailed, Checks, ChecksAborted, type ScriptRun, type Tree } from "../grading/checks.ts";
import { log } from "../log.ts";
import type { Prepared } from "../grading/prepare.ts";
import type { TaskConfig } from "../task.ts";
import type { Account } from "../privilege/users.ts";
import type { CheckKind, Level } from "./levels.ts";
import { toolMsg } from "./messages.ts";
import { emptyChecks, type PatchChecks, renderReport, reportLines } from "./report.ts";

export interface ServiceOptions {
  level: Level;
  task: TaskConfig;
  taskRoot: string;
  prepared: Prepared;
  source: string;
  /** Root-only working folder of the tool API ($SSE_WORK/tool-api). */
  work: string;
  /** Where the checks' trees go: final grading's folder, so an agent-phase check looks like a graded one. */
  scratch: string;
  /** Root-owned folder the agent may read files of by name (full logs). */
  agentLogs: string;
  runner: Account;
  inherited: Record<string, string | undefined>;
  checkTimeoutMs: number;
  graceMs: number;
  maxFileBytes: number;
}

export type Outcome = "passed" | "failed" | "none" | "infra" | "aborted";

export interface CallResult {
  outcome: Outcome;
  /** Labels of the scripts that ran (`build`, `poc-1`, `build-original`, …). */
  checks: string[];
}

export interface ScriptReply extends CallResult {
  code: number;
  stdout: string;
  stderr: string;
}

export class PhaseEnded extends Error {}

/** Largest piece of a check's log read back (its end): the agent's code decides how much it prints. */
const LOG_READ_CAP = 8 * 2 ** 20;

export class ToolService {
  private queue: Promise<unknown> = Promise.resolve();
  private current?: Checks;
  private ended = false;
  private calls = 0;

  constructor(private readonly o: ServiceOptions) {
    // sse-runner must pass through to its scratch trees; nobody else may list anything here.
    mkdirSync(o.work, { recursive: true, mode: 0o711 });
    mkdirSync(o.agentLogs, { recursive: true, mode: 0o711 });
  }

  get pocCount(): number {
    return this.o.task.files.poc.length;
  }

  get maxMb(): number {
    return this.o.maxFileBytes / 2 ** 20;
  }

  get phaseEnded(): boolean {
    return this.ended;
  }

  /** Refuses every later call, stops the running check and waits until nothing runs. */
  async end(): Promise<void> {
    this.ended = true;
    await this.current?.abort();
    await this.queue.catch(() => {});
    rmSync(this.o.work, { recursive: true, force: true });
  }

  /** Whether the task has what a check needs (its script, PoCs, hidden tests). */
  has(kind: CheckKind): boolean {
    const { scripts, files } = this.o.task;
    if (kind === "build") return !!scripts.build;
    if (kind === "poc") return !!scripts.run && files.poc.length > 0;
    if (kind === "function_test") return !!scripts.test;
    return !!scripts.test && !!files.futureTest;
  }

  /** The change as final grading would capture it now. */
  diff(): Promise<Change> {
    return this.exclusive(() => this.capture());
  }

  async testPatch(): Promise<CallResult & { text: string }> {
    return this.exclusive(async () => {
      const { level: l, task } = this.o;
      // Nothing to run at this level (NO_BUILD): no capture either.
      if (!l.build) return { outcome: "none", checks: [], text: renderReport(emptyChecks(task.files.poc.length), l, () => null) };
      const change = await this.capture();
      if ("tooLarge" in change) return { outcome: "failed", checks: [], text: tooLargeText(change.tooLarge, this.o.maxFileBytes) };
      const checks = this.checksFor(change.patch);
      const r = emptyChecks(task.files.poc.length);
      try {
        const tree = await checks.freshTree();
        await this.runSequence(checks, tree, r);
        const text = renderReport(r, l, (t) => this.saveLog(t), await notApplied(checks));
        const lines = reportLines(r, l);
        const outcome: Outcome = lines.length === 0 ? "none" : lines.every((c) => c.state === "passed") ? "passed" : "failed";
        return { outcome, checks: labels(checks.records), text };
      } catch (e) {
        return { ...this.failure(e, checks), text: failureText(e) };
      } finally {
        this.done(checks);
      }
    });
  }

  /** One check for the HTTP API; the level was checked by the caller. */
  async check(kind: CheckKind): Promise<ScriptReply> {
    return this.exclusive(async () => {
      const change = await this.capture();
      if ("tooLarge" in change) return { outcome: "failed", checks: [], code: -1, stdout: "", stderr: tooLargeText(change.tooLarge, this.o.maxFileBytes) };
      const checks = this.checksFor(change.patch);
      try {
        const reply = await this.runOne(checks, kind);
        const aside = await notApplied(checks);
        const stderr = aside.length > 0 ? [reply.stderr, toolMsg.setAside(aside)].filter(Boolean).join("\n") : reply.stderr;
        return { ...reply, stderr, checks: labels(checks.records) };
      } catch (e) {
        return { ...this.failure(e, checks), code: -1, stdout: "", stderr: failureText(e) };
      } finally {
        this.done(checks);
      }
    });
  }

  /** test_patch's order: build (stop if it fails), PoCs up to the first that triggers, intent tests, functional tests unless covered. */
  private async runSequence(checks: Checks, tree: Tree, r: PatchChecks): Promise<void> {
    const { level: l, task } = this.o;
    const { scripts, files } = task;
    if (l.build) {
      r.build_success = false;
      if (scripts.build) {
        const b = await checks.build(tree);
        if (b.state === "broken") throw new BrokenEnvironment("build");
        r.build_success = b.state === "passed";
        this.note(r, "build", b.run);
        if (!r.build_success) return;
      } else {
        r.build_success = true;
        r.details.build = toolMsg.detailNone();
      }
    }
    if (l.poc && scripts.run && files.poc.length > 0) {
      const p = await checks.pocs(tree, true);
      r.pov_passed = p.passed;
      if (p.firstFailure) this.note(r, "poc", p.firstFailure.run);
    }
    if (l.intent_test) {
      if (scripts.test && files.futureTest) {
        const i = await checks.intentTest();
        r.intent_test_success = i.applied && i.run.ok;
        if (!i.applied) r.logs.intent_test = toolMsg.hiddenNotApplied(i.error);
        else this.note(r, "intent_test", i.run);
      } else {
        r.intent_test_success = true;
        r.details.intent_test = toolMsg.detailNone();
      }
    }
    const covered = l.intent_test && r.intent_test_success === true && !!files.futureTest;
    if (l.function_test && !covered) {
      if (scripts.test) {
        const t = await checks.functionTest();
        if (t.state === "broken") throw new BrokenEnvironment("function test");
        r.func_test_success = t.state === "passed";
        this.note(r, "function_test", t.run);
      } else {
        r.func_test_success = true;
        r.details.function_test = toolMsg.detailNone();
      }
    }
  }

  private async runOne(checks: Checks, kind: CheckKind): Promise<Omit<ScriptReply, "checks">> {
    const { scripts } = this.o.task;
    const reply = (run: ScriptRun, stderr = "") => ({ outcome: (run.ok ? "passed" : "failed") as Outcome, code: run.record.exit_code ?? -1, stdout: this.readLog(run.logPath), stderr: [timeNote(run, this.o.checkTimeoutMs), stderr].filter(Boolean).join("\n") });
    const broken = (what: string, run: ScriptRun) => ({ ...reply(run, toolMsg.brokenEnv(what)), outcome: "infra" as Outcome });
    if (kind === "build" || kind === "poc") {
      const tree = await checks.freshTree();
      if (scripts.build) {
        const b = await checks.build(tree);
        if (b.state === "broken") return broken("build", b.run);
        if (kind === "build" || b.state === "failed") return reply(b.run, kind === "poc" ? toolMsg.buildFirst() : "");
      }
      const p = await checks.pocs(tree, true);
      const stdout = p.runs.map((run) => this.readLog(run.logPath)).join("");
      const last = p.runs.at(-1)!;
      return { outcome: p.firstFailure ? "failed" : "passed", code: p.firstFailure?.run.record.exit_code ?? 0, stdout, stderr: timeNote(last, this.o.checkTimeoutMs) };
    }
    if (kind === "function_test") {
      const t = await checks.functionTest();
      return t.state === "broken" ? broken("function test", t.run) : reply(t.run);
    }
    const i = await checks.intentTest();
    if (!i.applied) return { outcome: "failed", code: -1, stdout: "", stderr: toolMsg.hiddenNotApplied(i.error) };
    return reply(i.run);
  }

  private note(r: PatchChecks, check: "build" | "poc" | "intent_test" | "function_test", run: ScriptRun): void {
    if (run.record.status === "timeout") r.details[check] = toolMsg.detailTimeout(this.o.checkTimeoutMs / 1000);
    if (!run.ok) r.logs[check] = [this.readLog(run.logPath), timeNote(run, this.o.checkTimeoutMs)].filter(Boolean).join("\n");
  }

  private failure(e: unknown, checks: Checks): CallResult {
    if (e instanceof ChecksAborted) return { outcome: "aborted", checks: labels(checks.records) };
    if (e instanceof ApplyFailed) return { outcome: "failed", checks: [] };
    if (e instanceof AgentResources) return { outcome: "failed", checks: labels(checks.records) };
    log("ERROR", "Tool API check failed", { err: e instanceof Error ? e.message : String(e) });
    return { outcome: "infra", checks: labels(checks.records) };
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = async () => {
      if (this.ended) throw new PhaseEnded();
      return fn();
    };
    const p = this.queue.then(run, run);
    this.queue = p.catch(() => {});
    return p;
  }

  private capture(): Promise<Change> {
    const { o } = this;
    return captureChange({ prepared: o.prepared, tree: o.source, gitHome: join(o.work, "git-home"), stateDir: o.work, indexName: "capture.index", maxFileBytes: o.maxFileBytes, timeoutMs: o.checkTimeoutMs });
  }

  private checksFor(patch: Uint8Array): Checks {
    const n = ++this.calls;
    const o = this.o;
    const logDir = join(o.work, `logs-${n}`);
    mkdirSync(logDir, { recursive: true, mode: 0o700 });
    const checks = new Checks({ taskRoot: o.taskRoot, task: o.task, pristine: o.prepared.pristine, scratch: o.scratch, logDir, runner: o.runner, patch, inherited: o.inherited, checkTimeoutMs: o.checkTimeoutMs, graceMs: o.graceMs });
    checks.reset();
    this.current = checks;
    return checks;
  }

  private done(checks: Checks): void {
    this.current = undefined;
    checks.cleanup();
    rmSync(join(this.o.work, `logs-${this.calls}`), { recursive: true, force: true });
  }

  private readLog(path: string): string {
    let fd: number | undefined;
    try {
      fd = openSync(path, "r");
      const size = fstatSync(fd).size;
      const len = Math.min(size, LOG_READ_CAP);
      const buf = Buffer.alloc(len);
      readSync(fd, buf, 0, len, size - len);
      return buf.toString("utf8");
    } catch {
      return "";
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  private saveLog(text: string): string | null {
    try {
      const file = join(this.o.agentLogs, `${crypto.randomUUID()}.txt`);
      writeFileSync(file, text, { mode: 0o644, flag: "wx" });
      return file;
    } catch {
      return null;
    }
  }
}

class BrokenEnvironment extends Error {
  constructor(readonly what: string) {
    super(toolMsg.brokenEnv(what));
  }
}

/** What the checks left out of the change, told to the agent: never the files the hidden tests touch. */
async function notApplied(checks: Checks): Promise<SetAside[]> {
  return (await checks.setAsideList()).filter((s) => s.reason !== "hidden_test");
}

function labels(records: CheckRecord[]): string[] {
  return records.map((c) => (c.log ? c.log.replace(/^grading\//, "").replace(/\.log$/, "") : c.check));
}

function timeNote(run: ScriptRun, limitMs: number): string {
  return run.record.status === "timeout" ? toolMsg.timeLimitNote(limitMs / 1000) : "";
}

function failureText(e: unknown): string {
  if (e instanceof ApplyFailed) return `${toolMsg.failed(toolMsg.notApplied())}\n\n${toolMsg.fullLog("git apply", e.message)}`;
  if (e instanceof ChecksAborted) return toolMsg.phaseEnded();
  if (e instanceof AgentResources) return `${toolMsg.failed(toolMsg.agentResources())}\n\n${e.message}`;
  if (e instanceof BrokenEnvironment) return `${toolMsg.internal()}\n\n${e.message}`;
  return toolMsg.internal();
}

function tooLargeText(files: { path: string; bytes: number }[], maxBytes: number): string {
  return `${toolMsg.failed(toolMsg.tooLarge(maxBytes / 2 ** 20))}\n\n${files.map((f) => `${f.path} (${f.bytes} bytes)`).join("\n")}`;
}
