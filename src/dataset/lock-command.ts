/** `ssebench dataset lock` (spec §4.3): merge publication records into the images lock, or check it. */
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { UserError, describeCause } from "../errors.ts";
import { parseImagesLock, parsePublicationRecord, renderImagesLock } from "../formats/manifest/images-lock.ts";
import type { ImagesLock, PublicationRecord } from "../formats/manifest/manifest-types.ts";
import { LOCK_FILE } from "../formats/patterns.ts";
import { compareCodePoints } from "../formats/compat/python-json.ts";
import { datasetDir } from "./locate.ts";
import { lockProblems, mergeLock } from "./lock.ts";
import { type CommandOutput, manifestOrFailure } from "./manifest-command.ts";
import { manifestMessages as mm, lockMessages as m, reportMessages as rm } from "./messages.ts";

export interface LockOptions {
  dir?: string;
  records?: string;
  output?: string;
  check?: boolean;
}

function readText(path: string, onError: (cause: string) => string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new UserError(onError(describeCause(error)));
  }
}

/** Parses a lock, turning its UserError into the lock's own wording (`is not a valid images lock`). */
async function readLock(path: string): Promise<ImagesLock> {
  return parseImagesLock(readText(path, (cause) => m.invalidLock(path, cause)), path);
}

async function readRecords(dir: string): Promise<PublicationRecord[]> {
  let names: string[];
  try {
    if (!statSync(dir).isDirectory()) throw new Error("not a directory");
    names = readdirSync(dir).filter((n) => n.endsWith(".json")).sort(compareCodePoints);
  } catch {
    throw new UserError(m.recordsNotADirectory(dir));
  }
  const records: PublicationRecord[] = [];
  for (const name of names) {
    const path = join(dir, name);
    records.push(await parsePublicationRecord(readText(path, (cause) => m.invalidRecord(path, cause)), path));
  }
  return records;
}

export async function runLock(opts: LockOptions): Promise<CommandOutput> {
  const dir = datasetDir(opts.dir);
  const built = await manifestOrFailure(dir, rm.noLock);
  if ("failure" in built) return built.failure;
  const { manifest } = built;
  const lockPath = join(dir, LOCK_FILE);
  if (opts.check) {
    const target = opts.output ?? lockPath;
    let problems: string[];
    if (!existsSync(target)) problems = [m.lockMissing(target)];
    else {
      try {
        problems = lockProblems(target, await readLock(target), manifest);
      } catch (error) {
        if (!(error instanceof UserError)) throw error;
        problems = [error.message];
      }
    }
    if (problems.length > 0) return { stdout: "", stderr: `${problems.join("\n")}\n`, exitCode: 1 };
    return { stdout: `${m.consistent(target)}\n`, stderr: "", exitCode: 0 };
  }
  const existing = existsSync(lockPath) ? await readLock(lockPath) : undefined;
  const records = opts.records === undefined ? [] : await readRecords(opts.records);
  const { lock } = mergeLock(manifest, existing, records, dir);
  const target = opts.output ?? lockPath;
  try {
    writeFileSync(target, renderImagesLock(lock));
  } catch (error) {
    throw new UserError(mm.cannotWrite(target, describeCause(error)));
  }
  return { stdout: `${m.wrote(target, Object.keys(lock.images).length)}\n`, stderr: "", exitCode: 0 };
}
