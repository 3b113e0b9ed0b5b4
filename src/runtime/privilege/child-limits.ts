/**
 * Processes and memory kept for the grader whatever the agent's code does (docs/container-contract.md
 * "Hostile agents"): every unprivileged child is the OOM killer's first choice (oom_score_adj
 * +1000) and runs under its user's RLIMIT_NPROC (soft = hard), below the container's pids limit, so
 * a fork bomb leaves room for the grader; the entrypoint asks for −1000 (granted only with
 * CAP_SYS_RESOURCE, which the container does not have by default). Raising or lowering a child's
 * limits from outside needs that capability too, so the child sets them on itself before its exec:
 * the command runs behind a `/bin/sh` prologue (limits are inherited by everything it starts).
 */
import { accessSync, constants, readFileSync, statSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { log } from "../log.ts";
import type { Account } from "./users.ts";

const nprocByUid = new Map<number, number>();

/** The container's pids limit (cgroup v2, then v1), if it has one. */
export function pidsLimit(): number | undefined {
  for (const file of ["/sys/fs/cgroup/pids.max", "/sys/fs/cgroup/pids/pids.max"]) {
    try {
      const v = readFileSync(file, "utf8").trim();
      if (/^\d+$/.test(v)) return Number(v);
    } catch {
      // not this cgroup layout
    }
  }
  return undefined;
}

/** Default per-user RLIMIT_NPROC: the pids limit less a reserve for the grader (min(256, a quarter)); 4096 without one. */
export function defaultNproc(pids = pidsLimit()): number {
  if (pids === undefined) return 4096;
  return Math.max(1, pids - Math.min(256, Math.floor(pids / 4)));
}

/** At start: the entrypoint out of the OOM killer's way if allowed, each user's process limit in place. */
export function reserveForGrader(limits: { user: Account; nproc: number | undefined }[]): void {
  try {
    writeFileSync("/proc/self/oom_score_adj", "-1000");
  } catch {
    log("DEBUG", "oom_score_adj -1000 refused (no CAP_SYS_RESOURCE); the agent's processes still go first (+1000)");
  }
  const fallback = defaultNproc();
  for (const { user, nproc } of limits) if (user.uid !== 0) nprocByUid.set(user.uid, nproc ?? fallback);
  log("DEBUG", "Process limits", { limits: limits.map((l) => `${l.user.name}=${nprocByUid.get(l.user.uid)}`).join(",") });
}

// `ulimit` without -S/-H sets both limits; bash spells processes -u, dash -p.
const PROLOGUE = [
  "echo 1000 > /proc/self/oom_score_adj 2>/dev/null",
  'ulimit -u "$SSE_NPROC_LIMIT" 2>/dev/null || ulimit -p "$SSE_NPROC_LIMIT" || { echo "ssebench-entrypoint: cannot set the process limit" >&2; exit 126; }',
  "unset SSE_NPROC_LIMIT",
  'exec "$@"',
].join("; ");

/**
 * The argv and environment that start `argv` as `user` with its limits; `argv[0]` is resolved on
 * the child's PATH first (undefined when it is not found, like a failed spawn).
 */
export function limitedCommand(user: Account | undefined, argv: string[], env: Record<string, string>, cwd: string | undefined): { argv: string[]; env: Record<string, string> } | undefined {
  const nproc = user && user.uid !== 0 ? nprocByUid.get(user.uid) : undefined;
  if (nproc === undefined) return { argv, env };
  const exe = argv[0]!.includes("/") ? (executable(resolve(cwd ?? ".", argv[0]!)) ? argv[0]! : null) : Bun.which(argv[0]!, { PATH: env.PATH ?? "", cwd });
  if (!exe) return undefined;
  return { argv: ["/bin/sh", "-c", PROLOGUE, "sh", exe, ...argv.slice(1)], env: { ...env, SSE_NPROC_LIMIT: String(nproc) } };
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * Right after the spawn: +1000 written by the entrypoint itself. With CAP_SYS_RESOURCE that also
 * sets the child's floor to +1000 (the floor follows a privileged write), so it cannot go back to
 * the entrypoint's −1000; without it this changes nothing the prologue did not do.
 */
export function pinOomScore(user: Account | undefined, pid: number): void {
  if (!user || user.uid === 0) return;
  try {
    writeFileSync(`/proc/${pid}/oom_score_adj`, "1000");
  } catch {
    // gone already
  }
}
