/** Small filesystem helpers: atomic writes and ownership walks that never follow symlinks. */
import { chmodSync, lchownSync, lstatSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

export function writeAtomic(path: string, data: string, mode = 0o644): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  writeFileSync(tmp, data, { mode });
  chmodSync(tmp, mode);
  renameSync(tmp, path);
}

/**
 * lchown every entry below `dir` (not `dir` itself) to uid:gid. With `onlyFromUid`, only entries
 * owned by that uid change: a hard link the agent made to a root file is left alone.
 */
export function chownTree(dir: string, uid: number, gid: number, onlyFromUid?: number): void {
  for (const name of namesIn(dir)) {
    const path = join(dir, name);
    let st;
    try {
      st = lstatSync(path);
    } catch {
      continue;
    }
    // A hard link to a root file (made by the agent) must never change owner.
    const foreignLink = !st.isDirectory() && st.nlink > 1 && st.uid === 0;
    if (!foreignLink && (onlyFromUid === undefined || st.uid === onlyFromUid)) {
      try {
        lchownSync(path, uid, gid);
      } catch {
        // best effort: a vanished or foreign file does not stop the hand-over
      }
    }
    if (st.isDirectory()) chownTree(path, uid, gid, onlyFromUid);
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
    env: opts.env ?? { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    stdin: opts.stdin ? new Blob([opts.stdin]) : "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  return { ok: r.exitCode === 0, code: r.exitCode, bytes: r.stdout, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}
