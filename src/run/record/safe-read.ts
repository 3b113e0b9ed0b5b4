/**
 * Host reads of what a run left behind. Everything below the run folder was written inside the
 * container, and the archive by the agent: a read follows no symlink (O_NOFOLLOW), never blocks
 * on a FIFO or device (O_NONBLOCK, then regular files only) and stops at a size cap.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { spawn } from "node:child_process";

export class UnsafeFile extends Error {}

/** Lines (newline bytes) of a regular file, read in chunks; 0 when it is missing or not a regular file. */
export function countRunFileLines(path: string): number {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch {
    return 0;
  }
  try {
    if (!fstatSync(fd).isFile()) return 0;
    const buf = Buffer.alloc(1 << 20);
    let lines = 0;
    for (let n = readSync(fd, buf, 0, buf.length, null); n > 0; n = readSync(fd, buf, 0, buf.length, null)) {
      for (let i = buf.indexOf(10, 0); i !== -1 && i < n; i = buf.indexOf(10, i + 1)) lines++;
    }
    return lines;
  } finally {
    closeSync(fd);
  }
}

/** The text of a regular file of at most `maxBytes`; throws (UnsafeFile or the errno) otherwise. */
export function readRunFile(path: string, maxBytes: number): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === "ELOOP") throw new UnsafeFile("is a symbolic link");
    throw cause;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new UnsafeFile("is not a regular file");
    if (st.size > maxBytes) throw new UnsafeFile(`is larger than ${maxBytes} bytes`);
    const buf = Buffer.alloc(maxBytes + 1);
    let length = 0;
    while (length <= maxBytes) {
      const n = readSync(fd, buf, length, buf.length - length, null);
      if (n === 0) break;
      length += n;
    }
    if (length > maxBytes) throw new UnsafeFile(`is larger than ${maxBytes} bytes`);
    return buf.subarray(0, length).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/**
 * Disk use of each folder in bytes (`du -sk`: allocated blocks, hard links once per folder,
 * symlinks not followed, any depth), null where du fails. Bounded by `timeoutMs`.
 */
export async function diskUse(dirs: string[], timeoutMs = 30_000): Promise<(number | null)[]> {
  return Promise.all(
    dirs.map(
      (dir) =>
        new Promise<number | null>((resolve) => {
          const child = spawn("du", ["-sk", "--", dir], { stdio: ["ignore", "pipe", "ignore"], timeout: timeoutMs });
          let out = "";
          child.stdout.on("data", (d: Buffer) => (out += d.toString()));
          child.on("error", () => resolve(null));
          child.on("close", (code) => {
            const kib = Number(out.split("\t")[0]);
            // du says non-zero for an unreadable entry too, after the total of what it could read.
            resolve(out && Number.isFinite(kib) ? kib * 1024 : code === 0 ? 0 : null);
          });
        }),
    ),
  );
}

/** The last `maxBytes` of a regular file as text (the same refusals as readRunFile). */
export function readRunFileTail(path: string, maxBytes: number): string {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new UnsafeFile("is not a regular file");
    const length = Math.min(st.size, maxBytes);
    const buf = Buffer.alloc(length);
    let got = 0;
    while (got < length) {
      const n = readSync(fd, buf, got, length - got, st.size - length + got);
      if (n === 0) break;
      got += n;
    }
    return buf.subarray(0, got).toString("utf8");
  } finally {
    closeSync(fd);
  }
}
