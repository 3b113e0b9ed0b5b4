/**
 * Lists the files of a task folder the way the reference hashes them (every regular file,
 * recursively, dotfiles included, POSIX paths sorted by code point) and finds what must not be
 * in a task folder: symlinks that leave it. A dataset must not pull host files into an image, so
 * such a link is an error rather than something to follow. Links inside the folder are kept: to a
 * file it is listed (hashed by its target's bytes); to a directory it is not descended (as
 * Python's rglob does not).
 */
import { type Dirent, type Stats, lstatSync, readdirSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describeCause } from "../errors.ts";
import { sortByCodePoint } from "../formats/compat/python-json.ts";
import { taskMessages as m } from "./messages.ts";

export interface TaskTree {
  /** POSIX paths relative to the task folder, code-point sorted */
  files: string[];
  /** the sub-folders walked, as POSIX paths */
  dirs: string[];
  /** symlinks rejected (leaving the folder or dangling): never read through */
  rejected: string[];
  /** one line each, already prefixed with the path */
  problems: string[];
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !rel.startsWith(sep));
}

export function walkTaskFolder(taskDir: string): TaskTree {
  const files: string[] = [];
  const dirs: string[] = [];
  const rejected: string[] = [];
  const problems: string[] = [];
  // Resolved only when a symlink needs judging: most task folders have none.
  let root: string | undefined;
  const realRoot = () => (root ??= realpathSync(taskDir));
  const visit = (dir: string, prefix: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      problems.push(m.unreadableFile(prefix || ".", describeCause(error)));
      return;
    }
    for (const entry of entries) {
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        dirs.push(rel);
        visit(full, rel);
      }
      else if (entry.isFile()) files.push(rel);
      else if (entry.isSymbolicLink()) {
        let target: string;
        try {
          target = readlinkSync(full);
        } catch (error) {
          problems.push(m.unreadableFile(rel, describeCause(error)));
          rejected.push(rel);
          continue;
        }
        let resolved: string;
        try {
          resolved = realpathSync(full);
        } catch {
          problems.push(m.symlinkDangling(rel, target));
          rejected.push(rel);
          continue;
        }
        if (!isInside(realRoot(), resolved)) {
          problems.push(m.symlinkOutside(rel, target));
          rejected.push(rel);
        }
        else if (statSync(resolved).isFile()) files.push(rel);
      }
      // FIFOs, sockets and devices are not files of the task (Python's is_file() is false).
    }
  };
  visit(taskDir, "");
  return { files: sortByCodePoint(files), dirs, rejected, problems };
}

/** True when `path` is a symlink (the task folder itself may not be one). */
export function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * A stat for paths of one task folder answered from its walked tree where it can (no system
 * call for the files and folders the walk saw), falling back to a real stat for anything else:
 * missing paths, and folders behind symlinks, which the walk does not enter. Paths through a
 * rejected symlink do not exist: the checks must not read host files through it.
 */
export function treeStat(taskDir: string, tree: TaskTree): (path: string) => Stats | null {
  const files = new Set(tree.files);
  const dirs = new Set(tree.dirs);
  const prefix = taskDir.endsWith(sep) ? taskDir : taskDir + sep;
  const fallback = new Map<string, Stats | null>();
  return (path) => {
    const rel = path === taskDir ? "" : path.startsWith(prefix) ? path.slice(prefix.length) : undefined;
    if (rel === "" || (rel !== undefined && dirs.has(rel))) return KNOWN_DIR;
    if (rel !== undefined && files.has(rel)) return KNOWN_FILE;
    if (rel !== undefined && tree.rejected.some((link) => rel === link || rel.startsWith(`${link}/`))) return null;
    let info = fallback.get(path);
    if (info === undefined) {
      try {
        info = statSync(path);
      } catch {
        info = null;
      }
      fallback.set(path, info);
    }
    return info;
  };
}

const KNOWN_FILE = { isFile: () => true, isDirectory: () => false } as Stats;
const KNOWN_DIR = { isFile: () => false, isDirectory: () => true } as Stats;
