/**
 * A dataset's verification records (`<dataset>/verified.json`, the format: formats/verified/):
 * the last passing `dataset verify` of each task, under the key of what it verified
 * (record-key.ts). Written by `dataset verify --record` and `--record-from`; checked by `dataset
 * records --check` (CI), which needs no engine. Writers on one machine merge under a lock file and
 * replace the file by a rename, so concurrent verifies of different tasks keep each other's records.
 */
import { closeSync, existsSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { describeCause, UserError } from "../../errors.ts";
import type { VerifiedFile, VerifiedRecord, VerifiedWay } from "../../formats/verified/verified.ts";
import { VERSION } from "../../version.ts";
import { msg } from "../messages.ts";
import { keyChanges, type RecordKey } from "./record-key.ts";
import { checkKey } from "./verify-repeat.ts";
import type { TaskVerdict } from "./verify.ts";

export const RECORDS_FILE = "verified.json";
const LOCK_WAIT_MS = 120_000;
/** A lock older than this is left over from a killed writer (a merge takes milliseconds). */
const STALE_LOCK_MS = 60_000;

export const recordsPath = (dir: string) => join(dir, RECORDS_FILE);

/** The records of the dataset at `dir`; an empty set when it has no verified.json yet. */
export function readRecords(dir: string): VerifiedFile {
  const file = recordsPath(dir);
  if (!existsSync(file)) return { dataset: basename(dir), records: {} };
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (cause) {
    throw new UserError(msg.recordsUnreadable(file, describeCause(cause).split("\n")[0] as string));
  }
  const { verifiedProblems } = require("../../formats/verified/verified.ts") as typeof import("../../formats/verified/verified.ts");
  const problems = verifiedProblems(data);
  if (problems.length > 0) throw new UserError(msg.recordsInvalid(file, problems[0] as string));
  return data as VerifiedFile;
}

/** The file's text: one record per line, by task id, so concurrent additions merge line by line. */
export function recordsText(file: VerifiedFile): string {
  const ids = Object.keys(file.records).sort();
  const lines = ids.map((id, i) => `    ${JSON.stringify(id)}: ${JSON.stringify(file.records[id])}${i < ids.length - 1 ? "," : ""}`);
  return `{\n  "dataset": ${JSON.stringify(file.dataset)},\n  "records": {${lines.length > 0 ? `\n${lines.join("\n")}\n  ` : ""}}\n}\n`;
}

async function withLock<T>(file: string, fn: () => T): Promise<T> {
  const lock = `${file}.lock`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      closeSync(openSync(lock, "wx"));
      break;
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code !== "EEXIST") throw new UserError(msg.recordsUnwritable(file, describeCause(cause)));
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { force: true });
      } catch {
        // gone in between: try again
      }
      if (Date.now() > deadline) throw new UserError(msg.recordsLocked(lock));
      await Bun.sleep(50);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

/** Adds or replaces records (and drops those of `remove`), merging with what is on disk now. */
export async function updateRecords(dir: string, records: Record<string, VerifiedRecord>, remove: readonly string[] = []): Promise<void> {
  const file = recordsPath(dir);
  await withLock(file, () => {
    const current = readRecords(dir);
    for (const id of remove) delete current.records[id];
    Object.assign(current.records, records);
    const partial = `${file}.${process.pid}.tmp`;
    try {
      writeFileSync(partial, recordsText(current));
      renameSync(partial, file);
    } catch (cause) {
      rmSync(partial, { force: true });
      throw new UserError(msg.recordsUnwritable(file, describeCause(cause)));
    }
  });
}

const round = (n: number) => Math.round(n * 10) / 10;

function wayOf(verdict: TaskVerdict, agent: string): VerifiedWay {
  const checks: VerifiedWay["checks"] = {};
  for (const rep of verdict.repetitions) {
    for (const c of rep.runs[agent]?.result?.checks ?? []) {
      const entry = (checks[checkKey(c)] ??= { status: c.status, check_seconds: [] });
      entry.check_seconds.push(round(c.duration_seconds ?? 0));
    }
  }
  return { run_seconds: verdict.repetitions.map((r) => round(r.runs[agent]?.seconds ?? 0)), checks };
}

/** The record of a passing verdict computed under `key`. */
export function recordOf(verdict: TaskVerdict, key: RecordKey, finished = new Date()): VerifiedRecord {
  const repeats = Math.max(1, verdict.repetitions.length);
  return {
    ...key,
    recorded: `${finished.toISOString().slice(0, 19)}Z`,
    ssebench: VERSION,
    repeats,
    seconds: round(verdict.seconds / repeats),
    audit_seconds: round(verdict.audit_seconds ?? 0),
    ways: { reference: wayOf(verdict, "reference"), dummy: wayOf(verdict, "dummy") },
  };
}

/** One line per task whose record is missing or stale, and per record of a task the dataset lacks. */
export function recordProblems(dirArg: string, file: string, records: VerifiedFile, current: Map<string, RecordKey>): string[] {
  const lines: string[] = [];
  for (const [id, key] of current) {
    const record = records.records[id];
    if (!record) lines.push(msg.recordMissing(id, file, dirArg));
    else {
      const changed = keyChanges(record, key);
      if (changed.length > 0) lines.push(msg.recordStale(id, file, changed, record.recorded, dirArg));
    }
  }
  for (const id of Object.keys(records.records).sort()) if (!current.has(id)) lines.push(msg.recordOrphan(id, file, dirArg));
  return lines;
}

/** One task of `ids` chosen by `seed` (CI: the commit hash), the same for the same seed and tasks. */
export function sampleTask(ids: readonly string[], seed: string): string | undefined {
  if (ids.length === 0) return undefined;
  const hex = /^[0-9a-f]{8}/i.test(seed) ? seed.slice(0, 8) : new Bun.CryptoHasher("sha256").update(seed).digest("hex").slice(0, 8);
  return [...ids].sort()[Number.parseInt(hex, 16) % ids.length];
}
