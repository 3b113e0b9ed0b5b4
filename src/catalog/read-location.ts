/**
 * Reads the text at a local path or an http(s) URL. A catalog on the network must fail fast and
 * clearly when it is down: a refused connection fails at once, and a host that does not answer is
 * given up after CATALOG_TIMEOUT_MS.
 */
import { readFile } from "node:fs/promises";
import { describeCause } from "../errors.ts";
import { readInside, type ReadFailure } from "./dataset-files.ts";
import { messages } from "./messages.ts";

export const CATALOG_TIMEOUT_MS = 10_000;

export function isUrl(location: string): boolean {
  return /^https?:\/\//i.test(location);
}

/** The outcome of a read: the text, or why it failed (`missing` for HTTP 404/403 and ENOENT). */
export type ReadResult = { ok: true; text: string } | ReadFailure;

/** `within`: a local path is a file of that dataset folder and must resolve inside it (dataset-files.ts). */
export async function readLocation(location: string, timeoutMs = CATALOG_TIMEOUT_MS, within?: string): Promise<ReadResult> {
  if (!isUrl(location) && within !== undefined) {
    const read = await readInside(within, location);
    return read.ok ? { ok: true, text: read.bytes.toString("utf8") } : read;
  }
  if (!isUrl(location)) {
    try {
      return { ok: true, text: await readFile(location, "utf8") };
    } catch (error) {
      return { ok: false, missing: (error as NodeJS.ErrnoException).code === "ENOENT", cause: describeCause(error) };
    }
  }
  try {
    const response = await fetch(location, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: "application/json" },
      redirect: "follow",
    });
    if (!response.ok) {
      await response.body?.cancel();
      return {
        ok: false,
        missing: response.status === 404 || response.status === 403,
        cause: messages.httpStatus(response.status, response.statusText),
      };
    }
    return { ok: true, text: await response.text() };
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    // Bun words a refused connection "Unable to connect. Is the computer able to access the url?"
    const refused = (error as NodeJS.ErrnoException).code === "ECONNREFUSED";
    const cause = timedOut ? messages.timedOut(timeoutMs / 1000) : refused ? messages.refused : describeCause(error);
    return { ok: false, missing: false, cause };
  }
}
