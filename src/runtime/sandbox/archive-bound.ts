/**
 * What the archive may hold when the run ends (`SSE_MAX_ARCHIVE_MB`): the agent writes it without
 * limit during its phase, and the host copies or keeps it. Over the bound, the largest files the
 * agent left go first until it fits; plugin output (`plugins/`, `artifact/`) is kept. Sizes are
 * apparent sizes (a sparse file becomes dense on many a copy). Symlinks are never followed.
 */
import { lstatSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { log } from "../log.ts";

const KEPT = new Set(["plugins", "artifact"]);

function filesBelow(dir: string, out: { path: string; bytes: number }[], top: boolean): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (top && KEPT.has(name)) continue;
    const path = join(dir, name);
    let st;
    try {
      st = lstatSync(path);
    } catch {
      continue;
    }
    if (st.isDirectory()) filesBelow(path, out, false);
    else out.push({ path, bytes: st.size });
  }
}

/** Returns the files removed (largest first). */
export function boundArchive(archive: string, maxBytes: number): { path: string; bytes: number }[] {
  const files: { path: string; bytes: number }[] = [];
  filesBelow(archive, files, true);
  let total = files.reduce((n, f) => n + f.bytes, 0);
  if (total <= maxBytes) return [];
  files.sort((a, b) => b.bytes - a.bytes);
  const removed: { path: string; bytes: number }[] = [];
  for (const f of files) {
    if (total <= maxBytes) break;
    rmSync(f.path, { force: true });
    total -= f.bytes;
    removed.push(f);
  }
  log("WARN", "Archive over its bound: largest files removed", { max_bytes: maxBytes, removed: removed.length, files: removed.slice(0, 20).map((f) => `${f.path.slice(archive.length + 1)} (${f.bytes})`).join(",") });
  return removed;
}
