/**
 * The local backend: `docker run` on the engine that built the layers (container.ts; a sidecar
 * trial's two: sidecar-pair.ts), its writable layer bounded by a quota where the engine takes
 * one, else watched (disk-watch.ts).
 */
import type { Backend, Trial, TrialListing } from "./backend.ts";
import { type ContainerSpec, type ContainerState, inspectContainer, type RunningContainer, startContainer, stopContainer, teardown } from "./container.ts";
import { type DiskWatch, quotaSupported, sizeBytes, watchDisk } from "./disk-watch.ts";
import type { Docker } from "./docker.ts";
import { type Removed, removeLabelled } from "./leftovers.ts";
import { JOB_LABEL } from "./owner.ts";
import { SidecarPair } from "./sidecar-pair.ts";

const NOT_RUN: ContainerState = { exitCode: null, oomKilled: false, startedAt: null, finishedAt: null };

export class LocalBackend implements Backend {
  readonly name = "local" as const;
  /** Does the engine take a storage quota? Asked once, with the first trial's image. */
  private quota?: Promise<boolean>;
  private quotaKnown?: boolean;
  private readonly watches = new WeakMap<Trial, DiskWatch>();

  constructor(private readonly docker: Docker) {}

  async prepareImages(image: string): Promise<string> {
    this.quota ??= quotaSupported(this.docker, image);
    this.quotaKnown = await this.quota;
    return image;
  }

  /** The store is on this engine already. */
  async prepareAgentStore(): Promise<void> {}

  start(spec: ContainerSpec, onOutput: (chunk: string) => void): Trial {
    if (spec.sidecar) return new SidecarPair(this.docker, spec, onOutput);
    const quota = this.quotaKnown === true;
    const trial = startContainer(this.docker, { ...spec, diskQuota: quota }, onOutput);
    if (!quota) {
      const watch = watchDisk(this.docker, trial.id, sizeBytes(spec.resources.disk), () => stopContainer(this.docker, trial));
      this.watches.set(trial, watch);
      void trial.done.finally(() => watch.end());
    }
    return trial;
  }

  stop(trial: Trial): Promise<void> {
    return trial instanceof SidecarPair ? trial.stop() : stopContainer(this.docker, trial as RunningContainer);
  }

  async inspect(trial: Trial): Promise<ContainerState> {
    const id = trial.id();
    if (!id) return NOT_RUN;
    const state = await inspectContainer(this.docker, id);
    const over = this.watches.get(trial)?.exceeded();
    return over === undefined ? state : { ...state, diskExceeded: over };
  }

  async logs(trial: Trial): Promise<string> {
    const id = trial.id();
    if (!id) return "";
    const r = await this.docker.call(["logs", id]);
    return r.stdout + r.stderr;
  }

  async collectResults(): Promise<string[]> {
    return [];
  }

  cleanup(trial: Trial | undefined, keep: boolean): Promise<string[]> {
    return trial instanceof SidecarPair ? trial.cleanup(keep) : teardown(this.docker, trial?.id(), keep);
  }

  async list(): Promise<TrialListing[]> {
    const r = await this.docker.call(["ps", "--all", "--filter", "label=ssebench.run-id", "--format", '{{.ID}}\t{{.Label "ssebench.run-id"}}\t{{.Label "ssebench.task-id"}}\t{{.State}}']);
    return r.stdout.split("\n").filter(Boolean).map((line) => {
      const [id = "", runId = "", task = "", state = ""] = line.split("\t");
      return { id, runId, task, state };
    });
  }

  async close(): Promise<string[]> {
    return [];
  }

  removeJobLeftovers(jobDir: string): Promise<Removed> {
    return removeLabelled(this.docker, `${JOB_LABEL}=${jobDir}`, ["container", "volume", "network"]);
  }
}
