/**
 * Git operations as root with an empty configuration (no system/global config, no hooks): the
 * squash that gives the agent one commit, and the capture of the agent's change against the
 * root-only copy of that commit (the agent's own .git is never read).
 */
import { lstatSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { run } from "../fs-util.ts";
import { capture } from "../privilege/processes.ts";
import { removeVcsMetadata } from "./vcs-metadata.ts";
import { toolPath } from "../config.ts";

export interface GitEnv {
  home: string;
}

function env(g: GitEnv, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: toolPath(),
    HOME: g.home,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: join(g.home, "gitconfig"),
    GIT_TERMINAL_PROMPT: "0",
    ...extra,
  };
}

export function gitHome(dir: string): GitEnv {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Trees change owner (model, sse-runner) while root works on them.
  writeFileSync(join(dir, "gitconfig"), "[safe]\n\tdirectory = *\n[core]\n\thooksPath = /dev/null\n");
  return { home: dir };
}

function git(g: GitEnv, args: string[], opts: { cwd?: string } = {}) {
  const r = run(["git", ...args], { cwd: opts.cwd, env: env(g) });
  if (!r.ok) throw new Error(`git ${args[0]} failed: ${(r.stderr || r.stdout).trim()}`);
  return r;
}

/** Removes the version-control metadata of `source` and commits the tree as one commit; returns its id. */
export function squash(g: GitEnv, source: string): string {
  // Below and above the source: a parent clone's history would hold the fix.
  removeVcsMetadata(source);
  git(g, ["init", "-q"], { cwd: source });
  git(g, ["config", "user.name", "SSEBench Agent"], { cwd: source });
  git(g, ["config", "user.email", "agent@ssebench.invalid"], { cwd: source });
  git(g, ["add", "-A"], { cwd: source });
  git(g, ["-c", "commit.gpgsign=false", "commit", "-q", "--no-verify", "--allow-empty", "-m", "buggy commit"], { cwd: source });
  return git(g, ["rev-parse", "HEAD"], { cwd: source }).stdout.trim();
}

/**
 * `git diff --binary` of the agent's tree against `base`, with a private index. Bounded in time:
 * the tree is the agent's (a huge sparse file would otherwise stall grading).
 */
/** The patch, or null when it is over `maxBytes` (git is stopped there: the output is never held whole). */
export async function capturePatch(g: GitEnv, gitDir: string, tree: string, base: string, index: string, timeoutMs: number, maxBytes = Infinity): Promise<Uint8Array | null> {
  // New objects go to a scratch store beside the index; the pristine repository is only read.
  const objects = `${index}.objects`;
  rmSync(index, { force: true });
  rmSync(objects, { recursive: true, force: true });
  mkdirSync(objects, { recursive: true, mode: 0o700 });
  const extra = {
    GIT_DIR: gitDir,
    GIT_WORK_TREE: tree,
    GIT_INDEX_FILE: index,
    GIT_OBJECT_DIRECTORY: objects,
    GIT_ALTERNATE_OBJECT_DIRECTORIES: join(gitDir, "objects"),
  };
  // The private index starts as `base`: `add -A` then records the whole tree, so deletions show,
  // and a tracked file stays tracked even when the agent's .gitignore now matches it.
  const deadline = performance.now() + timeoutMs;
  const step = async (args: string[], maxOutput?: number) => {
    const r = await capture(["git", ...args], { cwd: tree, env: env(g, extra), timeoutMs: Math.max(1, deadline - performance.now()), maxOutput });
    if (r.overflow) return null;
    if (!r.ok) throw new Error(`git ${args[0]} failed${r.code === null ? " (time limit)" : ""}: ${(r.stderr || r.stdout).trim()}`);
    return r.bytes;
  };
  await step(["read-tree", base]);
  await step(["add", "-A", "--ignore-errors", "."]);
  // No rename detection: every file of the change is its own entry (grading sets some aside by path).
  return step(["diff", "--cached", "--binary", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames", base], maxBytes);
}

export interface ChangeSize {
  /** Files over the per-file limit. */
  big: { path: string; bytes: number }[];
  /** Files that are new or changed size, with their apparent sizes, largest first. */
  changed: { path: string; bytes: number }[];
  totalBytes: number;
}

/**
 * The size of the agent's change before anything is hashed: each file not ignored (or tracked)
 * that is new or changed size, by apparent size (a file of the same size in `pristine` was there
 * before and does not count), and those over `limit` bytes. Only lists and stats, never reads a
 * file: a 20 GB sparse file, or thousands of sparse files just under the limit, would otherwise be
 * hashed as root until grading times out.
 */
export async function changeSize(g: GitEnv, gitDir: string, tree: string, pristine: string, index: string, limit: number, timeoutMs: number): Promise<ChangeSize> {
  rmSync(index, { force: true }); // an empty index: every file not ignored is listed, none hashed
  const r = await capture(["git", "ls-files", "-o", "--exclude-standard", "-z"], { cwd: tree, env: env(g, { GIT_DIR: gitDir, GIT_WORK_TREE: tree, GIT_INDEX_FILE: index }), timeoutMs });
  if (!r.ok) throw new Error(`git ls-files failed${r.code === null ? " (time limit)" : ""}: ${r.stderr.trim()}`);
  // Tracked files too: the agent's .gitignore may match a tracked file, which the patch still holds.
  const t = await capture(["git", "ls-tree", "-r", "-z", "--name-only", "HEAD"], { cwd: tree, env: env(g, { GIT_DIR: gitDir }), timeoutMs });
  if (!t.ok) throw new Error(`git ls-tree failed${t.code === null ? " (time limit)" : ""}: ${t.stderr.trim()}`);
  const changed: { path: string; bytes: number }[] = [];
  let totalBytes = 0;
  for (const path of new Set([...r.stdout.split("\0"), ...t.stdout.split("\0")])) {
    if (path === "") continue;
    const st = lstatOrNull(join(tree, path));
    if (!st?.isFile()) continue;
    if (lstatOrNull(join(pristine, path))?.size === st.size) continue;
    changed.push({ path, bytes: st.size });
    totalBytes += st.size;
  }
  changed.sort((a, b) => b.bytes - a.bytes);
  return { big: changed.filter((f) => f.bytes > limit), changed, totalBytes };
}

function lstatOrNull(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
