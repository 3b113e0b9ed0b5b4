/**
 * Agent stores: an agent's files (the /opt/agent of its files image) kept once per engine in a
 * named volume, which every trial of the agent mounts read-only at /opt/agent, so no task's image
 * holds a copy of a CLI of hundreds of MB (docs/images.md "Agent stores").
 *
 * A volume cannot be renamed nor relabelled, so whether a store is complete is said by its
 * marker, an image tagged only once the volume is filled (layers/agent-store-fill.ts locally; the
 * swarm's nodes: swarm-stores.ts). Filling is serialised per engine and volume by a lock: a
 * created (never started) container named after the volume, which the engine lets exist once. A
 * lock left by a process that died is taken over once it is older than STALE_LOCK_MS; a volume
 * found without its marker under the lock is a fill that died half-way, and is made again — unless
 * a trial mounts it: then it was complete and only its marker is set again.
 */
import { UserError } from "../../errors.ts";
import { msg } from "../messages.ts";
import { type Docker, dockerOk, firstLine } from "./docker.ts";

/** The label on a store's volume and its marker: the volume's name. */
export const STORE_LABEL = "ssebench.agent-store";
/** The label of a lock container: the volume it guards. */
export const STORE_LOCK_LABEL = "ssebench.agent-store-lock";
/** Where the trial sees the store (and where the files image keeps the agent's files). */
export const STORE_TARGET = "/opt/agent";
const STALE_LOCK_MS = 15 * 60_000;
const IN_USE = /volume is in use/i;
const POLL_MS = 500;

/** `ssebench-agent-<agent>-<16 hex of the store's inputs>`: one volume per agent's files. */
export function storeVolumeName(agent: string, inputs: string): string {
  const safe = agent.toLowerCase().replace(/[^a-z0-9_.-]+/g, "-").slice(0, 60);
  return `ssebench-agent-${safe}-${inputs.slice(0, 16)}`;
}

/** The --mount of a trial: the store, read-only, never filled from the trial's image. */
export function storeMountFields(volume: string): string[] {
  return ["type=volume", `source=${volume}`, `target=${STORE_TARGET}`, "readonly", "volume-nocopy"];
}

export interface StoreFill {
  docker: Docker;
  volume: string;
  /** the volume's labels (layer, agent, inputs) */
  labels: Record<string, string>;
  /** an image on the engine to create the lock container from (it is never started) */
  lockImage: string;
  /** is the store complete: its marker on the engine names this volume, which exists? */
  ready(): Promise<boolean>;
  /** fills the new, empty volume, then sets the marker */
  fill(): Promise<void>;
  /** sets the marker of a volume found complete (a trial mounts it), which lost its marker */
  mark(): Promise<void>;
  signal?: AbortSignal;
}

/** The name of the lock container of a store's volume. */
export const storeLock = (volume: string) => `${volume}-lock`;

/** Does the engine have this volume? */
export async function volumeExists(docker: Docker, volume: string): Promise<boolean> {
  return (await docker.call(["volume", "inspect", "--format", "{{.Name}}", volume])).code === 0;
}

/** Makes sure the store is complete on the engine: filled here under the lock, or by whoever holds it. */
export async function ensureStore(f: StoreFill): Promise<void> {
  const { docker, volume, signal } = f;
  const lock = storeLock(volume);
  for (;;) {
    if (await f.ready()) return;
    if (signal?.aborted) throw new UserError(msg.aborted(String(signal.reason ?? "aborted")));
    const taken = await docker.call(["container", "create", "--name", lock, "--network", "none", "--label", `${STORE_LOCK_LABEL}=${volume}`, f.lockImage], { signal });
    if (taken.code === 0) {
      try {
        // Whoever held the lock before may have finished the store.
        if (await f.ready()) return;
        if (await volumeExists(docker, volume)) {
          const removed = await docker.call(["volume", "rm", volume], { signal });
          // Only a complete store is ever mounted, and its name stands for its contents: its marker
          // was removed or replaced (a files image built under the marker's name), so it is set again.
          if (removed.code !== 0 && IN_USE.test(removed.stderr)) return await f.mark();
          if (removed.code !== 0) throw new UserError(msg.dockerFailed(msg.storeWhat(volume), "volume rm", removed.code, firstLine(removed.stderr)));
        }
        const labels = Object.entries({ ...f.labels, [STORE_LABEL]: volume }).flatMap(([k, v]) => ["--label", `${k}=${v}`]);
        await dockerOk(docker, msg.storeWhat(volume), ["volume", "create", ...labels, volume], { signal });
        await f.fill();
      } finally {
        await docker.call(["rm", "--force", lock]);
      }
      return;
    }
    if (!/already in use|Conflict/i.test(taken.stderr)) throw new UserError(msg.dockerFailed(msg.storeWhat(volume), "container create", taken.code, firstLine(taken.stderr)));
    await waitOrTakeOver(docker, lock, signal);
  }
}

/** Waits a moment for the lock's holder; a lock older than STALE_LOCK_MS is removed (its holder died). */
async function waitOrTakeOver(docker: Docker, lock: string, signal: AbortSignal | undefined): Promise<void> {
  const r = await docker.call(["container", "inspect", "--format", "{{.Created}}", lock]);
  const created = Date.parse(r.stdout.trim());
  if (r.code === 0 && Number.isFinite(created) && Date.now() - created > STALE_LOCK_MS) {
    await docker.call(["rm", "--force", lock]);
    return;
  }
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, POLL_MS);
    signal?.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });
}
