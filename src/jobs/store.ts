/**
 * A job's folder, <results>/jobs/<name>/: job.json (the plan), trials.jsonl (one line per ended
 * trial, appended), logs/ (each trial's progress) and `lock` (lock.ts).
 */
import { appendFileSync, closeSync, constants, existsSync, fstatSync, ftruncateSync, mkdirSync, openSync, readFileSync, truncateSync, writeFileSync, writeSync } from "node:fs";
import { join, resolve } from "node:path";
import { describeCause, UserError } from "../errors.ts";
import { writeJsonAtomic } from "../run/record/results.ts";
import { msg } from "./messages.ts";
import type { JobFile } from "./plan.ts";

export interface TrialRecord {
  trial: string;
  task: string;
  agent: string;
  model: string;
  attempt: number;
  /** 1 for the first run of the trial, then one more per retry (across resumes) */
  try: number;
  status: "passed" | "failed" | "error";
  error_type: string | null;
  error_msg: string | null;
  run_id: string | null;
  /** the run folder, relative to the results folder; null when the trial failed before it had one */
  run_dir: string | null;
  dataset: { name: string; version: string };
  started_at: string;
  finished_at: string;
  duration_ms: number;
  /** image IDs the container ran (agent layer) and started from (case image) */
  images: { agent: string | null; case: string | null };
  spend: number;
}

export const JOBS_DIR = "jobs";

export function jobDir(results: string, name: string): string {
  return resolve(results, JOBS_DIR, name);
}

/** logs/<this>: a trial run's progress, build steps and container output. */
export function trialLogName(trial: string, tryNo: number): string {
  return `${trial.replaceAll("/", "__")}.${tryNo}.log`;
}

export function readJobFile(dir: string): JobFile | undefined {
  const file = join(dir, "job.json");
  if (!existsSync(file)) return undefined;
  try {
    const data = JSON.parse(readFileSync(file, "utf8")) as JobFile;
    if (!data || typeof data !== "object" || !Array.isArray(data.trials) || !Array.isArray(data.argv)) throw new Error("trials or argv missing");
    return data;
  } catch (cause) {
    throw new UserError(msg.jobUnreadable(file, describeCause(cause)));
  }
}

export function writeJobFile(dir: string, job: JobFile): void {
  mkdirSync(join(dir, "logs"), { recursive: true });
  writeJsonAtomic(join(dir, "job.json"), job, 2);
}

/** Every well-formed line of trials.jsonl (another is skipped with a warning). */
export function readTrials(dir: string, warn: (line: string) => void = () => {}): TrialRecord[] {
  const file = join(dir, "trials.jsonl");
  if (!existsSync(file)) return [];
  const records: TrialRecord[] = [];
  readFileSync(file, "utf8").split("\n").forEach((line, index) => {
    if (!line.trim()) return;
    const record = parseRecord(line);
    if (record) records.push(record);
    else warn(msg.trialsLine(file, index + 1));
  });
  return records;
}

/** USD of these trial runs (a record without a usable spend counts 0). */
export function spentOf(records: readonly Pick<TrialRecord, "spend">[]): number {
  return records.reduce((sum, r) => sum + (typeof r.spend === "number" && Number.isFinite(r.spend) && r.spend > 0 ? r.spend : 0), 0);
}

function parseRecord(line: string): TrialRecord | undefined {
  try {
    const r = JSON.parse(line) as TrialRecord;
    return typeof r?.trial === "string" && typeof r.status === "string" ? r : undefined;
  } catch {
    return undefined;
  }
}

/** <job>/job.log: what happened to the job itself (repairs, leftovers removed), one timestamped line each. */
export function jobLog(dir: string): (line: string, detail?: string) => void {
  return (line, detail) => appendFileSync(join(dir, "job.log"), `${new Date().toISOString()} ${line}\n${detail === undefined ? "" : `  ${detail}\n`}`);
}

/**
 * Makes the job folder ready for a run (its holder has the lock): logs/ exists, and a last line
 * of trials.jsonl cut off by a process that stopped while writing it is repaired, so no record is
 * ever appended onto it (and lost with it): a whole record without its line end is terminated,
 * anything else is dropped. Each repair is said through `note`.
 */
export function openJobFolder(dir: string, note: (line: string, detail?: string) => void): void {
  mkdirSync(join(dir, "logs"), { recursive: true });
  const file = join(dir, "trials.jsonl");
  // Made now, so that a disk out of inodes later still takes the records of the trials it stops.
  if (!existsSync(file)) return writeFileSync(file, "");
  const bytes = readFileSync(file);
  if (bytes.length === 0 || bytes[bytes.length - 1] === 0x0a) return;
  const end = bytes.lastIndexOf(0x0a) + 1;
  const torn = bytes.subarray(end).toString("utf8");
  if (parseRecord(torn)) {
    appendFileSync(file, "\n");
    note(msg.trialsTornTerminated(file));
  } else {
    truncateSync(file, end);
    note(msg.trialsTornDropped(file, bytes.length - end), JSON.stringify(torn.slice(0, 4096)));
  }
}

/**
 * One line, one write (the job's one process appends; O_APPEND). A write that fails part-way is
 * cut back off, so the file never ends in a partial line that the next record would be glued to.
 */
export function appendTrial(dir: string, record: TrialRecord): void {
  const fd = openSync(join(dir, "trials.jsonl"), constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, 0o644);
  try {
    const before = fstatSync(fd).size;
    try {
      writeSync(fd, `${JSON.stringify(record)}\n`);
    } catch (cause) {
      try {
        ftruncateSync(fd, before);
      } catch {
        // the next open repairs it
      }
      throw cause;
    }
  } finally {
    closeSync(fd);
  }
}
