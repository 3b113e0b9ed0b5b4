/**
 * SHA-256 of a task folder's files (the manifest's `files`). Small files are read whole (one
 * syscall pair each, which dominates for typical task folders); large ones are streamed so memory
 * stays flat.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";

const WHOLE_FILE_LIMIT = 8 * 1024 * 1024;
const CHUNK = 1024 * 1024;

let buffer = Buffer.allocUnsafe(256 * 1024);

/** SHA-256 (lower hex) of one file's raw bytes. */
export function hashFile(path: string): string {
  const hasher = new Bun.CryptoHasher("sha256");
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    if (size <= WHOLE_FILE_LIMIT && buffer.length < size) buffer = Buffer.allocUnsafe(size);
    const chunk = size <= WHOLE_FILE_LIMIT ? buffer : Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      hasher.update(chunk.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
  return hasher.digest("hex");
}

/** `{path: sha256}` for the given POSIX paths under `dir`, in the order given. */
export function hashFiles(dir: string, paths: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const path of paths) out[path] = hashFile(join(dir, path));
  return out;
}
