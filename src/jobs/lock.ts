/**
 * The job lock, <job>/lock: an exclusive flock(2) on the file, which holds the owner's pid. The
 * kernel gives the lock to one process only and takes it back when that process ends, however it
 * ends (kill -9 included), so there is no stale lock to judge and none to take over by mistake.
 * Bun has no flock: libc's, through bun:ffi (the compiled binary is linked against glibc).
 */
import { dlopen, FFIType, read } from "bun:ffi";
import { closeSync, constants, fstatSync, ftruncateSync, mkdirSync, openSync, readSync, statSync, unlinkSync, writeSync } from "node:fs";
import { constants as os } from "node:os";
import { join } from "node:path";
import { describeCause, UserError } from "../errors.ts";
import { msg } from "./messages.ts";

const LOCK_EX = 2;
const LOCK_NB = 4;

type Libc = ReturnType<typeof openLibc>;
let libc: Libc | undefined;

function openLibc() {
  return dlopen("libc.so.6", {
    flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
    __errno_location: { args: [], returns: FFIType.ptr },
  });
}

/** flock(fd, op): 0, or the errno's name. */
function flock(fd: number, op: number): string | 0 {
  libc ??= openLibc();
  if (libc.symbols.flock(fd, op) === 0) return 0;
  const where = libc.symbols.__errno_location();
  const errno = where === null ? 0 : read.i32(where, 0);
  return Object.entries(os.errno).find(([, n]) => n === errno)?.[0] ?? `errno ${errno}`;
}

/** Whether a process with this pid lives (one of another user's counts). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (cause) {
    return (cause as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readPid(fd: number): number | undefined {
  const buf = Buffer.alloc(32);
  const n = readSync(fd, buf, 0, buf.length, 0);
  const text = buf.subarray(0, n).toString("utf8");
  const pid = /^([0-9]+)\n$/.exec(text)?.[1];
  return pid === undefined ? undefined : Number(pid);
}

/** The owner's pid as it writes it: the file may still hold a killed owner's until the new one has. */
async function ownerOf(fd: number): Promise<number | undefined> {
  for (let i = 0; i < 50; i++) {
    const pid = readPid(fd);
    if (pid !== undefined && processAlive(pid)) return pid;
    await Bun.sleep(20);
  }
  return undefined;
}

/** Whether the open file is still the one at `path` (an owner removes the file as it releases it). */
function isAt(fd: number, path: string): boolean {
  try {
    const a = fstatSync(fd);
    const b = statSync(path);
    return a.ino === b.ino && a.dev === b.dev;
  } catch {
    return false;
  }
}

/**
 * Takes <dir>/lock for this process, or refuses with one line naming the owner. Returns the
 * release, which only the owner has: it removes the file and drops the lock (exit drops it too).
 */
export async function lockJob(dir: string, name: string, pid = process.pid): Promise<() => void> {
  const lock = join(dir, "lock");
  for (let round = 0; round < 20; round++) {
    let fd: number;
    try {
      mkdirSync(dir, { recursive: true });
      fd = openSync(lock, constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW, 0o644);
    } catch (cause) {
      throw new UserError(msg.lockFailed(lock, describeCause(cause)));
    }
    let taken: string | 0;
    try {
      taken = flock(fd, LOCK_EX | LOCK_NB);
    } catch (cause) {
      closeSync(fd);
      throw new UserError(msg.lockFailed(lock, describeCause(cause)));
    }
    if (taken === "EWOULDBLOCK" || taken === "EAGAIN") {
      const owner = await ownerOf(fd);
      closeSync(fd);
      throw new UserError(owner === undefined ? msg.jobLockedUnknown(name, lock) : msg.jobLocked(name, owner, lock));
    }
    if (taken !== 0) {
      closeSync(fd);
      throw new UserError(msg.lockFailed(lock, `flock: ${taken}`));
    }
    // Locked what an owner had just released and removed: lock the file that is there now.
    if (!isAt(fd, lock)) {
      closeSync(fd);
      continue;
    }
    try {
      ftruncateSync(fd, 0);
      writeSync(fd, `${pid}\n`, 0);
    } catch (cause) {
      closeSync(fd);
      throw new UserError(msg.lockFailed(lock, describeCause(cause)));
    }
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      try {
        if (isAt(fd, lock)) unlinkSync(lock);
      } catch {
        // gone with its folder
      }
      closeSync(fd);
    };
  }
  throw new UserError(msg.lockFailed(lock, "other processes keep taking and releasing it"));
}
