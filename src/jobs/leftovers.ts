/**
 * Before a job runs, what an earlier process of it left because it was killed (kill -9, a crash
 * of the machine's power aside) is removed: the engine's containers, volumes, networks (and a
 * swarm's services and secrets) by their label `ssebench.job=<job folder>`, and the gateway and
 * sidecar scratch folders by the job's tag in their names. The job holds its lock, so nothing of
 * this job is running: all of it is left over. The killed trials have no record and run again.
 */
import { rmSync } from "node:fs";
import { UserError } from "../errors.ts";
import type { Backend } from "../run/backends/backend.ts";
import type { Removed } from "../run/backends/leftovers.ts";
import { jobScratch } from "../run/backends/owner.ts";
import { msg } from "./messages.ts";

export async function removeLeftovers(jobDir: string, name: string, backend: Backend, note: (line: string) => void): Promise<void> {
  let engine: Removed;
  try {
    engine = await backend.removeJobLeftovers(jobDir);
  } catch (error) {
    // An engine that does not answer: the trials will say so; the folders are still removed.
    if (!(error instanceof UserError)) throw error;
    engine = { removed: [], warnings: [msg.leftoversUnsought(error.message)] };
  }
  const { removed, warnings } = engine;
  const folders = { gateway: 0, sidecar: 0 };
  for (const { kind, path } of jobScratch(jobDir)) {
    try {
      rmSync(path, { recursive: true, force: true });
      folders[kind]++;
    } catch (cause) {
      warnings.push(msg.scratchKept(path, cause instanceof Error ? cause.message : String(cause)));
    }
  }
  if (folders.gateway) removed.push(`${folders.gateway} gateway folder${folders.gateway === 1 ? "" : "s"}`);
  if (folders.sidecar) removed.push(`${folders.sidecar} sidecar socket folder${folders.sidecar === 1 ? "" : "s"}`);
  if (removed.length > 0) note(msg.leftoversRemoved(name, removed));
  for (const w of warnings) note(w);
}
