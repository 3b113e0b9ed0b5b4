/**
 * Runs plugins at their hooks. Same-hook plugins run in parallel; `before`/`after` hooks block,
 * `on` hooks run beside their phase and are awaited when it ends (on-agent ones are killed then).
 * Logs go to a root-only folder while model may still run and are moved into
 * $SSE_ARCHIVE/plugins/ at the end, so an agent cannot redirect root's writes with a symlink.
 */
import { chownSync, copyFileSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { goJson } from "../../formats/compat/json-compat.ts";
import { type Hook, PLUGIN_REPORT, type PluginEntry } from "../../formats/run/plugins.ts";
import { childEnv, LLM_VARS } from "../privilege/child-env.ts";
import { writeAtomic } from "../fs-util.ts";
import { log } from "../log.ts";
import { msg } from "../messages.ts";
import { type Outcome, type Running, start } from "../privilege/processes.ts";
import { type Account, root } from "../privilege/users.ts";

export interface PluginResult {
  name: string;
  hook: Hook;
  status: "ok" | "skipped" | "failed" | "timeout" | "error";
  exit_code: number;
  duration_seconds: number;
  started: boolean;
  error?: string;
  reason?: string;
}

export interface PluginContext {
  pluginsDir: string;
  work: string;
  archive: string;
  results: string;
  taskRoot: string;
  source: string;
  model: Account;
  minuteMs: number;
  graceMs: number;
  inherited: Record<string, string | undefined>;
}

interface Handle {
  entry: PluginEntry;
  running?: Running;
  stoppedAtPhaseEnd: boolean;
  result: Promise<PluginResult>;
}

const AGENT_HOOKS = new Set<Hook>(["before-agent", "on-agent", "after-agent"]);

export class PluginRunner {
  readonly results: PluginResult[] = [];
  private readonly pending = new Map<Hook, Handle[]>();
  private readonly logDir: string;

  constructor(
    private readonly ctx: PluginContext,
    private readonly selected: PluginEntry[],
  ) {
    this.logDir = join(ctx.work, "plugin-logs");
  }

  async runBlocking(hook: Hook): Promise<void> {
    const handles = this.launch(hook);
    await Promise.all(handles.map((h) => h.result.then((r) => this.results.push(r))));
  }

  startOn(hook: Hook): void {
    this.pending.set(hook, this.launch(hook));
  }

  /** Awaits the on-hook's plugins (recorded in start order); with `kill`, stops those still running. */
  async awaitOn(hook: Hook, kill: boolean): Promise<void> {
    const handles = this.pending.get(hook) ?? [];
    this.pending.delete(hook);
    if (kill) {
      for (const h of handles) {
        h.stoppedAtPhaseEnd = true;
        void h.running?.stop(0);
      }
    }
    for (const h of handles) this.results.push(await h.result);
  }

  /** Interrupt: stop every pending on-plugin and record it. */
  async stopPending(): Promise<void> {
    for (const hook of [...this.pending.keys()]) await this.awaitOn(hook, true);
  }

  private launch(hook: Hook): Handle[] {
    return this.selected.filter((p) => p.hook === hook).map((p) => this.runOne(p));
  }

  private runOne(entry: PluginEntry): Handle {
    const { ctx } = this;
    const dir = join(ctx.pluginsDir, entry.name);
    const runSh = join(dir, "run.sh");
    const handle: Handle = { entry, stoppedAtPhaseEnd: false, result: Promise.resolve(undefined as never) };
    const fail = (error: string) => pluginResult(entry, "error", 0, 0, false, { error });
    let st;
    try {
      st = statSync(runSh);
    } catch {
      st = undefined;
    }
    if (!st || !st.isFile() || (st.mode & 0o111) === 0) {
      handle.result = Promise.resolve(fail(st ? msg.pluginNotExecutable(entry.name) : msg.pluginNoRunSh(entry.name, runSh)));
      return handle;
    }
    const user = AGENT_HOOKS.has(entry.hook) ? ctx.model : root;
    let skipDir: string;
    try {
      mkdirSync(this.logDir, { recursive: true, mode: 0o700 });
      mkdirSync(join(ctx.work, "skip"), { recursive: true, mode: 0o711 });
      skipDir = mkdtempSync(join(ctx.work, "skip", `${entry.name}-`));
      chownSync(skipDir, user.uid, user.gid);
    } catch (e) {
      handle.result = Promise.resolve(fail(e instanceof Error ? e.message : String(e)));
      return handle;
    }
    const skipFile = join(skipDir, "skip");
    const allow = [...(entry.llm ? LLM_VARS : []), "SSE_DIFFICULTY"];
    const extra: Record<string, string> = {
      SSE_ARCHIVE: ctx.archive,
      SSE_SOURCE: ctx.source,
      SSE_PLUGIN_NAME: entry.name,
      SSE_PLUGIN_HOOK: entry.hook,
      SSE_PLUGIN_SKIP_FILE: skipFile,
      SSEBENCH_ENTRYPOINT: process.execPath,
      ...(user === root ? { SSE_RESULTS: ctx.results, SSE_TASK_ROOT: ctx.taskRoot, SSE_WORK: ctx.work } : {}),
    };
    const env = childEnv(ctx.inherited, user, allow, extra);
    log("INFO", "Plugin start", { plugin: entry.name, hook: entry.hook, user: user.name, timeout_min: entry.timeout });
    const running = start({ argv: [runSh], cwd: dir, env, user, log: join(this.logDir, `${entry.name}.log`) }, entry.timeout * ctx.minuteMs, 0);
    handle.running = running;
    handle.result = running.done.then((o) => {
      const r = this.classify(entry, o, skipFile, handle.stoppedAtPhaseEnd);
      rmSync(skipDir, { recursive: true, force: true });
      return r;
    });
    return handle;
  }

  private classify(entry: PluginEntry, o: Outcome, skipFile: string, stopped: boolean): PluginResult {
    const seconds = Math.round(o.durationMs) / 1000;
    const result = (status: PluginResult["status"], exitCode: number, more: { error?: string; reason?: string } = {}) =>
      pluginResult(entry, status, exitCode, seconds, true, more);
    if (o.exitCode === null) return pluginResult(entry, "error", 0, 0, false, { error: o.startError ?? "could not start" });
    if (o.timedOut) {
      log("WARN", "Plugin timed out", { plugin: entry.name, timeout_min: entry.timeout });
      return result("timeout", 124);
    }
    if (stopped && o.exitCode !== 0) return result("failed", o.exitCode, { error: msg.pluginStoppedAtAgentEnd() });
    if (o.exitCode !== 0) {
      log("WARN", "Plugin failed", { plugin: entry.name, exit_code: o.exitCode });
      return result("failed", o.exitCode, { error: msg.pluginExit(o.exitCode) });
    }
    const reason = readSkipReason(skipFile);
    if (reason) {
      log("WARN", "Plugin skipped", { plugin: entry.name, reason });
      return result("skipped", 0, { reason });
    }
    log("INFO", "Plugin finished", { plugin: entry.name, seconds });
    return result("ok", 0);
  }

  /** Moves the logs into $SSE_ARCHIVE/plugins and writes results.json (only if a plugin ran). */
  writeReport(): void {
    if (this.results.length === 0 && this.selected.length === 0) return;
    const out = join(this.ctx.archive, "plugins");
    rmSync(out, { recursive: true, force: true }); // whatever the agent left there is not ours
    mkdirSync(out, { recursive: true, mode: 0o755 });
    for (const p of this.selected) {
      try {
        copyFileSync(join(this.logDir, `${p.name}.log`), join(out, `${p.name}.log`));
      } catch {
        // never started: no log
      }
    }
    if (this.results.length === 0) return;
    const report = `${goJson(this.results, 2)}\n`;
    // The host reads the copy in the results dir, which the agent never reaches; the archive's is
    // for readers of the archive (the agent could have replaced it before it was written).
    writeAtomic(join(this.ctx.results, PLUGIN_REPORT), report);
    writeAtomic(join(out, "results.json"), report);
  }
}

/** One element of results.json, keys in the documented order; `error`/`reason` only when set. */
function pluginResult(entry: PluginEntry, status: PluginResult["status"], exitCode: number, seconds: number, started: boolean, more: { error?: string; reason?: string }): PluginResult {
  const r: PluginResult = { name: entry.name, hook: entry.hook, status, exit_code: exitCode, duration_seconds: seconds, started };
  if (more.error) r.error = more.error;
  if (more.reason) r.reason = more.reason;
  return r;
}

function readSkipReason(path: string): string | undefined {
  try {
    if (!lstatSync(path).isFile()) return undefined;
    return readFileSync(path, "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}
