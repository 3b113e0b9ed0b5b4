/**
 * One run folder read for display (the report's trial sections, the viewer's trial page). The
 * folder was written by the agent's container, so every file is untrusted: regular files only, no
 * symlink followed (O_NOFOLLOW, and a walk that never enters a linked folder), each read stopped
 * at a cap (the text up to it is kept, and the cut is said), archive/ walked but never trusted,
 * and every field type-checked where it is used. No HTML here (run-view.ts renders it).
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readlinkSync, readSync, realpathSync } from "node:fs";
import { join, normalize } from "node:path";
import { DIALOG_FILE } from "../contract/agent.ts";
import { ORACLE_REVIEW, VERDICTS } from "../formats/run/oracle-review.ts";
import { TOOL_CALLS } from "../formats/run/summary.ts";
import { LEDGER_FILE } from "../gateway/ledger.ts";
import { jsonLines, SUMMARY_MAX_BYTES } from "../results/load.ts";

/** How much of each file is read; the report keeps these small, the viewer reads more. */
export interface Caps {
  log: number;
  patch: number;
  dialog: number;
  ledger: number;
  /** files listed (the walk stops there) */
  files: number;
}

export const REPORT_CAPS: Caps = { log: 256 * 1024, patch: 1024 * 1024, dialog: 2 * 1024 * 1024, ledger: 2 * 1024 * 1024, files: 500 };
export const VIEW_CAPS: Caps = { log: 4 * 1024 * 1024, patch: 8 * 1024 * 1024, dialog: 32 * 1024 * 1024, ledger: 16 * 1024 * 1024, files: 5000 };

/** The text of a file up to a cap, its whole size, and whether the text stops short of it. */
export interface Head {
  text: string;
  size: number;
  cut: boolean;
}

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;

/**
 * The file's first bytes, when it is a regular file that lies, once opened, inside `within` (a real
 * path): O_NOFOLLOW refuses a link as the last name, and what the descriptor resolves to refuses a
 * link on the way (a linked folder inside the run folder), even one swapped in after a check.
 */
export function readHeadBytes(path: string, max: number, within?: string): { bytes: Buffer; size: number; cut: boolean } | null {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return null;
    if (within !== undefined && !readlinkSync(`/proc/self/fd/${fd}`).startsWith(`${within}/`)) return null;
    const want = Math.min(st.size, max);
    const buf = Buffer.alloc(want);
    let length = 0;
    while (length < want) {
      const n = readSync(fd, buf, length, want - length, null);
      if (n === 0) break;
      length += n;
    }
    return { bytes: buf.subarray(0, length), size: st.size, cut: st.size > length };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

export function readHead(path: string, max: number, within?: string): Head | null {
  const head = readHeadBytes(path, max, within);
  return head && { text: head.bytes.toString("utf8"), size: head.size, cut: head.cut };
}

/** A path the summary names, only when it stays inside the run folder. */
export function insideRun(runDir: string, rel: unknown): string | null {
  if (typeof rel !== "string" || rel === "" || rel.startsWith("/") || rel.includes("\0")) return null;
  const n = normalize(rel);
  return n === ".." || n.startsWith("../") ? null : join(runDir, n);
}

export type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});
export const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
export const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

export interface CheckView {
  name: string;
  status: string;
  exitCode: number | null;
  seconds: number | null;
  /** relative to the run folder, when the summary names a log inside it */
  logPath: string | null;
  log: Head | null;
}

export interface FileEntry {
  path: string;
  size: number;
}

export interface RunDetail {
  dir: string;
  /** summary.json parsed, {} when unreadable */
  summary: Json;
  readable: boolean;
  task: string;
  agent: string;
  model: string;
  mode: string;
  runId: string;
  status: string;
  errorType: string | null;
  errorMsg: string | null;
  checks: CheckView[];
  setAside: { path: string; reason: string }[];
  patch: { name: string; head: Head } | null;
  dialog: { name: string; head: Head; entries: Json[] } | null;
  ledger: { head: Head; entries: Json[] } | null;
  toolCalls: Json[];
  oracle: { verdict: string; model: string; reasons: string } | null;
  files: FileEntry[];
  filesCut: boolean;
}

function checkName(c: Json): string {
  return `${str(c.check) ?? "?"}${str(c.poc) ? ` ${str(c.poc)}` : ""}${c.tree === "original" ? " (original tree)" : ""}`;
}

/** Regular files below the run folder (links neither listed nor entered), sorted, at most `max`. */
export function listFiles(runDir: string, max: number): { files: FileEntry[]; cut: boolean } {
  const files: FileEntry[] = [];
  let cut = false;
  const walk = (rel: string, depth: number) => {
    if (depth > 8 || cut) return;
    let entries: import("node:fs").Dirent[];
    try {
      entries = readdirSync(join(runDir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path, depth + 1);
      else if (e.isFile()) {
        if (files.length >= max) {
          cut = true;
          return;
        }
        try {
          files.push({ path, size: lstatSync(join(runDir, path)).size });
        } catch {
          // gone since the listing
        }
      }
    }
  };
  walk("", 0);
  return { files, cut };
}

function oracleOf(real: string): RunDetail["oracle"] {
  const head = readHead(join(real, ORACLE_REVIEW), 1024 * 1024, real);
  if (!head || head.cut) return null;
  try {
    const r = obj(JSON.parse(head.text));
    const verdict = VERDICTS.find((v) => v === r.verdict);
    if (r.status !== "ok" || !verdict) return null;
    return { verdict, model: str(r.model) ?? "", reasons: str(r.reasons) ?? "" };
  } catch {
    return null;
  }
}

/** The first of these files that is there. */
function firstHead(real: string, names: readonly string[], max: number): { name: string; head: Head } | null {
  for (const name of names) {
    const head = readHead(join(real, name), max, real);
    if (head) return { name, head };
  }
  return null;
}

export function readRun(runDir: string, caps: Caps): RunDetail {
  let real: string;
  try {
    real = realpathSync(runDir);
  } catch {
    real = runDir;
  }
  const read = (rel: string, max: number) => readHead(join(real, rel), max, real);
  const text = read("summary.json", SUMMARY_MAX_BYTES);
  let summary: Json = {};
  let readable = false;
  try {
    if (text && !text.cut) {
      summary = obj(JSON.parse(text.text));
      readable = Object.keys(summary).length > 0;
    }
  } catch {
    summary = {};
  }
  const p = obj(summary.patch_result);
  const config = obj(summary.config);
  const checks = (Array.isArray(p.checks) ? p.checks : []).map((raw): CheckView => {
    const c = obj(raw);
    const path = insideRun(real, c.log);
    return { name: checkName(c), status: str(c.status) ?? "?", exitCode: num(c.exit_code), seconds: num(c.duration_seconds), logPath: path ? (str(c.log) as string) : null, log: path ? readHead(path, caps.log, real) : null };
  });
  const setAside = (Array.isArray(p.set_aside) ? p.set_aside : []).map(obj).map((s) => ({ path: str(s.path) ?? "?", reason: str(s.reason) ?? "?" }));
  const dialog = firstHead(real, [DIALOG_FILE, `archive/${DIALOG_FILE}`], caps.dialog);
  const ledger = read(LEDGER_FILE, caps.ledger);
  const calls = read(TOOL_CALLS, caps.ledger);
  const { files, cut } = listFiles(real, caps.files);
  return {
    dir: runDir,
    summary,
    readable,
    task: str(obj(summary.task).id) ?? "?",
    agent: str(config.agent) ?? "?",
    model: str(config.model) ?? "?",
    mode: str(config.mode) ?? "sandbox",
    runId: str(summary.run_id) ?? "?",
    status: str(p.status) ?? "?",
    errorType: str(p.error_type),
    errorMsg: str(p.error_msg),
    checks,
    setAside,
    patch: firstHead(real, ["final.patch", "prediction.patch"], caps.patch),
    dialog: dialog ? { ...dialog, entries: jsonLines(dialog.head.text) } : null,
    ledger: ledger ? { head: ledger, entries: jsonLines(ledger.text) } : null,
    toolCalls: calls ? jsonLines(calls.text) : [],
    oracle: oracleOf(real),
    files,
    filesCut: cut,
  };
}
