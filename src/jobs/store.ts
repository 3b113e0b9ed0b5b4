/**
 * A job's folder, <results>/jobs/<name>/: job.json (the plan), trials.jsonl (one line per ended
 * trial, appended), logs/ (each trial's progress) and `lock` (lock.ts).
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
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

/** Every well-formed line of trials.jsonl (a torn last line from a killed process is skipped with a warning). */
export function readTrials(dir: string, warn: (line: string) => void = () => {}): TrialRecord[] {
  const file = join(dir, "trials.jsonl");
  if (!existsSync(file)) return [];
  const records: TrialRecord[] = [];
  readFileSync(file, "utf8").split("\n").forEach((line, index) => {
    if (!line.trim()) return;
    try {
      const r = JSON.parse(line) as TrialRecord;
      if (typeof r?.trial !== "string" || typeof r.status !== "string") throw new Error("no trial or status");
      records.push(r);
    } catch {
      warn(msg.trialsLine(file, index + 1));
    }
  });
  return records;
}

/** USD of these trial runs (a record without a usable spend counts 0). */
export function spentOf(records: readonly Pick<TrialRecord, "spend">[]): number {
  return records.reduce((sum, r) => sum + (typeof r.spend === "number" && Number.isFinite(r.spend) && r.spend > 0 ? r.spend : 0), 0);
}

/** One line, one write: O_APPEND keeps concurrent trials' lines whole. */
export function appendTrial(dir: string, record: TrialRecord): void {
  appendFileSync(join(dir, "trials.jsonl"), `${JSON.stringify(record)}\n`);
}
