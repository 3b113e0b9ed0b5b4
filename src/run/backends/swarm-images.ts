/**
 * How the agent layer, built on the local engine, reaches the swarm's nodes. With
 * SSEBENCH_SWARM_REGISTRY it is pushed there (only the blobs the registry lacks) and started by
 * digest under the name the nodes reach the registry by (SSEBENCH_SWARM_REGISTRY_PULL), so each
 * node pulls what it lacks. Without one, `docker save | docker load` into every node listed in
 * SSEBENCH_SWARM_NODES that lacks it: once per node and image, one load at a time per node.
 */
import { UserError } from "../../errors.ts";
import type { RegistryPusher } from "./registry-push.ts";
import { type Docker, firstLine } from "./docker.ts";
import { msg } from "../messages.ts";

export class SwarmImages {
  private readonly loads = new Map<string, Promise<void>>();
  private pusher: Promise<RegistryPusher> | undefined;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly nodes: Map<string, string>,
    private readonly engine: (node: string) => Docker,
    private readonly local: Docker,
  ) {}

  /** The reference a service starts: a pinned registry reference, or the image ID on the nodes. */
  async prepare(image: string, signal?: AbortSignal): Promise<string> {
    const registry = this.env.SSEBENCH_SWARM_REGISTRY;
    if (registry) {
      this.pusher ??= import("./registry-push.ts").then(
        ({ RegistryPusher }) => new RegistryPusher(this.local, registry, { pullFrom: this.env.SSEBENCH_SWARM_REGISTRY_PULL || undefined }),
      );
      return (await this.pusher).push(image, "ssebench/trial", image.replace(/^sha256:/, "").slice(0, 24), signal);
    }
    await Promise.all([...this.nodes.keys()].map((node) => this.loadInto(node, image, signal)));
    return image;
  }

  private loadInto(node: string, image: string, signal?: AbortSignal): Promise<void> {
    const key = `${node}\0${image}`;
    const known = this.loads.get(key);
    if (known) return known;
    const previous = [...this.loads.entries()].filter(([k]) => k.startsWith(`${node}\0`)).map(([, p]) => p.catch(() => {}));
    const engine = this.engine(node);
    const address = this.nodes.get(node) as string;
    const loading = Promise.all(previous).then(async () => {
      if ((await engine.call(["image", "inspect", "--format", "{{.Id}}", image])).code === 0) return;
      await pipeDocker(this.env, ["save", image], { ...this.env, DOCKER_HOST: address }, ["load", "--quiet"], `loading the image into node ${node}`, signal);
    });
    // A failed load is tried again by the next trial.
    loading.catch(() => this.loads.delete(key));
    this.loads.set(key, loading);
    return loading;
  }
}

/**
 * `docker A… | docker B…`, the second against another engine (`toEnv`): a one-line UserError
 * naming `what` when either fails; both are killed on abort.
 */
export async function pipeDocker(env: NodeJS.ProcessEnv, from: string[], toEnv: NodeJS.ProcessEnv, to: string[], what: string, signal?: AbortSignal): Promise<void> {
  const docker = Bun.which("docker", { PATH: env.PATH ?? "" }) ?? "docker";
  const source = Bun.spawn([docker, ...from], { env, stdout: "pipe", stderr: "pipe" });
  const sink = Bun.spawn([docker, ...to], { env: toEnv, stdin: source.stdout, stdout: "pipe", stderr: "pipe" });
  const abort = () => {
    source.kill();
    sink.kill();
  };
  signal?.addEventListener("abort", abort, { once: true });
  try {
    const [sent, taken, sourceErr, sinkErr] = await Promise.all([source.exited, sink.exited, new Response(source.stderr).text(), new Response(sink.stderr).text()]);
    if (sent !== 0 || taken !== 0) throw new UserError(msg.dockerFailed(what, `${from[0]} | ${to[0]}`, sent || taken, firstLine(sourceErr || sinkErr)));
  } finally {
    signal?.removeEventListener("abort", abort);
  }
}
