/**
 * Ends every process of one user. Process groups are no boundary (a child can setsid away), and a
 * thread group whose leader has exited shows `Z` in /proc/<pid>/status while its other threads run
 * on, so: always `kill -KILL -1` as that user (signals all of its processes at once, zombie-led
 * thread groups included; Linux spares the caller), then a /proc scan that looks at every thread
 * (/proc/<pid>/task) for a real, effective or saved uid of the user, repeated with a short
 * back-off until none is left. Then what outlives processes goes too: the user's System V IPC
 * objects (ipc.ts).
 */
import { readdirSync, readFileSync } from "node:fs";
import { removeIpcOf } from "./ipc.ts";
import type { Account } from "./users.ts";

function ownedBy(status: string, uid: number): boolean {
  const uids = /^Uid:\s+(\d+)\s+(\d+)\s+(\d+)/m.exec(status);
  return uids !== null && uids.slice(1, 4).some((u) => Number(u) === uid);
}

const dead = (status: string) => {
  const state = /^State:\s+(\S)/m.exec(status)?.[1];
  return state === "Z" || state === "X";
};

/** A thread group with a live thread of `uid` (its leader may be a zombie). */
function liveThreadOf(pid: string, uid: number): boolean {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return false; // gone
  }
  for (const tid of tids) {
    try {
      const s = readFileSync(`/proc/${pid}/task/${tid}/status`, "utf8");
      if (!dead(s) && ownedBy(s, uid)) return true;
    } catch {
      // exited while scanning
    }
  }
  return false;
}

/** Thread groups with a live thread of `uid`; with `zombies`, also those only waiting to be reaped. */
export function processesOf(uid: number, zombies = false): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    let status: string;
    try {
      status = readFileSync(`/proc/${entry}/status`, "utf8");
    } catch {
      continue; // exited while scanning
    }
    if (!dead(status) || zombies) {
      if (ownedBy(status, uid)) found.push(pid);
    } else if (liveThreadOf(entry, uid)) found.push(pid);
  }
  return found;
}

function killAllAs(user: Account): void {
  Bun.spawnSync(["/bin/sh", "-c", "kill -KILL -1 2>/dev/null"], {
    uid: user.uid,
    gid: user.gid,
    env: { PATH: "/usr/bin:/bin" },
    stdout: "ignore",
    stderr: "ignore",
  });
}

/** Returns the pids that survived (empty on success). Refuses uid 0. */
export async function killUserProcesses(user: Account, rounds = 30): Promise<number[]> {
  if (user.uid === 0) throw new Error(`refusing to kill every process of ${user.name} (uid 0)`);
  let left: number[] = [];
  for (let round = 0; round < rounds; round++) {
    // Signalled even when the scan finds nothing: a scan can miss what the kernel does not.
    killAllAs(user);
    left = processesOf(user.uid);
    for (const pid of left) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // gone already
      }
    }
    left = processesOf(user.uid);
    if (left.length === 0) break;
    await Bun.sleep(round * 5);
  }
  if (left.length > 0) return left;
  // A killed process still counts against its user's RLIMIT_NPROC until its parent (the init) has
  // reaped it: wait for that, or the next step as that user could not fork.
  for (let round = 0; round < rounds && processesOf(user.uid, true).length > 0; round++) await Bun.sleep(round * 5);
  removeIpcOf(user);
  return [];
}
