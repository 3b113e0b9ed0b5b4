/**
 * `ssebench images prune`: which of ssebench's images are not needed, and removing them.
 *
 * Not needed (each with its reason):
 * - superseded: a layer ssebench built whose name a newer build of the same name has taken (the
 *   tool layer of an earlier entrypoint build, an agent layer of an earlier agent or tool layer, a
 *   case image of earlier task files, a base image rebuilt by build.sh); nothing can ask for it by
 *   name again;
 * - a tool layer named for another ssebench version (`tool/<task>:<version>`): this one never uses it;
 * - agent files, agent layers and sidecar images of an agent that is not among this ssebench's agents, or named for
 *   another version of the agent than its agent.yaml gives.
 * - an agent store (a volume: run/backends/agent-store.ts) that no kept agent files image marks:
 *   its agent's files changed or the agent is gone, and its marker with it.
 * Always kept: images any container uses (running or stopped), named base images, named case images
 * (the datasets' own; a rebuild or pull costs minutes), and every image without ssebench's labels
 * (inventory.ts never lists those). Nothing is forced: the engine refuses to remove an image a
 * kept one is built on, and that is reported, not overridden.
 */
import type { Docker } from "../run/backends/docker.ts";
import { firstLine } from "../run/backends/docker.ts";
import { STORE_LABEL, storeLock } from "../run/backends/agent-store.ts";
import type { ImageEntry } from "./inventory.ts";
import { msg } from "./messages.ts";

export interface Needs {
  /** this ssebench's version (tool layers are named for it) */
  version: string;
  /** agent name → the version its layers are named for (agent.yaml's, else ssebench's; undefined: keep every version) */
  agents: ReadonlyMap<string, string | undefined>;
}

/** Why an image is not needed, or undefined when it is kept. */
export function notNeeded(image: ImageEntry, needs: Needs): string | undefined {
  if (image.containers > 0) return undefined;
  if (image.tags.length === 0) return msg.superseded();
  if (image.kind === "base image") return undefined;
  if (image.kind === "tool layer" && image.tagVersion !== undefined && image.tagVersion !== needs.version) {
    return msg.otherVersion(image.tagVersion, needs.version);
  }
  if ((image.kind === "agent layer" || image.kind === "agent files" || image.kind === "sidecar image") && image.agent !== undefined) {
    if (!needs.agents.has(image.agent)) return msg.agentGone(image.agent);
    const current = needs.agents.get(image.agent);
    if (current !== undefined && image.tagVersion !== undefined && image.tagVersion !== current) return msg.agentVersion(image.agent, image.tagVersion, current);
  }
  return undefined;
}

export interface Candidate {
  image: ImageEntry;
  reason: string;
}

/**
 * `all`: every ssebench image on the engine, where a store's marker is looked for (with --label,
 * `images` is only what the label selects, and a store selected without its marker is not unmarked).
 */
export function candidates(images: readonly ImageEntry[], needs: Needs, all: readonly ImageEntry[] = images): Candidate[] {
  const chosen = images.flatMap((image) => {
    if (image.kind === "agent store") return [];
    const reason = notNeeded(image, needs);
    return reason === undefined ? [] : [{ image, reason }];
  });
  const going = new Set(chosen.map((c) => c.image.id));
  const marked = new Set(all.filter((i) => i.kind === "agent files" && !going.has(i.id) && i.tags.length > 0).map((i) => i.labels[STORE_LABEL]));
  const stores = images.filter((i) => i.kind === "agent store" && i.containers === 0 && !marked.has(i.id));
  return [...chosen, ...stores.map((image) => ({ image, reason: msg.storeUnmarked() }))];
}

export interface Removal extends Candidate {
  removed: boolean;
  /** the engine's reason when it refused */
  error?: string;
}

/** Children before parents: agent layers, agent files, tool layers, case images, then the rest (listImages' order); agent stores last. */
export async function removeImages(docker: Docker, chosen: readonly Candidate[]): Promise<Removal[]> {
  const out: Removal[] = [];
  for (const c of chosen) {
    // A store being filled has no marker yet: its lock (agent-store.ts) says so, and it stays.
    if (c.image.kind === "agent store" && (await docker.call(["container", "inspect", "--format", "{{.Id}}", storeLock(c.image.id)])).code === 0) {
      out.push({ ...c, removed: false, error: msg.storeFilling() });
      continue;
    }
    // By name when it has names (an image with two names is then removed, not refused), else by ID.
    const args = c.image.kind === "agent store" ? ["volume", "rm", c.image.id] : ["image", "rm", ...(c.image.tags.length > 0 ? c.image.tags : [c.image.id])];
    const r = await docker.call(args);
    out.push(r.code === 0 ? { ...c, removed: true } : { ...c, removed: false, error: firstLine(r.stderr) || `exit ${r.code}` });
  }
  return out;
}
