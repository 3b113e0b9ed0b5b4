/**
 * Ends every process of one user. Process groups are no boundary (a child can setsid away), so:
 * `kill -KILL -1` as that user (signals all of its processes at once; Linux spares the caller),
 * then a /proc scan for any process whose real, effective or saved uid is the user's, repeated
 * with a short back-off until none is left.
 */
import { readdirSync, readFileSync } from "node:fs";
import type { Account } from "./users.ts";

export function processesOf(uid: number): number[] {
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
    const state = /^State:\s+(\S)/m.exec(status)?.[1];
    if (state === "Z" || state === "X") continue;
    const uids = /^Uid:\s+(\d+)\s+(\d+)\s+(\d+)/m.exec(status);
    if (uids && uids.slice(1, 4).some((u) => Number(u) === uid)) found.push(pid);
  }
  return found;
}

/** Returns the pids that survived (empty on success). Refuses uid 0. */
export async function killUserProcesses(user: Account, rounds = 30): Promise<number[]> {
  if (user.uid === 0) throw new Error(`refusing to kill every process of ${user.name} (uid 0)`);
  let left = processesOf(user.uid);
  if (left.length === 0) return []; // the common case costs no process spawn
  for (let round = 0; round < rounds; round++) {
    Bun.spawnSync(["/bin/sh", "-c", "kill -KILL -1 2>/dev/null"], {
      uid: user.uid,
      gid: user.gid,
      env: { PATH: "/usr/bin:/bin" },
      stdout: "ignore",
      stderr: "ignore",
    });
    left = processesOf(user.uid);
    if (left.length === 0) return [];
    for (const pid of left) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // gone already
      }
    }
    left = processesOf(user.uid);
    if (left.length === 0) return [];
    await Bun.sleep(round * 5);
  }
  return left;
}
