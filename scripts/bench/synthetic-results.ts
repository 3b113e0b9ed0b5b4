/**
 * Synthetic run folders and a job for `ssebench results` (its tests and scripts/bench/results.ts):
 * summary.json files shaped as `ssebench run` writes them, with outcomes from a seeded generator.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface SyntheticRun {
  task: string;
  agent: string;
  model: string;
  attempt: number;
  status: "passed" | "failed" | "error";
  error_type?: string | null;
  spend?: number;
  tokens?: { input: number; output: number; cache_read: number; cache_write: number };
  seconds?: number;
  dataset?: { name: string; version: string };
  /** the oracle plugin's verdict: <run dir>/oracle-review.json */
  verdict?: string;
}

/** Writes results/<task>/<model>/<agent>/<run-id>/summary.json; returns the run folder relative to root. */
export function writeRun(root: string, run: SyntheticRun, runId: string): string {
  const rel = join(run.task, run.model, run.agent, runId);
  mkdirSync(join(root, rel, "archive"), { recursive: true });
  const summary = {
    task: { id: run.task },
    config: { agent: run.agent, model: run.model },
    patch_result: { status: run.status, error_type: run.status === "error" ? (run.error_type ?? "infra") : null, error_msg: run.status === "error" ? "synthetic" : null, checks: [] },
    runtime_result: { agent_duration: run.seconds ?? 1 },
    spend: run.spend ?? 0,
    model_calls: 0,
    tokens: run.tokens ?? { input: 0, output: 0, cache_read: 0, cache_write: 0 },
    tool_calls: 0,
    run_id: runId,
    started_at: "2026-12-01T00:00:00.000Z",
    plugin_results: [],
    container: { image: "sha256:agent", case_image: "sha256:case" },
    interrupted: null,
    timings_ms: { total: Math.round((run.seconds ?? 1) * 1000) },
    disk_usage: { run_dir_bytes: null, archive_bytes: null },
    provenance: { ssebench_version: "0.1.0", dataset: run.dataset ?? { name: "synthetic", version: "v1" }, agent: { name: run.agent, version: "1", image: "sha256:agent" }, job: null },
  };
  writeFileSync(join(root, rel, "summary.json"), JSON.stringify(summary));
  if (run.verdict) writeFileSync(join(root, rel, "oracle-review.json"), JSON.stringify({ status: "ok", verdict: run.verdict, grade: run.status }));
  return rel;
}

/** A job folder over the given runs: job.json and one trials.jsonl line each. */
export function writeJob(root: string, name: string, runs: readonly SyntheticRun[]): void {
  const dir = join(root, "jobs", name);
  mkdirSync(dir, { recursive: true });
  const lines: string[] = [];
  const trials = runs.map((run, i) => {
    const trial = `${run.task}/${run.model}/${run.agent}/${run.attempt}`;
    const runDir = writeRun(root, run, `${name}-${i}`);
    lines.push(JSON.stringify({ trial, task: run.task, agent: run.agent, model: run.model, attempt: run.attempt, try: 1, status: run.status, error_type: run.status === "error" ? (run.error_type ?? "infra") : null, error_msg: null, run_id: `${name}-${i}`, run_dir: runDir, dataset: run.dataset ?? { name: "synthetic", version: "v1" }, started_at: "", finished_at: "", duration_ms: 1000, images: { agent: null, case: null }, spend: run.spend ?? 0 }));
    return { trial, task: run.task, agent: run.agent, model: run.model, attempt: run.attempt };
  });
  const job = { name, created_at: "", ssebench_version: "0.1.0", dataset: { name: "synthetic", version: "v1" }, matrix: {}, trials, images: {}, agents: {}, argv: [] };
  writeFileSync(join(dir, "job.json"), JSON.stringify(job));
  writeFileSync(join(dir, "trials.jsonl"), lines.map((l) => `${l}\n`).join(""));
}

/** tasks × agents × attempts runs with seeded outcomes (a small LCG, the same for the same seed). */
export function syntheticRuns(tasks: number, agents: number, attempts: number, seed = 1): SyntheticRun[] {
  let state = seed >>> 0;
  const next = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const runs: SyntheticRun[] = [];
  for (let a = 1; a <= attempts; a++) {
    for (let t = 0; t < tasks; t++) {
      for (let g = 0; g < agents; g++) {
        const roll = next();
        const status = roll < 0.45 ? "passed" : roll < 0.95 ? "failed" : "error";
        runs.push({ task: `task-${t}`, agent: `agent-${g}`, model: `model-${g}`, attempt: a, status, error_type: status === "error" ? (roll < 0.97 ? "infra" : "agent_timeout") : null, spend: Math.round(next() * 1e4) / 1e4, tokens: { input: 1000, output: 200, cache_read: 0, cache_write: 0 }, seconds: Math.round(next() * 600) });
      }
    }
  }
  return runs;
}
