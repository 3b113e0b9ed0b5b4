/**
 * An I/O error during a job (a full disk, a quota, a read-only or failing file system): the job
 * stops at the first one, records the trials in flight as interrupted where it still can, and
 * ends with one line naming the path (exit 1), never as an internal error.
 */
import { describeCause, UserError } from "../errors.ts";
import { msg } from "./messages.ts";

/** The reason a job's trials are stopped with when the job hit an I/O error. */
export const IO_STOP = "an I/O error of the job";

const WRITE_SIDE = new Set(["ENOSPC", "EDQUOT", "EROFS", "EFBIG"]);

/** The path and the cause of an errno error of the file system; undefined for anything else (a bug). */
export function ioErrorOf(error: unknown, where: string): { path: string; cause: string } | undefined {
  if (!(error instanceof Error)) return undefined;
  const e = error as NodeJS.ErrnoException & { dest?: string };
  if (typeof e.code !== "string" || !/^E[A-Z0-9]+$/.test(e.code) || (e.syscall === undefined && e.path === undefined)) return undefined;
  // A copy that cannot be written fails at its destination.
  const path = WRITE_SIDE.has(e.code) ? (e.dest ?? e.path) : (e.path ?? e.dest);
  return { path: path ?? where, cause: describeCause(error) };
}

/** An I/O error outside the trials (the plan, the lock, the folder's repair) as one line; anything else as it is. */
export function asUserError(error: unknown, where: string): unknown {
  if (error instanceof UserError) return error;
  const io = ioErrorOf(error, where);
  return io ? new UserError(msg.ioFailed(io.path, io.cause)) : error;
}

/** The first I/O error of a running job: it stops the job's trials (their stop signal) and is said at the end. */
export class IoLatch {
  failure: { path: string; cause: string } | undefined;
  constructor(private readonly halt: AbortController) {}

  /** Takes the error if it is an I/O error (its path and cause), else leaves it to the caller (undefined). */
  take(error: unknown, where: string): { path: string; cause: string } | undefined {
    const io = ioErrorOf(error, where);
    if (io && !this.failure) {
      this.failure = io;
      this.halt.abort(IO_STOP);
    }
    return io;
  }

  /** The error the job ends with, if it hit one. */
  error(job: string): UserError | undefined {
    return this.failure && new UserError(msg.jobIoFailed(this.failure.path, this.failure.cause, job));
  }
}
