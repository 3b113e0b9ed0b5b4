/**
 * Permissions around the agent phase (docs/container-contract.md §3): task files, reference patch
 * and results out of model's reach; plugins not writable by it; the archive lent to it.
 */
import { chmodSync, chownSync, lchownSync, lstatSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import type { RuntimeConfig } from "../config.ts";
import { handBackTree, namesIn } from "../fs-util.ts";
import { log } from "../log.ts";
import type { TaskConfig } from "../task.ts";
import type { Account } from "./users.ts";

function tryDo(what: string, fn: () => void): void {
  try {
    fn();
  } catch (e) {
    log("WARN", `Could not ${what}`, { err: e instanceof Error ? e.message : String(e) });
  }
}

export interface Owner {
  uid: number;
  gid: number;
}

/** Returns the archive's original owner (to give it back). */
export function lockDown(cfg: RuntimeConfig, task: TaskConfig, model: Account): Owner {
  mkdirSync(cfg.work, { recursive: true, mode: 0o711 });
  chmodSync(cfg.work, 0o711);
  chownSync(cfg.taskRoot, 0, 0);
  chmodSync(cfg.taskRoot, 0o700);
  if (task.files.patch) tryDo("protect the task's patch", () => chmodSync(join(cfg.taskRoot, task.files.patch!), 0o600));
  if (lstatOrNull(cfg.referencePatch)) {
    try {
      chmodSync(cfg.referencePatch, 0o600);
    } catch (e) {
      // A read-only mount (the usual case) refuses; the folder below gates it anyway.
      if ((e as NodeJS.ErrnoException).code !== "EROFS") throw e;
    }
    const folder = dirname(cfg.referencePatch);
    if (folder !== "/") chmodSync(folder, 0o700);
  }
  mkdirSync(cfg.results, { recursive: true, mode: 0o755 });
  const resultsParent = dirname(cfg.results);
  if (resultsParent !== "/") {
    chownSync(resultsParent, 0, 0);
    chmodSync(resultsParent, 0o700);
  }
  protectPlugins(cfg.pluginsDir);
  mkdirSync(cfg.archive, { recursive: true, mode: 0o755 });
  const st = statSync(cfg.archive);
  chownSync(cfg.archive, model.uid, model.gid);
  chmodSync(cfg.archive, 0o755);
  return { uid: st.uid, gid: st.gid };
}

/** Root owns every entry and nobody else may write (a plugin's code must not change under it). */
function protectPlugins(dir: string): void {
  const st = lstatOrNull(dir);
  if (!st) return;
  if (st.uid !== 0 || st.gid !== 0) lchownSync(dir, 0, 0);
  if (!st.isSymbolicLink() && (st.mode & 0o022) !== 0) chmodSync(dir, st.mode & 0o7755);
  if (!st.isDirectory()) return;
  for (const name of readdirSync(dir)) protectPlugins(join(dir, name));
}

/** After the agent phase: the archive back to its owner (only what model owns: no hard-link tricks). */
export function returnArchive(cfg: RuntimeConfig, owner: Owner, model: Account): void {
  tryDo("return the archive to its owner", () => {
    chownSync(cfg.archive, owner.uid, owner.gid);
    handBackTree(cfg.archive, owner.uid, owner.gid, model.uid);
  });
}

/** The shared scratch folders every user can write to (sticky), where the agent could leave things. */
export const SHARED_TMP = ["/tmp", "/var/tmp", "/dev/shm"];

/**
 * After the agent phase: removes what model left at the top of the shared scratch folders (a
 * poisoned cache, a planted file a build or test reads by a fixed name), keeping any entry that
 * is or holds one of `keep` (the source tree, the archive). Its processes are all gone by now.
 */
export function clearLeftovers(model: Account, keep: string[], folders = SHARED_TMP): void {
  for (const folder of folders) {
    for (const name of namesIn(folder)) {
      const path = join(folder, name);
      if (lstatOrNull(path)?.uid !== model.uid) continue;
      if (keep.some((k) => k === path || k.startsWith(path + sep))) continue;
      tryDo(`remove ${path} left by ${model.name}`, () => rmSync(path, { recursive: true, force: true }));
    }
  }
}

function lstatOrNull(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}
