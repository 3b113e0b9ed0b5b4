/**
 * A CLI's stdin as a real pipe, as from a shell's `|`: Bun's stdin "pipe" (and a Blob, and
 * node:child_process) is a socket, and a regular file is read as empty by some CLIs; cline reads
 * its prompt only from a FIFO. libc's pipe2 through bun:ffi (the entrypoint is glibc-linked
 * anyway); the parent's ends are close-on-exec, so only the CLI gets the read end, as its stdin.
 */
import { dlopen, FFIType, ptr } from "bun:ffi";
import { closeSync, write } from "node:fs";

const O_CLOEXEC = 0o2000000;

/** A pipe's two ends: read, write. */
export function osPipe(): [number, number] {
  const libc = dlopen("libc.so.6", { pipe2: { args: [FFIType.ptr, FFIType.i32], returns: FFIType.i32 } });
  try {
    const fds = new Int32Array(2);
    if (libc.symbols.pipe2(ptr(fds), O_CLOEXEC) !== 0) throw new Error("pipe2 failed");
    return [fds[0] as number, fds[1] as number];
  } finally {
    libc.close();
  }
}

/**
 * Writes the text into the pipe's write end in the background (a full pipe waits for the reader)
 * and closes it; a reader gone early (EPIPE) ends the write. Resolves once the end is closed.
 */
export function feedPipe(fd: number, text: string): Promise<void> {
  const data = Buffer.from(text);
  let offset = 0;
  return new Promise((resolve) => {
    const next = (): void => {
      if (offset >= data.length) return (closeSync(fd), resolve());
      write(fd, data, offset, data.length - offset, null, (error, written) => {
        if (error) return (closeSync(fd), resolve());
        offset += written;
        next();
      });
    };
    next();
  });
}
