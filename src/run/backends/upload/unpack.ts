/**
 * Writes a hostile tarball's entries into a fresh staging folder (every file created with
 * O_CREAT|O_EXCL|O_NOFOLLOW, folders created one component at a time and checked to be real
 * folders), then moves the staged entries into the run folder. Modes lose setuid, setgid, sticky
 * and group/world write bits, as the entrypoint's hand-back does for a local run.
 */
import { closeSync, constants, lstatSync, mkdirSync, mkdtempSync, openSync, readdirSync, renameSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { describeCause } from "../../../errors.ts";
import { uploadMsg as m } from "./messages.ts";
import { TarRefused, type TarSink } from "./tar-reader.ts";

const FILE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW | constants.O_NOCTTY;

export class StagingSink implements TarSink {
  readonly staging: string;
  private fd: number | undefined;
  private name = "";
  /** folders known to exist (created here), relative */
  private readonly folders = new Set<string>([""]);

  constructor(runDir: string) {
    this.staging = mkdtempSync(join(runDir, ".upload-"));
  }

  private ensureFolders(path: string, entry: string): void {
    const parts = path.split("/");
    for (let i = 1; i <= parts.length; i++) {
      const rel = parts.slice(0, i).join("/");
      if (this.folders.has(rel)) continue;
      const abs = join(this.staging, rel);
      try {
        mkdirSync(abs, 0o755);
      } catch (cause) {
        if ((cause as NodeJS.ErrnoException).code !== "EEXIST") throw new TarRefused(m.cannotWrite(entry, describeCause(cause)));
        throw new TarRefused(rel === entry || lstatSync(abs).isDirectory() ? m.duplicate(entry) : m.underFile(entry));
      }
      this.folders.add(rel);
    }
  }

  dir(path: string, _mode: number): void {
    if (this.folders.has(path)) throw new TarRefused(m.duplicate(path));
    this.ensureFolders(path, path);
  }

  fileStart(path: string, _size: number, mode: number): void {
    const slash = path.lastIndexOf("/");
    if (slash !== -1) this.ensureFolders(path.slice(0, slash), path);
    if (this.folders.has(path)) throw new TarRefused(m.duplicate(path));
    try {
      this.fd = openSync(join(this.staging, path), FILE_FLAGS, (mode & 0o755) | 0o600);
    } catch (cause) {
      const code = (cause as NodeJS.ErrnoException).code;
      if (code === "EEXIST") throw new TarRefused(m.duplicate(path));
      if (code === "ENOTDIR") throw new TarRefused(m.underFile(path));
      throw new TarRefused(m.cannotWrite(path, describeCause(cause)));
    }
    this.name = path;
  }

  fileData(chunk: Uint8Array): void {
    let at = 0;
    try {
      while (at < chunk.length) at += writeSync(this.fd as number, chunk, at);
    } catch (cause) {
      throw new TarRefused(m.cannotWrite(this.name, describeCause(cause)));
    }
  }

  fileEnd(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  /** Drops the staging folder (after a refusal, or once merged). */
  discard(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    rmSync(this.staging, { recursive: true, force: true });
  }

  /**
   * Moves each staged top-level entry into the run folder. What createRunDir left (an empty
   * result.json, an empty archive/) is replaced; any other name the host wrote is kept, and listed.
   */
  merge(runDir: string): string[] {
    const kept: string[] = [];
    for (const name of readdirSync(this.staging).sort()) {
      const target = join(runDir, name);
      let existing: ReturnType<typeof lstatSync> | undefined;
      try {
        existing = lstatSync(target);
      } catch {
        existing = undefined;
      }
      const staged = lstatSync(join(this.staging, name));
      const replaceable =
        existing === undefined ||
        (existing.isFile() && existing.size === 0 && staged.isFile()) ||
        (existing.isDirectory() && staged.isDirectory() && readdirSync(target).length === 0);
      if (!replaceable) {
        kept.push(name);
        continue;
      }
      renameSync(join(this.staging, name), target);
    }
    this.discard();
    return kept;
  }
}
