/**
 * System V IPC objects (shared memory, semaphores, message queues) outlive every process: an agent
 * can leave gigabytes of shared memory charged to the container and push the grader into the OOM
 * killer. After a user's processes are gone, every object it owns or created is removed, by
 * `ipcrm` run as that user (root may remove others' objects only with CAP_SYS_ADMIN, which the
 * container does not have; the owner always may).
 */
import { readFileSync } from "node:fs";
import { log } from "../log.ts";
import type { Account } from "./users.ts";

const KINDS = [
  { kind: "shm", file: "/proc/sysvipc/shm", id: "shmid" },
  { kind: "sem", file: "/proc/sysvipc/sem", id: "semid" },
  { kind: "msg", file: "/proc/sysvipc/msg", id: "msqid" },
] as const;

/** The objects of `uid` (owner or creator) in this IPC namespace. */
export function ipcObjectsOf(uid: number): { kind: "shm" | "sem" | "msg"; id: number }[] {
  const found: { kind: "shm" | "sem" | "msg"; id: number }[] = [];
  for (const k of KINDS) {
    let text: string;
    try {
      text = readFileSync(k.file, "utf8");
    } catch {
      continue; // no System V IPC in this kernel
    }
    const [header, ...rows] = text.split("\n");
    const cols = (header ?? "").trim().split(/\s+/);
    const at = (name: string) => cols.indexOf(name);
    for (const row of rows) {
      const f = row.trim().split(/\s+/);
      if (f.length < cols.length) continue;
      if (Number(f[at("uid")]) === uid || Number(f[at("cuid")]) === uid) found.push({ kind: k.kind, id: Number(f[at(k.id)]) });
    }
  }
  return found;
}

const FLAG = { shm: "-m", sem: "-s", msg: "-q" } as const;

/** Returns the objects left (empty on success). Costs no process when there are none. */
export function removeIpcOf(user: Account): string[] {
  const objects = ipcObjectsOf(user.uid);
  if (objects.length === 0) return [];
  Bun.spawnSync(["ipcrm", ...objects.flatMap((o) => [FLAG[o.kind], String(o.id)])], {
    uid: user.uid,
    gid: user.gid,
    env: { PATH: "/usr/bin:/bin" },
    stdout: "ignore",
    stderr: "ignore",
  });
  const left = ipcObjectsOf(user.uid).map((o) => `${o.kind}:${o.id}`);
  log(left.length ? "WARN" : "INFO", "Removed System V IPC objects", { user: user.name, removed: objects.length - left.length, left: left.join(",") });
  return left;
}
