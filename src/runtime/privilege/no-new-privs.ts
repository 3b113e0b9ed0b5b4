/**
 * Sets the kernel's no_new_privs flag on the entrypoint (docs/container-contract.md §4), so every
 * process it starts (agent, plugins, grading) inherits it: no exec gains privileges through a
 * setuid/setgid bit or file capabilities. `docker run --security-opt no-new-privileges` sets it
 * already; `docker service create` (engine 20.10) cannot, so the entrypoint does it itself.
 * Bun has no prctl: libc's, through bun:ffi (the compiled binary is linked against glibc, so
 * libc.so.6 is in every image it runs in).
 */
import { dlopen, FFIType, read } from "bun:ffi";
import { constants } from "node:os";

const PR_SET_NO_NEW_PRIVS = 38;

/** undefined once set; else why it could not be (the caller fails closed). */
export function setNoNewPrivs(): string | undefined {
  try {
    const libc = dlopen("libc.so.6", {
      prctl: { args: [FFIType.i32, FFIType.u64, FFIType.u64, FFIType.u64, FFIType.u64], returns: FFIType.i32 },
      __errno_location: { args: [], returns: FFIType.ptr },
    });
    try {
      const rc = libc.symbols.prctl(PR_SET_NO_NEW_PRIVS, 1n, 0n, 0n, 0n);
      if (rc === 0) return undefined;
      const where = libc.symbols.__errno_location();
      const errno = where === null ? 0 : read.i32(where, 0);
      const name = Object.entries(constants.errno).find(([, n]) => n === errno)?.[0] ?? `errno ${errno}`;
      return `prctl(PR_SET_NO_NEW_PRIVS, 1): ${name}`;
    } finally {
      libc.close();
    }
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}
