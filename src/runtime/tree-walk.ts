/**
 * A walk of every entry below a folder, at any depth, never following a symlink: it holds one
 * folder open at a time and names entries through `/proc/self/fd/<fd>/<name>`, so every path stays
 * short and a tree deeper than PATH_MAX is walked whole (Bun's path calls stop at PATH_MAX). Each
 * folder it enters or returns to must be the one it listed (device + inode, opened with
 * O_NOFOLLOW), so nothing can lead it elsewhere; when that fails the walk stops. Entries are
 * visited in name order (the same order on every walk of an unchanged tree). Best effort: a
 * vanished or unreadable entry is passed over.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, rmdirSync, type Stats, unlinkSync } from "node:fs";

export interface TreeEntry {
  /** The entry's path for now (through the open folder): valid during the visit only. */
  path: string;
  name: string;
  st: Stats;
  /** 1 for an entry right below the root. */
  depth: number;
  /** The name of its ancestor right below the root (its own name at depth 1). */
  top: string;
  /** Inside a folder being removed: the entry goes whatever the visit says. */
  removing: boolean;
  /** Its path below the root (for messages). */
  rel: () => string;
}

/** `remove`: a file is unlinked; a folder is emptied (its entries visited as `removing`) and removed. */
export type Verdict = "keep" | "remove" | undefined;

interface Level {
  names: string[];
  next: number;
  here: Stats;
  name: string;
  removing: boolean;
}

export function walkTree(root: string, visit: (e: TreeEntry) => Verdict): void {
  let fd: number | undefined;
  try {
    fd = openDir(root);
    const levels: Level[] = [{ names: namesAt(at(fd)), next: 0, here: fstatSync(fd), name: "", removing: false }];
    while (levels.length > 0) {
      const level = levels[levels.length - 1]!;
      const name = level.names[level.next++];
      if (name === undefined) {
        levels.pop();
        const parent = levels[levels.length - 1];
        if (!parent) break;
        fd = swap(fd, openDir(at(fd, "..")));
        if (!same(fstatSync(fd), parent.here)) return;
        if (level.removing) tryDo(() => rmdirSync(at(fd!, level.name)));
        continue;
      }
      const path = at(fd, name);
      const st = tryLstat(path);
      if (!st) continue;
      const depth = levels.length;
      const entry: TreeEntry = { path, name, st, depth, top: depth === 1 ? name : levels[1]!.name, removing: level.removing, rel: () => [...levels.slice(1).map((l) => l.name), name].join("/") };
      const verdict = visit(entry);
      const remove = level.removing || verdict === "remove";
      if (!st.isDirectory()) {
        if (remove) tryDo(() => unlinkSync(path));
        continue;
      }
      let child: number;
      try {
        child = openDir(path);
      } catch {
        continue;
      }
      fd = swap(fd, child);
      const here = fstatSync(fd);
      if (!same(here, st)) return;
      levels.push({ names: namesAt(at(fd)), next: 0, here, name, removing: remove });
    }
  } catch {
    // the folder itself is gone or unreadable: nothing to walk
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const same = (a: { dev: number; ino: number }, b: { dev: number; ino: number }) => a.dev === b.dev && a.ino === b.ino;
const at = (fd: number, name?: string) => (name === undefined ? `/proc/self/fd/${fd}` : `/proc/self/fd/${fd}/${name}`);
const openDir = (path: string) => openSync(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);

function namesAt(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

function swap(old: number, next: number): number {
  closeSync(old);
  return next;
}

function tryLstat(path: string): Stats | undefined {
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
    // best effort: a vanished or foreign entry does not stop the walk
  }
}
