/**
 * Version-control metadata that could hold the fix (docs/container-contract.md §5 step 2): every
 * `.git`, `.hg`, `.svn`, `.bzr` below the source and in each folder above it (a source in a
 * subfolder of a clone keeps the clone's history otherwise), and the repository a `.git` file
 * points to (a worktree or submodule keeps its objects elsewhere).
 */
import { lstatSync, readFileSync, rmSync } from "node:fs";
import { dirname, isAbsolute, join, resolve, sep } from "node:path";
import { run } from "../fs-util.ts";

export const VCS_NAMES = [".git", ".hg", ".svn", ".bzr"];

/** The metadata entries above `source` (its parent up to `/`), nearest first. */
export function metadataAbove(source: string): string[] {
  const found: string[] = [];
  let dir = dirname(resolve(source));
  for (;;) {
    for (const name of VCS_NAMES) if (lstatOrNull(join(dir, name))) found.push(join(dir, name));
    if (dir === dirname(dir)) return found;
    dir = dirname(dir);
  }
}

/** Removes every metadata entry below and above `source`; returns what was removed. */
export function removeVcsMetadata(source: string): string[] {
  const names = VCS_NAMES.flatMap((n, i) => (i === 0 ? ["-name", n] : ["-o", "-name", n]));
  const below = run(["find", source, "(", ...names, ")", "-prune", "-print0"]);
  if (!below.ok) throw new Error(`listing version-control folders failed: ${below.stderr.trim()}`);
  const entries = [...below.stdout.split("\0").filter((p) => p !== ""), ...metadataAbove(source)];
  const removed: string[] = [];
  for (const entry of entries) {
    for (const path of [...linkedRepositories(entry), entry]) {
      rmSync(path, { recursive: true, force: true });
      removed.push(path);
    }
  }
  return removed;
}

/** For a `.git` file (`gitdir: <path>`): that folder and, for a worktree, its common repository. */
function linkedRepositories(entry: string): string[] {
  if (!entry.endsWith(".git") || !lstatOrNull(entry)?.isFile()) return [];
  const m = /^gitdir:\s*(.+?)\s*$/m.exec(readOr(entry));
  if (!m) return [];
  const gitdir = isAbsolute(m[1]!) ? m[1]! : resolve(dirname(entry), m[1]!);
  const out = [gitdir];
  const common = readOr(join(gitdir, "commondir")).trim();
  if (common) out.push(isAbsolute(common) ? common : resolve(gitdir, common));
  // Only what is a repository, never "/" or a folder that holds the source (a hostile .git file).
  const source = resolve(dirname(entry));
  return out.filter((p) => lstatOrNull(join(p, "HEAD")) && !(source + sep).startsWith(p.endsWith(sep) ? p : p + sep));
}

function readOr(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

function lstatOrNull(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
