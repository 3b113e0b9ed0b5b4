/** Small filesystem helpers: atomic writes and ownership walks that never follow symlinks. */
import { chmodSync, closeSync, constants, fstatSync, lchownSync, lstatSync, openSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { toolPath } from "./config.ts";

export function writeAtomic(path: string, data: string, mode = 0o644): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  writeFileSync(tmp, data, { mode });
  chmodSync(tmp, mode);
  renameSync(tmp, path);
}

/** Mode bits no handed-back entry keeps: setuid, setgid, sticky, group and world write. */
const UNSAFE_MODE = 0o7022;

/**
 * Hands every entry below `dir` (not `dir` itself) to uid:gid with lchown, at any depth, and
 * clears setuid/setgid/sticky and group/world write bits. With `onlyFromUid`, only entries owned
 * by that uid change owner; a hard link to a root file (made by the agent) never changes at all.
 * The walk holds one folder open at a time and names entries through `/proc/self/fd/<fd>/<name>`,
 * so every path stays short and a tree deeper than PATH_MAX is handed back whole (Bun's chdir and
 * path calls stop at PATH_MAX). Each folder it enters or returns to must be the one it listed
 * (device + inode; opened with O_NOFOLLOW), so nothing can lead it elsewhere. Best effort: a
 * vanished entry does not stop the hand-over.
 */
export function handBackTree(dir: string, uid: number, gid: number, onlyFromUid?: number): void {
  let fd: number | undefined;
  try {
    fd = openDir(dir);
    const levels = [{ names: namesIn(at(fd)), next: 0, here: fstatSync(fd) }];
    while (levels.length > 0) {
      const level = levels[levels.length - 1] as (typeof levels)[number];
      const name = level.names[level.next++];
      if (name === undefined) {
        levels.pop();
        const parent = levels[levels.length - 1];
        if (!parent) break;
        fd = swap(fd, openDir(at(fd, "..")));
        if (!same(fstatSync(fd), parent.here)) return;
        continue;
      }
      const path = at(fd, name);
      const st = tryLstat(path);
      if (!st) continue;
      // A hard link to a root file (made by the agent) must never change owner or mode.
      if (!st.isDirectory() && st.nlink > 1 && st.uid === 0) continue;
      if (onlyFromUid === undefined || st.uid === onlyFromUid) tryDo(() => lchownSync(path, uid, gid));
      if (!st.isSymbolicLink() && (st.mode & UNSAFE_MODE) !== 0) tryDo(() => chmodSync(path, st.mode & 0o7777 & ~UNSAFE_MODE));
      if (!st.isDirectory()) continue;
      let child: number;
      try {
        child = openDir(path);
      } catch {
        continue;
      }
      fd = swap(fd, child);
      const here = fstatSync(fd);
      if (!same(here, st)) return;
      levels.push({ names: namesIn(at(fd)), next: 0, here });
    }
  } catch {
    // the folder itself is gone or unreadable: nothing to hand over
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const same = (a: { dev: number; ino: number }, b: { dev: number; ino: number }) => a.dev === b.dev && a.ino === b.ino;
const at = (fd: number, name?: string) => (name === undefined ? `/proc/self/fd/${fd}` : `/proc/self/fd/${fd}/${name}`);
const openDir = (path: string) => openSync(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);

function swap(old: number, next: number): number {
  closeSync(old);
  return next;
}

function tryLstat(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
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
