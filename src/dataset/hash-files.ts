/**
 * SHA-256 of a task folder's files (the manifest's `files`). For tens of thousands of small files
 * the system calls cost more than the hashing, so a file is opened, read into a reusable buffer
 * and closed (three calls when it fits); a larger file is hashed chunk by chunk as it is read, so
 * memory stays flat whatever its size.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { join } from "node:path";

const CHUNK = 1024 * 1024;
const buffer = Buffer.allocUnsafe(CHUNK);

/** SHA-256 (lower hex) of one file's raw bytes. */
export function hashFile(path: string): string {
  const fd = openSync(path, "r");
  try {
    const first = readSync(fd, buffer, 0, CHUNK, null);
    // A short read of a regular file means end of file: hash in one call.
    if (first < CHUNK) return Bun.CryptoHasher.hash("sha256", buffer.subarray(0, first), "hex") as string;
    const hasher = new Bun.CryptoHasher("sha256").update(buffer);
    for (let n = readSync(fd, buffer, 0, CHUNK, null); n > 0; n = readSync(fd, buffer, 0, CHUNK, null)) {
      hasher.update(buffer.subarray(0, n));
    }
    return hasher.digest("hex");
  } finally {
    closeSync(fd);
  }
}

/** `{path: sha256}` for the given POSIX paths under `dir`, in the order given. */
export function hashFiles(dir: string, paths: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const path of paths) out[path] = hashFile(join(dir, path));
  return out;
}
