/**
 * Children in their own session/process group, bounded by a time limit: TERM the group, a short
 * grace, KILL the group. Output goes through pipes into a bounded log (log-sink.ts); nothing waits
 * for those pipes to close before the child counts as done, so a grandchild holding one cannot
 * stall a phase. Every live group is registered so an interrupt can kill them all.
 */
import { readFileSync } from "node:fs";
import { LogSink } from "./log-sink.ts";
import { constants } from "node:os";
import { limitedCommand, pinOomScore } from "./child-limits.ts";
import type { Account } from "./users.ts";
import { toolPath } from "../config.ts";

const liveGroups = new Set<number>();
/** Set by stopAllGroups (interrupt): no child starts any more, so none outlives the exit. */
let stopping = false;

export interface SpawnSpec {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  user: Account;
  /** Log file; output is appended. */
  log: string;
  /** A line the log starts with (within its bound). */
  logHeader?: string;
  stdin?: Uint8Array;
}

export interface Outcome {
  /** Exit code, 128+N when killed by signal N; null when it could not start. */
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  startError?: string;
}

export interface Running {
  pid: number;
  startedAt: number;
  done: Promise<Outcome>;
  /** TERM, grace, KILL; resolves when the leader is gone. */
  stop: (graceMs: number) => Promise<void>;
  /**
   * Resolves when the log is complete: every holder of the output pipe is gone (a process that
   * left the group keeps it open until its user's processes are killed) and the kept tail written.
   */
  logged: Promise<void>;
}

export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone
  }
}

function codeOf(proc: Bun.Subprocess): number {
  if (proc.exitCode !== null) return proc.exitCode;
  const sig = proc.signalCode as keyof typeof constants.signals | null;
  return 128 + (sig ? (constants.signals[sig] ?? 0) : 0);
}

export function start(spec: SpawnSpec, limitMs: number, graceMs: number): Running {
  const startedAt = performance.now();
  if (stopping) return { pid: -1, startedAt, done: Promise.resolve({ exitCode: null, timedOut: false, durationMs: 0, startError: "stopping" }), stop: async () => {}, logged: Promise.resolve() };
  const sink = new LogSink(spec.log, spec.logHeader);
  let proc: Bun.Subprocess<"ignore" | Blob, "pipe", "pipe">;
  try {
    const cmd = limitedCommand(spec.user, spec.argv, spec.env, spec.cwd);
    if (!cmd) throw new Error(`Executable not found in $PATH: "${spec.argv[0]}"`);
    proc = Bun.spawn(cmd.argv, {
      cwd: spec.cwd,
      env: cmd.env,
      uid: spec.user.uid,
      gid: spec.user.gid,
      detached: true,
      stdin: spec.stdin ? new Blob([spec.stdin]) : "ignore",
      stdout: "pipe",
      stderr: "pipe",
    }) as Bun.Subprocess<"ignore" | Blob, "pipe", "pipe">;
  } catch (e) {
    sink.close();
    const startError = e instanceof Error ? e.message : String(e);
    const done = Promise.resolve<Outcome>({ exitCode: null, timedOut: false, durationMs: 0, startError });
    return { pid: -1, startedAt, done, stop: async () => {}, logged: sink.done };
  }
  pinOomScore(spec.user, proc.pid);
  sink.drain(proc.stdout);
  sink.drain(proc.stderr);
  const wrong = spec.user.uid === 0 ? undefined : wrongIdentity(proc.pid, spec.user);
  if (wrong) {
    // Never let a child run with the wrong credentials (Bun < 1.4 ignored uid/gid silently).
    signalGroup(proc.pid, "SIGKILL");
    const done = proc.exited.then(() => ({ exitCode: null, timedOut: false, durationMs: 0, startError: wrong }));
    return { pid: proc.pid, startedAt, done, stop: async () => {}, logged: sink.done };
  }
  const pgid = proc.pid;
  liveGroups.add(pgid);
  let timedOut = false;
  const stop = async (grace: number) => {
    signalGroup(pgid, "SIGTERM");
    let timer: Timer | undefined;
    await Promise.race([proc.exited, new Promise((r) => (timer = setTimeout(r, grace)))]);
    clearTimeout(timer);
    signalGroup(pgid, "SIGKILL");
    await proc.exited;
  };
  const limit = setTimeout(() => {
    timedOut = true;
    void stop(graceMs);
  }, limitMs);
  const done = proc.exited.then(() => {
    clearTimeout(limit);
    // Background children outlive their leader: the group goes with it.
    signalGroup(pgid, "SIGKILL");
    liveGroups.delete(pgid);
    return { exitCode: codeOf(proc), timedOut, durationMs: performance.now() - startedAt };
  });
  return { pid: proc.pid, startedAt, done, stop, logged: sink.done };
}

const STDERR_KEPT = 1 << 20;

/** A stream read up to `max` bytes; past that the rest is drained and dropped, once `onOverflow` is called. */
async function readBounded(stream: ReadableStream<Uint8Array>, max: number, onOverflow: () => void): Promise<{ bytes: Uint8Array; overflow: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let overflow = false;
  for await (const chunk of stream) {
    if (overflow) continue;
    if (size + chunk.length > max) {
      overflow = true;
      onOverflow();
      continue;
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { bytes: Buffer.concat(chunks), overflow };
}

export interface Captured {
  /** Also set when the output went past `maxOutput`: the command was stopped there. */
  overflow?: boolean;
  ok: boolean;
  /** null when the time limit stopped it */
  code: number | null;
  bytes: Uint8Array;
  stdout: string;
  stderr: string;
}

/**
 * A helper command (cp, chown, git) whose output is wanted, without blocking the event loop, so
 * SIGTERM is handled at once even during a long copy. Own group, registered for interrupts, both
 * pipes drained while it runs (a grandchild holding a pipe cannot stall the wait), bounded.
 */
export async function capture(
  argv: string[],
  opts: { cwd?: string; env?: Record<string, string>; stdin?: Uint8Array; timeoutMs?: number; user?: Account; maxOutput?: number } = {},
): Promise<Captured> {
  const cmd = stopping ? undefined : limitedCommand(opts.user, argv, opts.env ?? { PATH: toolPath() }, opts.cwd);
  if (!cmd) return { ok: false, code: 127, bytes: new Uint8Array(), stdout: "", stderr: stopping ? "stopping" : `${argv[0]}: command not found` };
  const proc = Bun.spawn(cmd.argv, {
    cwd: opts.cwd,
    env: cmd.env,
    ...(opts.user ? { uid: opts.user.uid, gid: opts.user.gid } : {}),
    detached: true,
    stdin: opts.stdin ? new Blob([opts.stdin]) : "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  liveGroups.add(proc.pid);
  let timedOut = false;
  const timer = opts.timeoutMs
    ? setTimeout(() => {
        timedOut = true;
        signalGroup(proc.pid, "SIGKILL");
      }, opts.timeoutMs)
    : undefined;
  // Output past the bound stops the command: what it writes is never held whole.
  const out = readBounded(proc.stdout, opts.maxOutput ?? Infinity, () => signalGroup(proc.pid, "SIGKILL"));
  const err = readBounded(proc.stderr, STDERR_KEPT, () => {});
  const code = await proc.exited;
  clearTimeout(timer);
  signalGroup(proc.pid, "SIGKILL");
  liveGroups.delete(proc.pid);
  const { bytes, overflow } = await out;
  const stderr = new TextDecoder().decode((await err).bytes);
  return { ok: code === 0 && !timedOut && !overflow, code: timedOut ? null : code, bytes, stdout: new TextDecoder().decode(bytes), stderr, overflow };
}

/** Reads the child's credentials; undefined when they are right or the child is already gone. */
function wrongIdentity(pid: number, user: Account): string | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return undefined;
  }
  return identityProblem(status, user);
}

/** The problem with a /proc/<pid>/status for a child meant to run as `user`, if any. */
export function identityProblem(status: string, user: Account): string | undefined {
  const ids = (key: string) => (new RegExp(`^${key}:[ \\t]*(.*)$`, "m").exec(status)?.[1] ?? "").trim().split(/\s+/).filter(Boolean).map(Number);
  const uids = ids("Uid");
  const gids = ids("Gid");
  const groups = ids("Groups");
  const ok = uids.length === 4 && uids.every((u) => u === user.uid) && gids.length === 4 && gids.every((g) => g === user.gid) && groups.every((g) => g === user.gid);
  return ok ? undefined : `the child did not run as ${user.name} (${user.uid}:${user.gid}): Uid ${uids.join(" ")}, Gid ${gids.join(" ")}, Groups ${groups.join(" ")}`;
}

/** Kills every group still registered (interrupt path). */
export async function stopAllGroups(graceMs: number): Promise<void> {
  stopping = true;
  const groups = [...liveGroups];
  for (const g of groups) signalGroup(g, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (groups.some(alive) && Date.now() < deadline) await Bun.sleep(10);
  for (const g of groups) signalGroup(g, "SIGKILL");
}

function alive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}
