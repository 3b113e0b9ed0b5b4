/**
 * The results layout: results/<task>/<model>/<agent>/<run-id>/ with archive/ inside, a `latest`
 * link beside the runs, and atomic JSON writes (temp file in the same folder, then rename).
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { UserError, describeCause } from "../../errors.ts";
import { msg } from "../messages.ts";

/** The model folder of runs that make no model calls. */
export const NO_MODEL = "none";

/** `YYYYMMDD-HHMMSS-<6 hex>` from the UTC start time. */
export function newRunId(now: Date = new Date()): string {
  const iso = now.toISOString(); // 2026-09-29T15:30:12.345Z
  const stamp = `${iso.slice(0, 10).replaceAll("-", "")}-${iso.slice(11, 19).replaceAll(":", "")}`;
  return `${stamp}-${randomBytes(3).toString("hex")}`;
}

export interface RunDir {
  /** absolute path of the run folder (mounted at /var/lib/ssebench/results) */
  path: string;
  /** absolute path of archive/ (mounted at /tmp/sse-archive) */
  archive: string;
  runId: string;
}

/**
 * Creates the run folder (its parents may exist, it must not), archive/ and an empty result.json,
 * then points `latest` at it. Warnings go to `warn`.
 */
export function createRunDir(
  results: string,
  parts: { task: string; model: string; agent: string; runId: string },
  warn: (line: string) => void,
): RunDir {
  const parent = resolve(results, parts.task, parts.model, parts.agent);
  const path = join(parent, parts.runId);
  if (existsSync(path)) throw new UserError(msg.runDirExists(path));
  try {
    mkdirSync(parent, { recursive: true });
    mkdirSync(path);
  } catch (cause) {
    // Another run with the same ID won the race since the check above (or a dangling link is there).
    if ((cause as NodeJS.ErrnoException).code === "EEXIST") throw new UserError(msg.runDirExists(path));
    throw new UserError(`${path}: cannot create the run folder: ${describeCause(cause)}`);
  }
  try {
    mkdirSync(join(path, "archive"));
    writeFileSync(join(path, "result.json"), "");
  } catch (cause) {
    throw new UserError(`${path}: cannot create the run folder: ${describeCause(cause)}`);
  }
  pointLatest(parent, parts.runId, warn);
  return { path, archive: join(path, "archive"), runId: parts.runId };
}

/** Replaces `<parent>/latest` atomically with a relative link to `name`. */
export function pointLatest(parent: string, name: string, warn: (line: string) => void): void {
  const link = join(parent, "latest");
  // Per call, not per process: a job's concurrent trials of one task, model and agent share the parent.
  const temp = join(parent, `.latest.${process.pid}.${randomBytes(4).toString("hex")}`);
  try {
    rmSync(temp, { force: true });
    symlinkSync(name, temp);
    renameSync(temp, link);
  } catch (cause) {
    rmSync(temp, { force: true });
    warn(msg.latestLink(link, name, describeCause(cause)));
  }
}

/** Writes compact JSON atomically via `.<name>.tmp` in the same folder. */
export function writeJsonAtomic(file: string, value: unknown, indent?: number): void {
  const temp = join(dirname(file), `.${file.split("/").pop()}.tmp`);
  writeFileSync(temp, `${JSON.stringify(value, null, indent)}${indent ? "\n" : ""}`);
  renameSync(temp, file);
}
