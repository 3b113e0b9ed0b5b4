/**
 * Reads of a local dataset folder's files. A dataset is untrusted input (`catalog serve` of a
 * folder someone else made), so every file read from it must lie inside the folder once every
 * link is resolved: a link under `sse/` (or a task folder that is one) cannot put a host file,
 * such as the server's /proc/self/environ, on a page. Links that stay inside are followed. The
 * file actually opened is what is checked (its /proc/self/fd entry), so a link swapped in between
 * a check and the open does not count; FIFOs and devices are never read.
 */
import { constants, fstatSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { open, realpath, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describeCause } from "../errors.ts";
import { messages } from "./messages.ts";

/** Why a read failed (`missing` for HTTP 404/403 and ENOENT). */
export type ReadFailure = { ok: false; missing: boolean; cause: string };

const FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

function isInside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith("/") ? root : `${root}/`);
}

/**
 * Why the open file `fd` (opened as `path`) may not be read as part of the dataset whose real
 * folder is `root`: it lies outside it, or it is not a regular file; undefined when it may.
 */
export function refusal(fd: number, path: string, root: string, folder: string): string | undefined {
  let real: string;
  try {
    real = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    // No /proc: the path resolved now, if it is still the file that was opened.
    try {
      real = realpathSync(path);
      const [opened, there] = [fstatSync(fd), statSync(real)];
      if (opened.ino !== there.ino || opened.dev !== there.dev) return messages.changedWhileRead;
    } catch (cause) {
      return describeCause(cause);
    }
  }
  if (!isInside(real, root)) return messages.resolvesOutside(real, folder);
  return fstatSync(fd).isFile() ? undefined : messages.notRegularFile;
}

/** The real path of a dataset folder, or undefined when it cannot be resolved. */
export async function realFolder(folder: string): Promise<string | undefined> {
  return realpath(folder).catch(() => undefined);
}

/** The bytes of `path`, a file of the dataset folder `folder`, if it resolves inside it. */
export async function readInside(folder: string, path: string): Promise<{ ok: true; bytes: Buffer } | ReadFailure> {
  const root = await realFolder(folder);
  if (root === undefined) return { ok: false, missing: true, cause: messages.noFolder(folder) };
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, FLAGS);
  } catch (error) {
    return { ok: false, missing: (error as NodeJS.ErrnoException).code === "ENOENT", cause: describeCause(error) };
  }
  try {
    const refused = refusal(handle.fd, path, root, folder);
    if (refused) return { ok: false, missing: false, cause: refused };
    return { ok: true, bytes: await handle.readFile() };
  } catch (error) {
    return { ok: false, missing: false, cause: describeCause(error) };
  } finally {
    await handle.close();
  }
}

/**
 * A local catalog: its manifest, and the dataset folder whose files must resolve inside it (the
 * folder given, where manifest.json must be too; else the named manifest file's folder, where the
 * lock beside it and the task folders must be; the named file itself is the user's choice).
 */
export async function localDataset(location: string): Promise<{ manifestLocation: string; folder: string; manifestWithin?: string }> {
  const info = await stat(location).catch(() => undefined);
  if (info?.isDirectory()) return { manifestLocation: join(location, "manifest.json"), folder: location, manifestWithin: location };
  return { manifestLocation: location, folder: dirname(location) };
}
