/**
 * Agent stores on a swarm's nodes (agent-store.ts): every trial's service mounts the store's volume
 * by name, so each node engine listed in SSEBENCH_SWARM_NODES gets that volume once, whatever the
 * task and however images reach it (registry or save | load). Per node, under the node's lock: the
 * marker image (a few hundred bytes) loaded by ID, a created container of it with the empty
 * volume mounted, the local store's files streamed in (`docker cp` out of a container here that
 * mounts the local volume read-only, `docker cp -` into the node's), and the marker tagged there
 * last. Without listed nodes there is no engine to fill, and the run says so before it starts.
 */
import { UserError } from "../../errors.ts";
import { msg } from "../messages.ts";
import { ensureStore, STORE_TARGET, volumeExists } from "./agent-store.ts";
import type { AgentStoreRef } from "./backend.ts";
import { type Docker, dockerOk } from "./docker.ts";
import { pipeDocker } from "./swarm-images.ts";

export class SwarmStores {
  private readonly fills = new Map<string, Promise<void>>();

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly nodes: Map<string, string>,
    private readonly engine: (node: string) => Docker,
    private readonly local: Docker,
  ) {}

  async prepare(store: AgentStoreRef, signal?: AbortSignal): Promise<void> {
    if (this.nodes.size === 0) throw new UserError(msg.swarmStoreNeedsNodes(store.volume));
    await Promise.all([...this.nodes.keys()].map((node) => this.fillOnce(node, store, signal)));
  }

  private fillOnce(node: string, store: AgentStoreRef, signal?: AbortSignal): Promise<void> {
    const key = `${node}\0${store.volume}\0${store.markerId}`;
    let filling = this.fills.get(key);
    if (!filling) {
      filling = this.fillNode(node, store, signal);
      // A failed fill is tried again by the next trial.
      filling.catch(() => this.fills.delete(key));
      this.fills.set(key, filling);
    }
    return filling;
  }

  private async fillNode(node: string, store: AgentStoreRef, signal?: AbortSignal): Promise<void> {
    const engine = this.engine(node);
    const address = { ...this.env, DOCKER_HOST: this.nodes.get(node) as string };
    const ready = async () =>
      (await engine.call(["image", "inspect", "--format", "{{.Id}}", store.markerTag])).stdout.trim() === store.markerId && (await volumeExists(engine, store.volume));
    if (await ready()) return;
    if ((await engine.call(["image", "inspect", "--format", "{{.Id}}", store.markerId])).code !== 0) {
      await pipeDocker(this.env, ["save", store.markerId], address, ["load", "--quiet"], msg.swarmStoreWhat(store.volume, node), signal);
    }
    const labels = { "ssebench.layer": "agent store", "ssebench.agent": store.agent };
    const fill = async () => {
      const mount = (readonly: boolean) => `type=volume,source=${store.volume},target=${STORE_TARGET}${readonly ? ",readonly" : ""}`;
      const what = msg.swarmStoreWhat(store.volume, node);
      const there = (await dockerOk(engine, what, ["container", "create", "--network", "none", "--mount", mount(false), store.markerId], { signal })).stdout.trim();
      const here = (await dockerOk(this.local, what, ["container", "create", "--network", "none", "--mount", mount(true), store.markerId], { signal })).stdout.trim();
      try {
        await pipeDocker(this.env, ["cp", `${here}:${STORE_TARGET}/.`, "-"], address, ["cp", "-", `${there}:${STORE_TARGET}`], what, signal);
      } finally {
        await Promise.all([engine.call(["rm", "--force", there]), this.local.call(["rm", "--force", here])]);
      }
      await mark();
    };
    const mark = async () => void (await dockerOk(engine, msg.swarmStoreWhat(store.volume, node), ["tag", store.markerId, store.markerTag], { signal }));
    await ensureStore({ docker: engine, volume: store.volume, labels, lockImage: store.markerId, ready, fill, mark, signal });
  }
}
