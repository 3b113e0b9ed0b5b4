/**
 * A Swarm trial (swarm.ts) and the watch of its task: polled until it ends, never starts within
 * SSEBENCH_SWARM_START_TIMEOUT, is rejected or its node goes down; the last three are start errors.
 */
import type { UserError } from "../../errors.ts";
import { msg } from "../messages.ts";
import type { Trial } from "./backend.ts";
import { type Docker, firstLine } from "./docker.ts";
import type { TrialNames } from "./swarm-service.ts";
import type { ExpectedUpload } from "./upload/receiver.ts";

/** Task states before its container runs, and the ones it never leaves (swarmkit's TaskState). */
const WAITING = new Set(["new", "allocated", "pending", "assigned", "accepted", "preparing", "ready", "starting"]);
const ENDED = new Set(["complete", "failed", "shutdown", "rejected", "orphaned", "remove"]);

interface TaskStatus {
  Timestamp?: string;
  State?: string;
  Err?: string;
  ContainerStatus?: { ContainerID?: string; ExitCode?: number };
}

export class SwarmTrial implements Trial {
  done: Promise<number> = Promise.resolve(0);
  service: string | undefined;
  refusal: string | undefined;
  stopping = false;
  node = "";
  container = "";
  startedAt: string | null = null;
  finishedAt: string | null = null;
  exitCode: number | null = null;
  upload: ExpectedUpload | undefined;
  /** the relay's `docker run`, settled once it ran or failed (cleanup waits for it) */
  relay: Promise<UserError | undefined> | undefined;
  withModel = false;
  /** whether its `docker run` was asked for (only then is there a container to remove) */
  relayAsked = false;
  /** resolves once the scheduler gave the task a node, or the watch ended without one */
  readonly placed: Promise<void>;
  markPlaced: () => void = () => {};
  constructor(readonly names: TrialNames, readonly withPatch: boolean) {
    this.placed = new Promise((resolve) => (this.markPlaced = resolve));
  }
  id(): string | undefined {
    return this.service;
  }
  startError(): string | undefined {
    return this.refusal;
  }
}

/** Polls the trial's task until it ends; its exit code, 143 once stopped, 125 for a start error. */
export async function watchTask(manager: Docker, env: NodeJS.ProcessEnv, trial: SwarmTrial): Promise<number> {
  const service = trial.names.service;
  const startSeconds = Number(env.SSEBENCH_SWARM_START_TIMEOUT) || 600;
  const pollMs = Number(env.SSEBENCH_SWARM_POLL_MS) || 250;
  const startBy = Date.now() + startSeconds * 1000;
  let task = "";
  let lastNodeCheck = 0;
  for (;;) {
    if (trial.stopping) return 143;
    if (!task) {
      const ps = await manager.call(["service", "ps", "--quiet", "--no-trunc", service]);
      if (ps.code !== 0) return trial.stopping ? 143 : refuse(trial, "gone", firstLine(ps.stderr));
      task = ps.stdout.trim().split("\n")[0] ?? "";
    }
    let status: TaskStatus = { State: "new" };
    if (task) {
      const r = await manager.call(["inspect", "--format", "{{json .Status}}\t{{.NodeID}}", task]);
      if (r.code !== 0) return trial.stopping ? 143 : refuse(trial, "gone", firstLine(r.stderr));
      const [json = "{}", node = ""] = r.stdout.trim().split("\t");
      status = JSON.parse(json) as TaskStatus;
      trial.node = node;
      if (node) trial.markPlaced();
      trial.container = status.ContainerStatus?.ContainerID ?? trial.container;
    }
    const state = status.State ?? "new";
    if (state === "running" && !trial.startedAt) trial.startedAt = status.Timestamp ?? new Date().toISOString();
    if (ENDED.has(state)) {
      trial.finishedAt = status.Timestamp ?? new Date().toISOString();
      const exit = status.ContainerStatus?.ExitCode;
      if ((state === "complete" || state === "failed") && trial.container && exit !== undefined) return (trial.exitCode = exit);
      if (trial.stopping) return 143;
      return refuse(trial, state, status.Err ?? "no reason given");
    }
    if (WAITING.has(state) && Date.now() > startBy) {
      trial.refusal = msg.swarmNotStarted(service, startSeconds, `${state}${status.Err ? ` (${status.Err})` : ""}`);
      return 125;
    }
    if (state === "running" && trial.node && Date.now() - lastNodeCheck > 3000) {
      lastNodeCheck = Date.now();
      const n = await manager.call(["node", "inspect", "--format", "{{.Status.State}}", trial.node]);
      if (n.code === 0 && n.stdout.trim() === "down") {
        trial.refusal = msg.swarmNodeDown(service, trial.node);
        return 125;
      }
    }
    // Quick polls while a short trial may end; then every 2 s, so hundreds of running trials
    // cost the orchestrator a few docker calls a second, not hundreds.
    await Bun.sleep(trial.startedAt && Date.now() - Date.parse(trial.startedAt) > 20_000 ? Math.max(pollMs, 2000) : pollMs);
  }
}

function refuse(trial: SwarmTrial, state: string, detail: string): number {
  trial.refusal = msg.swarmRejected(trial.names.service, state, detail);
  return 125;
}
