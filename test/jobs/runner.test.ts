/**
 * runJob with the fake docker of test/run (the orchestrator's neighbour): trials.jsonl lines, resume
 * skipping graded trials, retries of infrastructure errors only, and a stopped job that a later run finishes.
 * The same against the real engine: test/e2e/jobs.test.ts.
 */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import type { Summary } from "../../src/formats/run/summary.ts";
import { VERSION } from "../../src/version.ts";
import { join } from "node:path";
import type { JobFile, TrialSpec } from "../../src/jobs/plan.ts";
import { predictionTrials } from "../../src/jobs/predictions.ts";
import { planTrials } from "../../src/jobs/plan.ts";
import { plainProgress } from "../../src/jobs/progress.ts";
import { type JobDeps, runJob } from "../../src/jobs/runner.ts";
import { readTrials, writeJobFile } from "../../src/jobs/store.ts";
import type { DockerCallOptions } from "../../src/run/backends/docker.ts";
import { parseRunOptions } from "../../src/run/options.ts";
import { tempDir } from "../helpers/cli.ts";
import { checkoutHome, FakeDocker, type FakeContainer, passedResult } from "../run/fake-docker.ts";
import { Argv } from "../../src/argv.ts";

const noFlags = Argv.read([], new Set());

const scratch = tempDir("ssebench-jobs-runner-");
process.env.XDG_CACHE_HOME = join(scratch.path, "cache");
afterAll(scratch.cleanup);
const home = checkoutHome(scratch.path);
const fixtures = join(import.meta.dir, "..", "run", "fixtures", "dataset");
const BASE = "ghcr.io/42-b3yond-6ug/ssebench/base-generic-c:1.0.0";
const failedResult = { ...passedResult, patch_result: { ...passedResult.patch_result, status: "failed", pov_passed: 0, error_msg: "PoC failed: pocs/1" } };

/** Each `docker run` takes the next scripted container (then keeps the last). */
class ScriptedDocker extends FakeDocker {
  constructor(readonly script: FakeContainer[]) {
    super();
    this.images.set(BASE, { id: "sha256:base", inputs: "" });
  }
  override async call(args: readonly string[], opts?: DockerCallOptions) {
    if (args[0] === "run") this.container = this.script.shift() ?? this.container;
    return super.call(args, opts);
  }
}

let counter = 0;
let results: string;
beforeEach(() => {
  results = join(scratch.path, `results-${++counter}`);
});

function job(attempts: number): { dir: string; file: JobFile } {
  const dir = join(results, "jobs", "j");
  const file: JobFile = {
    name: "j", created_at: "", ssebench_version: "0", dataset: { name: "dataset", version: "" },
    matrix: { tasks: ["tiny-task"], agents: ["dummy"], models: [], attempts },
    trials: planTrials(["tiny-task"], [{ name: "dummy", usesModel: false }], [], attempts),
    images: {}, agents: {}, argv: [],
  };
  writeJobFile(dir, file);
  return { dir, file };
}

async function run(dir: string, file: JobFile, docker: FakeDocker, extra: Partial<JobDeps> = {}, retries = 2) {
  const base = parseRunOptions({ task: "job", agent: "job", local: fixtures, results }, noFlags, {});
  const lines: string[] = [];
  const deps: JobDeps = { docker, home, env: {}, emit: plainProgress((l) => lines.push(l)), warn: (l) => lines.push(l), stop: new AbortController().signal, backoffMs: () => 0, ...extra };
  const runs = await runJob({ dir, job: file, base, jobs: 2, retries }, deps);
  return { runs, lines, records: readTrials(dir) };
}

describe("runJob", () => {
  test("each trial is one run folder and one trials.jsonl line; a resume runs nothing", async () => {
    const { dir, file } = job(2);
    const first = await run(dir, file, new ScriptedDocker([{ result: passedResult }, { result: failedResult }]));
    expect(first.runs).toBe(2);
    expect(first.records.map((r) => [r.trial, r.try, r.status])).toEqual([
      ["tiny-task/none/dummy/1", 1, "passed"],
      ["tiny-task/none/dummy/2", 1, "failed"],
    ]);
    for (const r of first.records) {
      const summary = JSON.parse(readFileSync(join(results, r.run_dir as string, "summary.json"), "utf8")) as Summary;
      // Provenance: which dataset, agent build and ssebench made it, and the job it belongs to.
      expect(summary.provenance).toEqual({ ssebench_version: VERSION, dataset: { name: "dataset", version: "test-v1" }, agent: { name: "dummy", version: "1.0.0", image: r.images.agent }, job: "j", task_dates: { published: null, fixed: null }, model: null });
      expect(r.images.agent).toStartWith("sha256:");
    }
    expect(first.lines[0]).toBe("Job j: 2 trials, 2 to run, 2 at once");
    const again = await run(dir, file, new ScriptedDocker([]));
    expect(again.runs).toBe(0);
    expect(again.lines).toEqual(["Job j: 2 trials, 0 to run, 2 at once"]);
  });

  test("an infrastructure error (no result) is retried up to --retries; an agent failure never", async () => {
    const { dir, file } = job(1);
    const infra = await run(dir, file, new ScriptedDocker([{}, {}, { result: failedResult }, { result: passedResult }]), {}, 2);
    expect(infra.records.map((r) => [r.try, r.status, r.error_type])).toEqual([
      [1, "error", "infra"],
      [2, "error", "infra"],
      [3, "failed", null],
    ]);
    expect(infra.lines.filter((l) => l.startsWith("tiny-task dummy #1: infrastructure error"))).toEqual([
      "tiny-task dummy #1: infrastructure error; retry 1 of 2 in 0s",
      "tiny-task dummy #1: infrastructure error; retry 2 of 2 in 0s",
    ]);
    results = `${results}-capped`;
    const capped = job(1);
    const out = await run(capped.dir, capped.file, new ScriptedDocker([{}, {}, {}]), {}, 1);
    expect(out.records.map((r) => r.status)).toEqual(["error", "error"]);
  });

  test("a stop interrupts the running trial, starts no other; a later run finishes the job", async () => {
    const { dir, file } = job(3);
    const controller = new AbortController();
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const docker = new ScriptedDocker([{ until: new Promise(() => {}) }]);
    const call = docker.call.bind(docker);
    docker.call = async (args, opts) => {
      if (args[0] === "run") started();
      return call(args, opts);
    };
    const stopped = run(dir, file, docker, { stop: controller.signal });
    await running;
    controller.abort("SIGINT");
    const first = await stopped;
    expect(first.records.map((r) => [r.trial, r.status, r.error_type])).toEqual([["tiny-task/none/dummy/1", "error", "interrupted"]]);
    const resumed = await run(dir, file, new ScriptedDocker([{ result: passedResult }]));
    expect(resumed.runs).toBe(3);
    // Attempts 2 and 3 run at once (--jobs 2): their lines come in either order.
    expect(resumed.records.map((r) => [r.trial, r.try, r.status]).sort((a, b) => String(a).localeCompare(String(b)))).toEqual([
      ["tiny-task/none/dummy/1", 1, "error"],
      ["tiny-task/none/dummy/1", 2, "passed"],
      ["tiny-task/none/dummy/2", 1, "passed"],
      ["tiny-task/none/dummy/3", 1, "passed"],
    ]);
  });

  test("a --predictions trial mounts its patch where the reference patch goes and keeps a copy with the run", async () => {
    const { dir, file } = job(1);
    const [prediction] = predictionTrials([{ task: "tiny-task", patch: "--- a/x\n+++ b/x\n", agent: "coder", model: "m1", line: 1 }]);
    const predicted = { ...file, trials: [prediction as TrialSpec] };
    mkdirSync(join(dir, "patches"), { recursive: true });
    writeFileSync(join(dir, "patches", "tiny-task.1.diff"), "--- a/x\n+++ b/x\n");
    const docker = new ScriptedDocker([{ result: passedResult }]);
    const out = await run(dir, predicted, docker);
    expect(out.records.map((r) => [r.trial, r.status])).toEqual([["tiny-task/none/patch/1", "passed"]]);
    const runArgs = docker.calls.find((c) => c[0] === "run") as string[];
    expect(runArgs).toContain(`type=bind,source=${join(dir, "patches", "tiny-task.1.diff")},target=/reference/patch.diff,readonly`);
    expect(readFileSync(join(results, out.records[0]?.run_dir as string, "prediction.patch"), "utf8")).toBe("--- a/x\n+++ b/x\n");
  });

  test("a failure after the run folder exists (a failed build) points the trial at that folder", async () => {
    const { dir, file } = job(1);
    const docker = new ScriptedDocker([]);
    const call = docker.call.bind(docker);
    docker.call = async (args, opts) => (args[0] === "build" ? { code: 1, stdout: "", stderr: "boom" } : call(args, opts));
    const out = await run(dir, file, docker, {}, 0);
    const [record] = out.records;
    expect([record?.status, record?.error_type]).toEqual(["error", "infra"]);
    expect(record?.error_msg).toStartWith("Building the case image failed");
    expect(existsSync(join(results, record?.run_dir as string, "summary.json"))).toBe(true);
    expect(record?.run_id).toBe((record?.run_dir as string).split("/").pop() as string);
  });
});
