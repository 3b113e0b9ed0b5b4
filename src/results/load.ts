/**
 * The trials `ssebench results` scores, from a job (its trials.jsonl and the run folders it names)
 * or from a folder of runs (every summary.json below it). Run folders are written by the agents'
 * containers, so every file is untrusted: regular files only, no symlink followed (files and
 * folders), a size cap, archive/ never read, and each field's type checked before it is used.
 */
import { closeSync, constants, existsSync, fstatSync, openSync, readdirSync, readlinkSync, readSync, realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, normalize, resolve } from "node:path";
import { describeCause, UserError } from "../errors.ts";
import { ORACLE_REVIEW, VERDICTS, type Verdict, verdictAgrees } from "../formats/run/oracle-review.ts";
import type { JobFile } from "../jobs/plan.ts";
import { latestByTrial } from "../jobs/rules.ts";
import { JOBS_DIR, readJobFile, readTrials, type TrialRecord } from "../jobs/store.ts";
import { stagesPassed } from "./funnel.ts";
import { msg } from "./messages.ts";

export const SUMMARY_MAX_BYTES = 16 * 1024 * 1024;
/** results/<task>/<model>/<agent>/<run-id>: a scan goes no deeper than this below where it starts */
const MAX_DEPTH = 6;

export interface TrialRow {
  /** `<name>@<version>`, or `unknown` for runs recorded before provenance */
  dataset: string;
  task: string;
  agent: string;
  model: string;
  status: "passed" | "failed" | "error";
  errorType: string | null;
  spend: number;
  tokens: number;
  seconds: number;
  runDir: string | null;
  /** the oracle plugin's verdict on the run (oracle-review.json beside summary.json), null when none */
  oracle: { verdict: Verdict; agrees: boolean | null } | null;
  /** the checks of grading passed in a row: build, PoC, tests, hidden tests (0–4; funnel.ts) */
  stages: number;
  /** the day the task's vulnerability was published (YYYY-MM-DD, summary.json provenance.task_dates), null when not recorded */
  published: string | null;
  /** answers came from another model than the model file's upstream_model (summary.json provenance.model), else null */
  mismatch: { upstream_model: string; answered: string[] } | null;
}

export const REVIEW_MAX_BYTES = 1024 * 1024;

export interface Source {
  label: string;
  rows: TrialRow[];
}

/**
 * A regular file (O_NOFOLLOW, O_NONBLOCK) of at most maxBytes, in one buffer of its size; with
 * `within` (a real path), only when what the opened descriptor resolves to lies below it (no
 * linked folder on the way).
 */
export function readCapped(path: string, maxBytes: number, within?: string): string {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new Error("is not a regular file");
    if (within !== undefined) {
      const real = readlinkSync(`/proc/self/fd/${fd}`);
      if (!real.startsWith(`${within}/`)) throw new Error(`resolves to ${real}, outside ${within}`);
    }
    if (st.size > maxBytes) throw new Error(`is larger than ${maxBytes} bytes`);
    const buf = Buffer.alloc(st.size + 1);
    let length = 0;
    for (let n = readSync(fd, buf, 0, buf.length, null); n > 0; n = readSync(fd, buf, length, buf.length - length, null)) {
      length += n;
      if (length > st.size) throw new Error("grew while it was read");
    }
    return buf.toString("utf8", 0, length);
  } finally {
    closeSync(fd);
  }
}

/** A run folder as trials.jsonl names it: relative, inside the results folder (the text only), else null. */
export function insideResults(runDir: unknown): string | null {
  if (typeof runDir !== "string" || runDir === "" || isAbsolute(runDir) || runDir.includes("\0")) return null;
  const n = normalize(runDir);
  return n === ".." || n.startsWith("../") || n === "." ? null : n;
}

/** True when the path resolves to itself: no symbolic link anywhere on the way (give it below a real path). */
export function resolvesToItself(path: string): boolean {
  try {
    return realpathSync(path) === path;
  } catch {
    return false;
  }
}

const realOr = (path: string) => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};

/** The JSON objects of a JSON-lines text (lines that are not one are skipped). */
export function jsonLines(text: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const o = JSON.parse(line);
      if (o !== null && typeof o === "object" && !Array.isArray(o)) out.push(o as Record<string, unknown>);
    } catch {
      // a torn or foreign line
    }
  }
  return out;
}

const str = (v: unknown, fallback = "?") => (typeof v === "string" && v.length > 0 ? v : fallback);
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : 0);
const STATUSES = new Set(["passed", "failed", "error"]);
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = (v: unknown) => (typeof v === "string" && DAY.test(v) ? v : null);

/** The oracle's verdict from <run dir>/oracle-review.json (written as root in the run); null without one. */
function oracleOf(runDir: string, grade: TrialRow["status"], warn: (line: string) => void, within: string | undefined): TrialRow["oracle"] {
  const file = join(runDir, ORACLE_REVIEW);
  if (!existsSync(file)) return null;
  try {
    const r = JSON.parse(readCapped(file, REVIEW_MAX_BYTES, within));
    const verdict = VERDICTS.find((v) => v === r?.verdict);
    return r?.status === "ok" && verdict ? { verdict, agrees: verdictAgrees(verdict, grade) } : null;
  } catch (cause) {
    warn(msg.unreadable(file, describeCause(cause)));
    return null;
  }
}

/**
 * summary.json → a row; null (and a warning) when it is not one. With `within` (a real path), its
 * files are read only when they resolve inside it once open (readCapped).
 */
export function summaryRow(runDir: string, warn: (line: string) => void, within?: string): TrialRow | null {
  const file = join(runDir, "summary.json");
  let s: Record<string, any>;
  try {
    s = JSON.parse(readCapped(file, SUMMARY_MAX_BYTES, within));
    if (!s || typeof s !== "object" || Array.isArray(s)) throw new Error("not a JSON object");
  } catch (cause) {
    warn(msg.unreadable(file, describeCause(cause)));
    return null;
  }
  const p = s.patch_result ?? {};
  const status = STATUSES.has(p.status) ? (p.status as TrialRow["status"]) : "error";
  const d = s.provenance?.dataset;
  const tokens = s.tokens && typeof s.tokens === "object" ? num(s.tokens.input) + num(s.tokens.output) + num(s.tokens.cache_read) + num(s.tokens.cache_write) : 0;
  return {
    dataset: d && typeof d.name === "string" ? `${d.name}@${str(d.version, "")}` : "unknown",
    task: str(s.task?.id),
    agent: str(s.config?.agent),
    model: str(s.config?.model),
    status,
    errorType: status === "error" ? (typeof p.error_type === "string" ? p.error_type : "infra") : null,
    spend: num(s.spend),
    tokens,
    seconds: num(s.timings_ms?.total) / 1000,
    runDir,
    oracle: oracleOf(runDir, status, warn, within),
    stages: stagesPassed(p, status),
    published: day(s.provenance?.task_dates?.published),
    mismatch: mismatchOf(s.provenance?.model),
  };
}

/** summary.json provenance.model when it says another model answered (untrusted: only strings are kept, 16 at most). */
function mismatchOf(m: unknown): TrialRow["mismatch"] {
  const p = m as { mismatch?: unknown; upstream_model?: unknown; answered?: unknown } | null | undefined;
  if (!p || p.mismatch !== true || typeof p.upstream_model !== "string" || !Array.isArray(p.answered)) return null;
  return { upstream_model: p.upstream_model, answered: p.answered.filter((a): a is string => typeof a === "string").slice(0, 16) };
}

/** A trial's row from its trials.jsonl record, for a trial without a readable run folder. */
export function recordRow(job: JobFile, r: TrialRecord): TrialRow {
  return {
    dataset: `${job.dataset?.name ?? "unknown"}@${job.dataset?.version ?? ""}`,
    task: r.task,
    agent: r.agent,
    model: r.model,
    status: r.status,
    errorType: r.status === "error" ? (r.error_type ?? "infra") : null,
    spend: num(r.spend),
    tokens: 0,
    seconds: num(r.duration_ms) / 1000,
    runDir: null,
    oracle: null,
    // Without its run folder only the grade is known: a passed trial passed every stage.
    stages: r.status === "passed" ? 4 : 0,
    published: null,
    mismatch: null,
  };
}

function jobRows(dir: string, warn: (line: string) => void): TrialRow[] {
  const job = readJobFile(dir) as JobFile;
  const root = realOr(dirname(dirname(dir)));
  const latest = latestByTrial(readTrials(dir, warn));
  const rows: TrialRow[] = [];
  for (const t of job.trials) {
    const r = latest.get(t.trial);
    if (!r) continue;
    // The run folder must lie inside the results folder the job is in, with no link on the way
    // (a linked folder could lead anywhere): else the trial counts as its record says.
    const rel = insideResults(r.run_dir);
    // Read only if each file, once open, resolves to a path inside <root>/<rel> as written: a link
    // anywhere on the way makes it resolve elsewhere (and no check can go stale before the open).
    const row = rel !== null ? summaryRow(join(root, rel), warn, join(root, rel)) : null;
    const found = row ?? recordRow(job, r);
    // A --predictions trial is scored under who made the patch, not the patch agent that applied it.
    if (t.source) rows.push({ ...found, agent: t.source.agent ?? found.agent, model: t.source.model ?? found.model });
    else rows.push(found);
  }
  return rows;
}

function scanRows(dir: string, warn: (line: string) => void, rows: TrialRow[] = [], depth = 0): TrialRow[] {
  let entries: import("node:fs").Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (cause) {
    warn(msg.unreadable(dir, describeCause(cause)));
    return rows;
  }
  if (entries.some((e) => e.name === "summary.json" && e.isFile())) {
    const row = summaryRow(dir, warn);
    if (row) rows.push(row);
    return rows;
  }
  if (depth >= MAX_DEPTH) return rows;
  for (const e of entries) {
    // Dirent types come from lstat: a symlinked folder is never entered.
    if (!e.isDirectory() || e.name === "archive" || e.name === JOBS_DIR || e.name.startsWith(".")) continue;
    scanRows(join(dir, e.name), warn, rows, depth + 1);
  }
  return rows;
}

/** A job name (under <results>/jobs/), a job folder, or a folder of runs. */
export function loadSource(arg: string, results: string, warn: (line: string) => void): Source {
  const named = resolve(results, JOBS_DIR, arg);
  if (!arg.includes("/") && existsSync(join(named, "job.json"))) return { label: arg, rows: jobRows(named, warn) };
  const dir = resolve(arg);
  if (existsSync(join(dir, "job.json"))) return { label: arg, rows: jobRows(dir, warn) };
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UserError(msg.notFound(arg));
  const rows = scanRows(dir, warn);
  if (rows.length === 0) throw new UserError(msg.noRuns(dir));
  return { label: arg, rows };
}
