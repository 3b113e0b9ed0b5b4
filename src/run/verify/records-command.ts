/**
 * The verification records' commands: `dataset verify --record` (after a verify), `dataset verify
 * --record-from OUT` (from a finished verify) and `dataset records DIR [--check|--sample SEED|--prune]`.
 */
import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { ExitCode, UserError, usageError } from "../../errors.ts";
import type { VerifiedRecord } from "../../formats/verified/verified.ts";
import { err, out, renderJson, renderTable } from "../../output/terminal.ts";
import type { Docker } from "../backends/docker.ts";
import type { Home } from "../home.ts";
import { msg } from "../messages.ts";
import { verdictToRecord } from "./record-from.ts";
import { gradingCodeDigest, keyChanges, type RecordKey, recordKey } from "./record-key.ts";
import { readRecords, recordOf, recordProblems, recordsPath, sampleTask, updateRecords } from "./records.ts";
import { listTaskFolders, type TaskVerdict } from "./verify.ts";

/** Records need the checkout's grading code; a release binary's embedded home has none. */
export function requireCheckout(home: Home): void {
  if (home.source === "embedded" || !existsSync(join(home.root, "src", "runtime"))) throw usageError(msg.recordsNeedCheckout(home.root));
}

/** Records the passing verdicts of a verify just run; returns the line to print. */
export async function recordVerdicts(dir: string, verdicts: readonly TaskVerdict[]): Promise<string> {
  const records: Record<string, VerifiedRecord> = {};
  for (const v of verdicts) if (v.ok && v.key) records[v.task] = recordOf(v, v.key);
  await updateRecords(dir, records);
  return msg.recorded(Object.keys(records).length, recordsPath(dir));
}

function datasetFolder(dirArg: string): string {
  const dir = resolve(dirArg);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UserError(`${dir}: no such dataset folder`);
  return dir;
}

/** The current key of every task of the dataset. */
function currentKeys(home: Home, dir: string, ids: readonly string[]): Map<string, RecordKey> {
  const grading = gradingCodeDigest(home.root);
  return new Map(ids.map((id) => [id, recordKey(home.root, join(dir, id), grading)]));
}

export interface RecordFromArgs {
  dir: string;
  from: string;
  tasks: string[];
}

/** `dataset verify --record-from OUT`: one line per task not recorded (exit 1), then how many were. */
export async function recordFromCommand(args: RecordFromArgs, deps: { docker: Docker; home: Home; env: NodeJS.ProcessEnv }): Promise<number> {
  requireCheckout(deps.home);
  const dir = datasetFolder(args.dir);
  const all = listTaskFolders(dir);
  const unknown = args.tasks.filter((t) => !all.includes(t));
  if (unknown.length > 0) throw new UserError(msg.verifyUnknownTasks(dir, unknown));
  if (!existsSync(join(args.from, "tasks"))) throw new UserError(`${args.from}: not a dataset verify --output folder (it has no tasks/)`);
  const ids = args.tasks.length > 0 ? args.tasks : all.filter((id) => existsSync(join(args.from, "tasks", `${id}.json`)));
  const keys = currentKeys(deps.home, dir, ids);
  const records: Record<string, VerifiedRecord> = {};
  let failed = 0;
  for (const id of ids) {
    const outcome = await verdictToRecord(args.from, id, join(dir, id), keys.get(id) as RecordKey, deps.docker, deps.env);
    if (outcome.ok) records[id] = recordOf(outcome.verdict, keys.get(id) as RecordKey, new Date(statSync(join(args.from, "tasks", `${id}.json`)).mtimeMs));
    else {
      err(outcome.line);
      failed++;
    }
  }
  await updateRecords(dir, records);
  out(msg.recorded(Object.keys(records).length, recordsPath(dir)));
  return failed > 0 ? ExitCode.failure : ExitCode.ok;
}

function seconds(text: string): number {
  const n = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !(n > 0)) throw usageError(msg.badWithin(text));
  return n;
}

export interface RecordsArgs {
  dir: string;
  check?: boolean;
  sample?: string;
  within?: string;
  prune?: boolean;
  json?: boolean;
}

/** `dataset records DIR`: a table of the records and their state; --check, --sample, --prune. */
export async function recordsCommand(args: RecordsArgs, home: Home): Promise<number> {
  const dir = datasetFolder(args.dir);
  const ids = listTaskFolders(dir);
  if (args.within !== undefined && args.sample === undefined) throw usageError(msg.withinNeedsSample());
  if (args.sample !== undefined) {
    const within = args.within === undefined ? undefined : seconds(args.within);
    const recorded = within === undefined ? {} : readRecords(dir).records;
    const pool = within === undefined ? ids : ids.filter((id) => (recorded[id]?.seconds ?? Number.POSITIVE_INFINITY) <= within);
    const id = sampleTask(pool, args.sample);
    if (!id) throw new UserError(within === undefined ? msg.verifyNoTasks(dir) : msg.noTaskWithin(dir, within));
    out(id);
    return ExitCode.ok;
  }
  requireCheckout(home);
  const file = recordsPath(dir);
  if (args.prune) {
    const orphans = Object.keys(readRecords(dir).records).filter((id) => !ids.includes(id));
    await updateRecords(dir, {}, orphans);
    out(`dropped ${orphans.length} record(s) of tasks ${dir} does not have`);
    return ExitCode.ok;
  }
  const records = readRecords(dir);
  const keys = currentKeys(home, dir, ids);
  if (args.check) {
    const problems = recordProblems(args.dir, file, records, keys);
    for (const line of problems) err(line);
    if (problems.length > 0) return ExitCode.failure;
    out(`${file}: every task of ${args.dir} has a current record (${ids.length})`);
    return ExitCode.ok;
  }
  const rows = ids.map((id) => {
    const r = records.records[id];
    const changed = r ? keyChanges(r, keys.get(id) as RecordKey) : [];
    const state = !r ? "missing" : changed.length > 0 ? `stale: ${changed.join(", ")}` : "current";
    return { task: id, recorded: r?.recorded ?? null, repeats: r?.repeats ?? null, seconds: r?.seconds ?? null, state };
  });
  if (args.json) out(renderJson(rows));
  else out(renderTable(["TASK", "RECORDED", "REPEATS", "SECONDS", "STATE"], rows.map((r) => [r.task, r.recorded ?? "-", String(r.repeats ?? "-"), String(r.seconds ?? "-"), r.state])));
  return ExitCode.ok;
}
