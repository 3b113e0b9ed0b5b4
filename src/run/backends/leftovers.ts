/**
 * Removes the engine's objects with a label (owner.ts): what a killed process of a job left, found
 * by the job's label and removed before the job runs again. Containers go first (they hold the
 * volumes and networks), networks last, with a few tries while a container on another node leaves.
 */
import { msg } from "../messages.ts";
import { type Docker, firstLine } from "./docker.ts";

export type EngineObject = "service" | "container" | "volume" | "secret" | "network";

const LIST: Record<EngineObject, string[]> = {
  service: ["service", "ls"],
  container: ["ps", "--all"],
  volume: ["volume", "ls"],
  secret: ["secret", "ls"],
  network: ["network", "ls"],
};

const REMOVE: Record<EngineObject, string[]> = {
  service: ["service", "rm"],
  container: ["rm", "--force", "--volumes"],
  volume: ["volume", "rm", "--force"],
  secret: ["secret", "rm"],
  network: ["network", "rm"],
};

export interface Removed {
  /** what was removed, by kind ("2 containers") */
  removed: string[];
  warnings: string[];
}


/** Every object of these kinds (in this order) that carries `label` (`key=value`), removed. */
export async function removeLabelled(docker: Docker, label: string, kinds: readonly EngineObject[]): Promise<Removed> {
  const out: Removed = { removed: [], warnings: [] };
  for (const kind of kinds) {
    const listed = await docker.call([...LIST[kind], "--quiet", "--filter", `label=${label}`]);
    if (listed.code !== 0) {
      out.warnings.push(msg.leftoversUnlisted(kind, label, firstLine(listed.stderr)));
      continue;
    }
    const ids = [...new Set(listed.stdout.split("\n").map((l) => l.trim()).filter(Boolean))];
    if (ids.length === 0) continue;
    let r = await docker.call([...REMOVE[kind], ...ids]);
    for (let i = 0; r.code !== 0 && kind === "network" && i < 40; i++) {
      await Bun.sleep(250);
      r = await docker.call([...REMOVE[kind], ...ids]);
    }
    if (r.code !== 0) out.warnings.push(msg.leftoverKept(kind, ids, firstLine(r.stderr)));
    else out.removed.push(`${ids.length} ${kind}${ids.length === 1 ? "" : "s"}`);
  }
  return out;
}
