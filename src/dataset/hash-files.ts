/**
 * SHA-256 of a task folder's files (the manifest's `files`). Hashing itself is cheap next to the
 * system calls that open and read tens of thousands of small files, so reads go through the
 * runtime's I/O threads (node:fs/promises) while the main thread goes on validating the next
 * tasks; large files are streamed so memory stays flat.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";

const WHOLE_FILE_LIMIT = 8 * 1024 * 1024;
const CHUNK = 1024 * 1024;

/** SHA-256 (lower hex) of one file's raw bytes, read synchronously in chunks. */
export function hashFile(path: string): string {
  const hasher = new Bun.CryptoHasher("sha256");
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const chunk = Buffer.allocUnsafe(Math.min(Math.max(size, 1), CHUNK));
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

/** Reads the file on an I/O thread and hashes it; streams it (synchronously) when large. */
async function hashFileAsync(path: string): Promise<string> {
  const file = Bun.file(path);
  // Bun.file(path).size is one stat; a file too large to hold whole is streamed instead.
  if (file.size > WHOLE_FILE_LIMIT) return hashFile(path);
  return Bun.CryptoHasher.hash("sha256", await readFile(path), "hex") as string;
}

/**
 * Hashes files with a bounded number of reads in flight. Callers queue a task's files and call
 * `breathe()` between tasks: it lets finished reads be hashed and the next ones start.
 */
export class FileHashPool {
  private inFlight = 0;
  private readonly queue: { path: string; resolve: (hash: string) => void; reject: (error: unknown) => void }[] = [];

  constructor(private readonly limit = 48) {}

  private pump(): void {
    while (this.inFlight < this.limit && this.queue.length > 0) {
      const job = this.queue.shift() as (typeof this.queue)[number];
      this.inFlight++;
      hashFileAsync(job.path)
        .then(job.resolve, job.reject)
        .finally(() => {
          this.inFlight--;
          this.pump();
        });
    }
  }

  /** The files map of one task, in the order of `paths`. */
  async hashTask(dir: string, paths: readonly string[]): Promise<Record<string, string>> {
    const hashes = paths.map(
      (path) => new Promise<string>((resolve, reject) => this.queue.push({ path: join(dir, path), resolve, reject })),
    );
    this.pump();
    const values = await Promise.all(hashes);
    return Object.fromEntries(paths.map((path, i) => [path, values[i] as string]));
  }

  /** Yields to the event loop once, so completed reads are hashed and new ones start. */
  breathe(): Promise<void> {
    return new Promise((resolve) => setImmediate(resolve));
  }
}
