/**
 * The seam between a run and where its container runs (docs/backends.md). The orchestrator builds
 * the layers on the local engine, then asks a backend to make the image available where trials
 * run, start the trial, wait for it, read its final state, bring its results into the run folder
 * and remove what it created. `local` runs `docker run` on the local engine (container.ts);
 * `swarm` runs a replicated-job service on a Docker Swarm (swarm.ts); open.ts
 * picks one.
 */
import type { ContainerSpec, ContainerState } from "./container.ts";
import type { Removed } from "./leftovers.ts";

export const BACKENDS = ["local", "swarm"] as const;
export type BackendName = (typeof BACKENDS)[number];

/** An agent store on the local engine: its volume and its marker image (agent-store.ts). */
export interface AgentStoreRef {
  agent: string;
  volume: string;
  markerId: string;
  /** the marker's tag (the agent's files image's name) */
  markerTag: string;
}

/** A started trial: the container of `docker run`, or the service of a Swarm job. */
export interface Trial {
  /** resolves once the trial ended (the `docker run` client's status; the task's exit code) */
  done: Promise<number>;
  /** the backend's name for it (container ID, service name); undefined if it never started */
  id(): string | undefined;
  /** the engine's refusal when the trial did not start, once done */
  startError(): string | undefined;
}

/** What `list` shows of a trial the backend still holds (for clean-up and debugging). */
export interface TrialListing {
  id: string;
  runId: string;
  task: string;
  state: string;
}

export interface Backend {
  readonly name: BackendName;
  /** makes `image` (an ID on the local engine) runnable where trials run; the reference to start */
  prepareImages(image: string, signal?: AbortSignal): Promise<string>;
  /** makes the agent's store (a volume on the local engine, agent-store.ts) mountable where trials run */
  prepareAgentStore(store: AgentStoreRef, signal?: AbortSignal): Promise<void>;
  /** starts the trial; output (the container's, or docker's refusal) goes to onOutput */
  start(spec: ContainerSpec, onOutput: (chunk: string) => void): Trial;
  /** asks a running trial to stop (Ctrl-C, the run's time limit) */
  stop(trial: Trial): Promise<void>;
  /** the trial's final state, read once it is done and before cleanup */
  inspect(trial: Trial): Promise<ContainerState>;
  /** everything the trial printed so far */
  logs(trial: Trial): Promise<string>;
  /** brings the trial's results into the run folder (local: already there, bind-mounted); warnings */
  collectResults(trial: Trial, spec: ContainerSpec): Promise<string[]>;
  /** removes what the trial left unless kept; warnings (never throws) */
  cleanup(trial: Trial | undefined, keep: boolean): Promise<string[]>;
  /** the trials this backend holds now */
  list(): Promise<TrialListing[]>;
  /** the end of a job or run: what the backend shares between trials; warnings */
  close(): Promise<string[]>;
  /**
   * What a killed process of the job in `jobDir` left where trials run (containers, volumes,
   * networks, services, secrets labelled `ssebench.job=<jobDir>`, owner.ts), removed; throws only
   * the UserError of an engine that cannot be reached.
   */
  removeJobLeftovers(jobDir: string): Promise<Removed>;
}
