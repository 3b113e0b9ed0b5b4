/** Small filesystem helpers: atomic writes and ownership walks that never follow symlinks. */
import { chmodSync, lchownSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { toolPath } from "./config.ts";
import { walkTree } from "./tree-walk.ts";

export function writeAtomic(path: string, data: string, mode = 0o644): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  writeFileSync(tmp, data, { mode });
  chmodSync(tmp, mode);
  renameSync(tmp, path);
}

/** Mode bits no handed-back entry keeps: setuid, setgid, sticky, group and world write. */
const UNSAFE_MODE = 0o7022;

/**
 * Hands every entry below `dir` (not `dir` itself) to uid:gid with lchown, at any depth (a walk by
 * open folder, tree-walk.ts), and clears setuid/setgid/sticky and group/world write bits. With
 * `onlyFromUid`, only entries owned by that uid change owner; a hard link to a root file (made by
 * the agent) never changes at all. Best effort: a vanished entry does not stop the hand-over.
 */
export function handBackTree(dir: string, uid: number, gid: number, onlyFromUid?: number): void {
  walkTree(dir, ({ path, st }) => {
    // A hard link to a root file (made by the agent) must never change owner or mode.
    if (!st.isDirectory() && st.nlink > 1 && st.uid === 0) return "keep";
    if (onlyFromUid === undefined || st.uid === onlyFromUid) tryDo(() => lchownSync(path, uid, gid));
    if (!st.isSymbolicLink() && (st.mode & UNSAFE_MODE) !== 0) tryDo(() => chmodSync(path, st.mode & 0o7777 & ~UNSAFE_MODE));
    return "keep";
  });
}

function tryDo(fn: () => void): void {
  try {
    fn();
  } catch {
    // best effort: a vanished or foreign entry does not stop the hand-over
  }
}

/** The entries of a folder; none when it cannot be read (gone, not a folder). */
export function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** A short helper command at set-up (prepare), where blocking is fine. */
export function run(argv: string[], opts: { cwd?: string; env?: Record<string, string>; stdin?: Uint8Array } = {}) {
  const r = Bun.spawnSync(argv, {
    cwd: opts.cwd,
    env: opts.env ?? { PATH: toolPath() },
    stdin: opts.stdin ? new Blob([opts.stdin]) : "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  return { ok: r.exitCode === 0, code: r.exitCode, bytes: r.stdout, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}
