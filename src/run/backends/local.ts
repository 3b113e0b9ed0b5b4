/** The local backend: `docker run` on the engine that built the layers (container.ts; a sidecar trial's two: sidecar-pair.ts). */
import type { Backend, Trial, TrialListing } from "./backend.ts";
import { type ContainerSpec, type ContainerState, inspectContainer, type RunningContainer, startContainer, stopContainer, teardown } from "./container.ts";
import type { Docker } from "./docker.ts";
import { SidecarPair } from "./sidecar-pair.ts";

const NOT_RUN: ContainerState = { exitCode: null, oomKilled: false, startedAt: null, finishedAt: null };

export class LocalBackend implements Backend {
  readonly name = "local" as const;
  constructor(private readonly docker: Docker) {}

  async prepareImages(image: string): Promise<string> {
    return image;
  }

  start(spec: ContainerSpec, onOutput: (chunk: string) => void): Trial {
    return spec.sidecar ? new SidecarPair(this.docker, spec, onOutput) : startContainer(this.docker, spec, onOutput);
  }

  stop(trial: Trial): Promise<void> {
    return trial instanceof SidecarPair ? trial.stop() : stopContainer(this.docker, trial as RunningContainer);
  }

  async inspect(trial: Trial): Promise<ContainerState> {
    const id = trial.id();
    return id ? inspectContainer(this.docker, id) : NOT_RUN;
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
}
