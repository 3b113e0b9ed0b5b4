/**
 * A job's plan: tasks × agents × models × attempts as a list of trials, each one `ssebench run`.
 * Agents that make no model calls get the model `none` once, whatever --model lists.
 */
import { availableParallelism, totalmem } from "node:os";
import { sizeBytes } from "../run/backends/disk-watch.ts";

export interface TrialSpec {
  /** `<task>/<model>/<agent>/<attempt>`: the trial's identity across resumes */
  trial: string;
  task: string;
  agent: string;
  /** an agent given as a folder (`--agent PATH`): its absolute path, which the trial runs */
  agent_dir?: string;
  model: string;
  attempt: number;
  /** a --predictions trial: its patch, relative to the job folder */
  patch?: string;
  /** a --predictions trial: who made the patch (results groups by them) and its line in the file */
  source?: { agent: string | null; model: string | null; line: number };
}

export interface TaskImages {
  /** the case image's local name */
  case_image: string;
  /** what is pulled when there is no local task folder: a digest reference when the images lock pins it */
  pull: string | null;
  digest: string | null;
  /** the task folder the case image is built from, if any */
  built_from: string | null;
}

/** jobs/<name>/job.json, written before the first trial. */
export interface JobFile {
  name: string;
  created_at: string;
  ssebench_version: string;
  dataset: { name: string; version: string };
  matrix: { tasks: string[]; agents: string[]; models: string[]; attempts: number };
  trials: TrialSpec[];
  /** per task: the case image the trials start from (the IDs each trial ran are in trials.jsonl) */
  images: Record<string, TaskImages>;
  /** per agent: its version (the agent layer's tag) and whether it makes model calls */
  agents: Record<string, { version: string; uses_model: boolean }>;
  /** the command line's flags (--local made absolute); a resume reads its options from here */
  argv: string[];
}

export const NO_MODEL = "none";

export function trialKey(task: string, model: string, agent: string, attempt: number): string {
  return `${task}/${model}/${agent}/${attempt}`;
}

/** Every trial in run order: attempt by attempt, so a stopped job has covered the matrix evenly. */
export function planTrials(tasks: readonly string[], agents: readonly { name: string; usesModel: boolean; external?: boolean; dir?: string }[], models: readonly string[], attempts: number): TrialSpec[] {
  const trials: TrialSpec[] = [];
  for (let attempt = 1; attempt <= attempts; attempt++) {
    for (const task of tasks) {
      for (const agent of agents) {
        for (const model of agent.usesModel ? models : [NO_MODEL]) {
          const dir = agent.external && agent.dir ? { agent_dir: agent.dir } : {};
          trials.push({ trial: trialKey(task, model, agent.name, attempt), task, agent: agent.name, ...dir, model, attempt });
        }
      }
    }
  }
  return trials;
}

/** Containers at once by default: one per 2 CPUs (a run's default --cpus) and per container memory, at least 1. */
export function defaultJobs(cpusPerRun: number, memoryBytesPerRun: number, cpus = availableParallelism(), memory = totalmem()): number {
  const byCpu = Math.floor(cpus / Math.max(1, cpusPerRun));
  const byMemory = Math.floor(memory / Math.max(1, memoryBytesPerRun));
  return Math.max(1, Math.min(byCpu, byMemory));
}

/** `4g` → bytes (the --memory syntax options.ts accepts). */
export function memoryBytes(size: string): number {
  return sizeBytes(size);
}
