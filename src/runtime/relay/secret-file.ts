/**
 * A small file only root may read (a Swarm secret mounted 0400): the upload URL and token, a Swarm
 * trial's model key. Read as root before the agent starts; a file the agent could read, a link or
 * something that is not a regular file is refused. Kept light: on the entrypoint's start-up path.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { UserError } from "../../errors.ts";

const MAX_FILE_BYTES = 64 * 1024;

/** The file's text, or undefined when there is no such file; `problem` words a refusal. */
export function readRootOnlyFile(path: string, problem: (path: string, what: string) => string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new UserError(problem(path, e instanceof Error ? e.message : String(e)));
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new UserError(problem(path, "is not a regular file"));
    if (st.mode & 0o077) throw new UserError(problem(path, `is readable by other users (mode ${(st.mode & 0o777).toString(8).padStart(4, "0")}); give it mode 0400 or 0600`));
    const buf = Buffer.alloc(MAX_FILE_BYTES + 1);
    let n = 0;
    for (let got = readSync(fd, buf, 0, buf.length, null); got > 0 && n <= MAX_FILE_BYTES; got = readSync(fd, buf, n, buf.length - n, null)) n += got;
    if (n > MAX_FILE_BYTES) throw new UserError(problem(path, `is larger than ${MAX_FILE_BYTES} bytes`));
    return buf.subarray(0, n).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/** The file's JSON object; anything else is refused through `problem`. */
export function parseSecretJson(text: string, path: string, problem: (path: string, what: string) => string): Record<string, unknown> {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new UserError(problem(path, "is not JSON"));
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) throw new UserError(problem(path, "is not a JSON object"));
  return doc as Record<string, unknown>;
}
