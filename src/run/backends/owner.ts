/**
 * What marks the things a job's trial leaves outside its run folder, so that a later process of
 * the job finds them when the one that made them was killed before its clean-up (docs/jobs.md):
 * the engine's objects carry the label `ssebench.job=<job folder>`, and the host's scratch folders
 * (the gateway's, a sidecar's sockets) a tag of the job folder in their names.
 */
import { lstatSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const JOB_LABEL = "ssebench.job";

/** The scratch folders a run makes under the temporary folder, by kind. */
export const SCRATCH = { gateway: "ssebench-gw-", sidecar: "ssebench-sc-" } as const;

/** 12 hex digits of the job folder's SHA-256: short, since a Unix socket path is limited to 107 bytes. */
export function jobTag(jobDir: string): string {
  return Bun.CryptoHasher.hash("sha256", jobDir, "hex").slice(0, 12);
}

/** The mkdtemp prefix of a scratch folder: tagged with the job's folder when the run is a job's trial. */
export function scratchPrefix(kind: keyof typeof SCRATCH, jobDir: string | undefined): string {
  return join(tmpdir(), jobDir ? `${SCRATCH[kind]}${jobTag(jobDir)}-` : SCRATCH[kind]);
}

/** The scratch folders of a job's trials now under the temporary folder (real folders only, never a link). */
export function jobScratch(jobDir: string): { kind: keyof typeof SCRATCH; path: string }[] {
  const tag = jobTag(jobDir);
  let names: string[] = [];
  try {
    names = readdirSync(tmpdir());
  } catch {
    return [];
  }
  const found: { kind: keyof typeof SCRATCH; path: string }[] = [];
  for (const kind of Object.keys(SCRATCH) as (keyof typeof SCRATCH)[]) {
    for (const name of names) {
      const path = join(tmpdir(), name);
      if (name.startsWith(`${SCRATCH[kind]}${tag}-`) && lstatSync(path, { throwIfNoEntry: false })?.isDirectory()) found.push({ kind, path });
    }
  }
  return found;
}
