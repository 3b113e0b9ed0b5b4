/**
 * A job as its own files say it is, read again whenever they change (no database): job.json (the
 * plan), trials.jsonl (one line per ended trial run), logs/ (a log appears when a trial run starts)
 * and `lock` (the pid of the process running it). A trial run is running while its log exists
 * without its line in trials.jsonl, the log is no older than the lock and the lock's process lives.
 * Run folders' rows are read when a page needs them and kept: a trial's run folder is complete
 * before its line is.
 */
import { type Dirent, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { JobFile, TrialSpec } from "../jobs/plan.ts";
import { isInfraError, latestByTrial } from "../jobs/rules.ts";
import { processAlive } from "../jobs/lock.ts";
import { readJobFile, readTrials, spentOf, type TrialRecord, trialLogName } from "../jobs/store.ts";
import { insideResults, recordRow, resolvesToItself, summaryRow, type TrialRow } from "../results/load.ts";

export interface JobTrial {
  spec: TrialSpec;
  /** the record that stands for the trial (its first final one, else its last); undefined before it ended */
  record: TrialRecord | undefined;
  tries: number;
  running: boolean;
}

export interface Progress {
  total: number;
  /** trials that have ended (an infrastructure error a retry may follow included) */
  done: number;
  passed: number;
  failed: number;
  errors: number;
  running: number;
  /** USD over every trial run so far, retries included */
  spend: number;
  state: "running" | "finished" | "stopped";
}

const mtime = (path: string) => {
  try {
    const st = statSync(path);
    return `${st.size}:${st.mtimeMs}`;
  } catch {
    return "-";
  }
};

export class JobState {
  private stampSeen = "";
  private plan: JobFile | undefined;
  private records: TrialRecord[] = [];
  private trialsCache: JobTrial[] = [];
  private readonly runs = new Map<string, { ok: boolean; row: TrialRow | null }>();
  lockPid: number | null = null;
  problem: string | null = null;

  constructor(
    readonly name: string,
    readonly dir: string,
    /** the results folder its run folders are relative to */
    readonly results: string,
  ) {}

  /** What changes when the job's files do. */
  stamp(): string {
    return [mtime(join(this.dir, "job.json")), mtime(join(this.dir, "trials.jsonl")), mtime(join(this.dir, "lock")), mtime(join(this.dir, "logs"))].join("|");
  }

  /** Reads the files again if they changed; true when they did. */
  refresh(): boolean {
    const stamp = this.stamp();
    if (stamp === this.stampSeen) return false;
    this.stampSeen = stamp;
    try {
      this.plan = readJobFile(this.dir);
      this.problem = this.plan ? null : "job.json is missing";
    } catch (cause) {
      this.plan = undefined;
      this.problem = cause instanceof Error ? cause.message : String(cause);
    }
    this.records = readTrials(this.dir);
    this.lockPid = this.readLock();
    this.trialsCache = this.build();
    return true;
  }

  get job(): JobFile | undefined {
    return this.plan;
  }

  trials(): JobTrial[] {
    this.refresh();
    return this.trialsCache;
  }

  private readLock(): number | null {
    try {
      const pid = Number.parseInt(readFileSync(join(this.dir, "lock"), "utf8"), 10);
      return Number.isInteger(pid) && pid > 0 && processAlive(pid) ? pid : null;
    } catch {
      return null;
    }
  }

  /** logs/ entries of trial runs that started after the lock was taken and have not ended. */
  private runningLogs(): Set<string> {
    if (this.lockPid === null) return new Set();
    let since = 0;
    let entries: Dirent[] = [];
    try {
      since = statSync(join(this.dir, "lock")).mtimeMs;
      entries = readdirSync(join(this.dir, "logs"), { withFileTypes: true });
    } catch {
      return new Set();
    }
    const ended = new Set(this.records.map((r) => trialLogName(r.trial, r.try)));
    const out = new Set<string>();
    for (const e of entries) {
      if (!e.isFile() || ended.has(e.name)) continue;
      try {
        // (whole seconds: a file system may keep coarser times than the lock's)
        if (statSync(join(this.dir, "logs", e.name)).mtimeMs >= since - 1000) out.add(e.name);
      } catch {
        // gone
      }
    }
    return out;
  }

  /**
   * An ended trial's run: its folder relative to the results folder (null when the record names
   * none, one outside, or one with a link on the way) and its row (the summary's, else the record's).
   * Read when first asked for (the index needs only the records), then kept.
   */
  runOf(t: JobTrial): { rel: string | null; row: TrialRow } | undefined {
    const plan = this.plan;
    if (!t.record || !plan) return undefined;
    const named = insideResults(t.record.run_dir);
    const run = named ? this.runAt(named) : null;
    const found = run?.row ?? recordRow(plan, t.record);
    const source = t.spec.source;
    const row = source ? { ...found, agent: source.agent ?? found.agent, model: source.model ?? found.model } : found;
    return { rel: run?.ok ? named : null, row };
  }

  /** A named run folder: whether it is one (no link on the way), and its row (null without a readable summary). */
  private runAt(rel: string): { ok: boolean; row: TrialRow | null } {
    let run = this.runs.get(rel);
    if (!run) {
      const dir = join(this.results, rel);
      const ok = resolvesToItself(dir);
      this.runs.set(rel, (run = { ok, row: ok ? summaryRow(dir, () => {}) : null }));
    }
    return run;
  }

  private build(): JobTrial[] {
    const plan = this.plan;
    if (!plan) return [];
    const latest = latestByTrial(this.records);
    const tries = new Map<string, number>();
    for (const r of this.records) tries.set(r.trial, Math.max(tries.get(r.trial) ?? 0, r.try));
    const running = this.runningLogs();
    return plan.trials.map((spec) => {
      const n = tries.get(spec.trial) ?? 0;
      return { spec, record: latest.get(spec.trial), tries: n, running: running.has(trialLogName(spec.trial, n + 1)) };
    });
  }

  /** Every trial run's record, retries included (the trial page lists a trial's tries). */
  allRecords(): readonly TrialRecord[] {
    this.refresh();
    return this.records;
  }

  progress(): Progress {
    const trials = this.trials();
    const final = trials.filter((t) => t.record && !isInfraError(t.record));
    const count = (s: string) => trials.filter((t) => t.record?.status === s).length;
    const spend = spentOf(this.records);
    const running = trials.filter((t) => t.running).length;
    const state = this.lockPid !== null ? "running" : final.length === trials.length && trials.length > 0 ? "finished" : "stopped";
    return { total: trials.length, done: trials.filter((t) => t.record).length, passed: count("passed"), failed: count("failed"), errors: count("error"), running, spend, state };
  }
}
