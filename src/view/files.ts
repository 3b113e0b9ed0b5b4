/**
 * The viewer's only ways from a URL to the disk: a run folder (a path below a root that the library
 * knows as a run: named by one of its jobs, or found as a folder scan finds runs) and a file of a
 * run folder or a job's log. A path is taken segment by segment (no empty, `.` or `..` segment, no
 * NUL), must resolve to itself (no symlink anywhere, the run folder's own included) and a file must
 * be a regular file, opened without following a link and checked again once open. Nothing outside
 * the results folders is ever read.
 */
import { lstatSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { JOBS_DIR } from "../jobs/store.ts";
import { readHeadBytes } from "../report/run-folder.ts";
import { insideResults } from "../results/load.ts";
import type { Library, Root } from "./library.ts";

/** What a folder scan enters (results/load.ts): no deeper than this, never archive/, jobs/ or dot folders. */
const SCAN_DEPTH = 6;
/** The largest file served as it is. */
export const RAW_MAX = 32 * 1024 * 1024;

/** Clean relative segments, or null. */
export function cleanSegments(segments: readonly string[]): string[] | null {
  if (segments.length === 0) return null;
  for (const s of segments) if (s === "" || s === "." || s === ".." || s.includes("/") || s.includes("\0")) return null;
  return [...segments];
}

/** The path when it resolves to itself (no link on the way) and is what `kind` says. */
function exact(path: string, kind: "dir" | "file"): string | null {
  try {
    if (realpathSync(path) !== path) return null;
    const st = lstatSync(path);
    return (kind === "dir" ? st.isDirectory() : st.isFile()) ? path : null;
  } catch {
    return null;
  }
}

/** The run folder <root>/<segments>, when the library knows it as one. */
export function runFolder(library: Library, root: Root, segments: readonly string[]): string | null {
  const clean = cleanSegments(segments);
  if (!clean) return null;
  const rel = clean.join("/");
  const dir = exact(join(root.dir, rel), "dir");
  if (!dir) return null;
  // Named by a job of this root…
  for (const job of library.jobs()) {
    if (job.results !== root.dir) continue;
    if (job.allRecords().some((r) => insideResults(r.run_dir) === rel)) return dir;
  }
  // …or a run a scan of a folder source would find.
  const folder = library.folders.find((f) => f.root === root);
  if (!folder || clean.length > SCAN_DEPTH) return null;
  if (clean.some((s) => s === "archive" || s === JOBS_DIR || s.startsWith("."))) return null;
  return exact(join(dir, "summary.json"), "file") ? dir : null;
}

/** A file below a folder: its first `max` bytes (and whether it was cut), or null. */
export function fileBelow(dir: string, segments: readonly string[], max: number): ReturnType<typeof readHeadBytes> {
  const clean = cleanSegments(segments);
  if (!clean) return null;
  const path = exact(join(dir, ...clean), "file");
  return path ? readHeadBytes(path, max, dir) : null;
}

/** Shown as text unless it has a NUL byte near its start (a compressed body, a binary). */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8192).includes(0);
}
