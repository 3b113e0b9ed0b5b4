/**
 * Pushing local images to a registry and pinning them by digest: `docker tag` + `docker push`,
 * the digest read from push's own output (the last `digest: sha256:…`), returned as
 * `<registry>/<repo>@sha256:…` for the nodes to pull. One push per (target, image ID) per
 * process: a job's concurrent trials share their tool and agent layers' pushes.
 */
import { normaliseRegistry } from "../../catalog/image-refs.ts";
import { UserError } from "../../errors.ts";
import { type Docker, firstLine } from "./docker.ts";
import { pushMsg as m } from "../messages.ts";

const REGISTRY = /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:[0-9]{1,5})?(\/[a-z0-9]+([._-]+[a-z0-9]+)*)*$/;

/** `host[:port][/path]` without a trailing slash; a usage error otherwise. */
export function checkedRegistry(registry: string): string {
  const r = normaliseRegistry(registry);
  if (!REGISTRY.test(r)) throw new UserError(m.badRegistry(registry), 2);
  return r;
}

/** The digest `docker push` printed last (`<tag>: digest: sha256:<64 hex> size: N`). */
export function pushedDigest(stdout: string): string | undefined {
  const all = [...stdout.matchAll(/digest: (sha256:[0-9a-f]{64})/g)];
  return all.at(-1)?.[1];
}

/** `repo:tag` → [repo, tag]; the tag is what follows the last ':' after the last '/'. */
export function splitTag(ref: string): [string, string] {
  const slash = ref.lastIndexOf("/");
  const colon = ref.lastIndexOf(":");
  return colon > slash ? [ref.slice(0, colon), ref.slice(colon + 1)] : [ref, "latest"];
}

export class RegistryPusher {
  readonly registry: string;
  private readonly pushes = new Map<string, Promise<string>>();

  /** the registry's name on the nodes, in the references returned (default: the same) */
  readonly pullFrom: string;

  constructor(
    private readonly docker: Docker,
    registry: string,
    opts: { pullFrom?: string } = {},
  ) {
    this.registry = checkedRegistry(registry);
    this.pullFrom = opts.pullFrom ? checkedRegistry(opts.pullFrom) : this.registry;
  }

  /** The local image's ID (undefined when it is not on this machine). */
  async imageId(local: string): Promise<string | undefined> {
    const r = await this.docker.call(["image", "inspect", "--format", "{{.Id}}", local]);
    return r.code === 0 ? r.stdout.trim() : undefined;
  }

  /** Pushes `local` (a tag or an image ID) as `<registry>/<repo>:<tag>`; returns `<pullFrom>/<repo>@sha256:…`. */
  async push(local: string, repo: string, tag: string, signal?: AbortSignal): Promise<string> {
    const id = await this.imageId(local);
    if (!id) throw new UserError(m.noLocalImage(local));
    const target = `${this.registry}/${repo}:${tag}`;
    const key = `${target}\0${id}`;
    let pushed = this.pushes.get(key);
    if (!pushed) {
      pushed = this.tagAndPush(id, local, target, signal);
      this.pushes.set(key, pushed);
      pushed.catch(() => this.pushes.delete(key));
    }
    return pushed;
  }

  private async tagAndPush(id: string, local: string, target: string, signal?: AbortSignal): Promise<string> {
    const tagged = await this.docker.call(["tag", id, target], { signal });
    if (tagged.code !== 0) throw new UserError(m.tagFailed(local, target, firstLine(tagged.stderr)));
    const r = await this.docker.call(["push", target], { signal });
    if (r.code !== 0) throw new UserError(m.pushFailed(target, firstLine(r.stderr) || firstLine(r.stdout)));
    const digest = pushedDigest(r.stdout);
    if (!digest) throw new UserError(m.noDigest(target));
    return `${this.pullFrom}${splitTag(target)[0].slice(this.registry.length)}@${digest}`;
  }

  /**
   * A run's tool and agent layers (named as run/layers/tool-layers.ts names them under `buildRegistry`)
   * pushed under the same paths in this registry; the pinned references the nodes pull.
   */
  async pushRunLayers(layers: { tool: string; agent: string }, buildRegistry: string, signal?: AbortSignal): Promise<{ tool: string; agent: string }> {
    const path = (local: string) => {
      const [repo, tag] = splitTag(local);
      const prefix = buildRegistry ? `${buildRegistry.replace(/\/+$/, "")}/` : "";
      return [prefix && repo.startsWith(prefix) ? repo.slice(prefix.length) : repo, tag] as const;
    };
    const [toolRepo, toolTag] = path(layers.tool);
    const [agentRepo, agentTag] = path(layers.agent);
    // The tool layer first: the agent layer is built on it, so its push then finds every shared blob there.
    const tool = await this.push(layers.tool, toolRepo, toolTag, signal);
    const agent = await this.push(layers.agent, agentRepo, agentTag, signal);
    return { tool, agent };
  }
}
