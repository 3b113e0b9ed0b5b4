/**
 * A job on a real engine: the three demo tasks (C, Go, Rust) × {reference, dummy} × 2 attempts with
 * --jobs 2, the expected scores; the same job of the C and Rust tasks (the Go one is slow) killed
 * half-way (SIGINT) resumes to the same final results; a
 * trial stopped by its run time limit (an interruption, an infrastructure outcome) is retried while
 * agent failures are not; a second process on a running job refuses with one line; `results` reads
 * the job's scores back.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { JobFile } from "../../src/jobs/plan.ts";
import { readTrials } from "../../src/jobs/store.ts";
import { ssebench, tempDir } from "../helpers/cli.ts";
import { demoDir, docker, E2E, homeWithAgents, readJson, SKIP_REASON, watchedSsebench } from "./helpers.ts";

setDefaultTimeout(900_000);
const results = tempDir("ssebench-e2e-jobs-");
const home = homeWithAgents({ sleeper: `["sleep", "600"]` });
afterAll(() => {
  results.cleanup();
  home.cleanup();
});
const env = { DOCKER_HOST: process.env.DOCKER_HOST, SSEBENCH_HOME: home.path };
const TASKS = ["htmlesc-quote-overflow", "fixedbuf-extend-overflow"];
const ALL_TASKS = [...TASKS, "staticfs-encoded-traversal"];
const jobOf = (tasks: string[]) => ["run", "--local", demoDir, ...tasks.flatMap((t) => ["--task", t]), "--agent", "reference", "--agent", "dummy", "--attempts", "2", "--jobs", "2", "--results", results.path];
const matrix = jobOf(TASKS);

/** trial → status of its final record */
function finalGrades(job: string): Record<string, string> {
  const grades: Record<string, string> = {};
  for (const r of readTrials(join(results.path, "jobs", job))) if (!grades[r.trial] || grades[r.trial] === "error") grades[r.trial] = r.status;
  return grades;
}

const expectedOf = (tasks: string[]) =>
  Object.fromEntries([1, 2].flatMap((attempt) => tasks.flatMap((t) => [[`${t}/none/reference/${attempt}`, "passed"], [`${t}/none/dummy/${attempt}`, "failed"]])));
const expected = expectedOf(TASKS);

describe.skipIf(!E2E)(`jobs on a real engine${SKIP_REASON}`, () => {
  test("3 tasks × {reference, dummy} × 2 attempts, 2 at once: the reference resolves every task, dummy none", async () => {
    const r = await ssebench([...jobOf(ALL_TASKS), "--job", "full"], { env });
    expect(r.stdout).toBe(`Job full: 12 trials: 6 passed, 6 failed, 0 errors\nJob directory: ${join(results.path, "jobs", "full")}\n`);
    expect(r.exitCode).toBe(0);
    expect(finalGrades("full")).toEqual(expectedOf(ALL_TASKS));
    const job = readJson<JobFile>(join(results.path, "jobs", "full", "job.json"));
    expect(job.dataset).toEqual({ name: "demo", version: "demo-v1" });
    expect(job.trials).toHaveLength(12);
    // One try each: nothing was an infrastructure error.
    expect(readTrials(join(results.path, "jobs", "full")).every((t) => t.try === 1 && t.run_dir !== null)).toBe(true);
    // The scores of the job, read back from its run folders.
    const scores = await ssebench(["results", "full", "--results", results.path, "--json"], { env });
    expect(scores.exitCode).toBe(0);
    const groups = JSON.parse(scores.stdout).groups.map((g: Record<string, unknown>) => [g.agent, g.trials, g.resolved, g.rate, g.pass_at_k, g.errors]);
    expect(groups).toEqual([
      ["dummy", 6, 0, 0, { "1": 0, "2": 0 }, {}],
      ["reference", 6, 6, 1, { "1": 1, "2": 1 }, {}],
    ]);
    // Per task: the reference resolved both attempts of every task, dummy none.
    const cells = { "dummy/none": { passed: 0, graded: 2, errors: 0 }, "reference/none": { passed: 2, graded: 2, errors: 0 } };
    expect(JSON.parse(scores.stdout).tasks).toEqual(Object.fromEntries([...ALL_TASKS].sort().map((t) => [t, cells])));
    const table = await ssebench(["results", "full", "--results", results.path], { env });
    const lines = table.stdout.split("\n");
    const matrix = lines.findIndex((l) => l.startsWith("TASK (passed/graded)"));
    expect(lines.slice(matrix, matrix + 4)).toEqual([
      "TASK (passed/graded)        dummy/none  reference/none",
      "fixedbuf-extend-overflow    0/2         2/2",
      "htmlesc-quote-overflow      0/2         2/2",
      "staticfs-encoded-traversal  0/2         2/2",
    ]);
  });

  test("killed half-way (SIGINT), then resumed: the same final results", async () => {
    const run = watchedSsebench([...matrix, "--job", "killed"], env);
    const { proc } = run;
    await run.until(/\[3\/8\]/);
    // A second process on the running job refuses with one line.
    const second = await ssebench(["run", "--job", "killed", "--results", results.path], { env });
    expect(second.exitCode).toBe(1);
    expect(second.stderr.trim().split("\n")).toHaveLength(1);
    expect(second.stderr).toContain(`Job killed is being run by process ${proc.pid}`);
    proc.kill("SIGINT");
    const stderr = await run.rest();
    expect(await proc.exited).toBe(130);
    expect(stderr).toContain("Received SIGINT; starting no new trials");
    const partial = Object.keys(finalGrades("killed")).length;
    expect(partial).toBeLessThan(8);
    // The stopped trials are recorded as interrupted, and their containers are gone.
    const stopped = readTrials(join(results.path, "jobs", "killed")).filter((t) => t.error_type === "interrupted");
    expect(stopped.length).toBeGreaterThan(0);
    for (const t of stopped) expect(docker(["ps", "-a", "-q", "--filter", `label=ssebench.run-id=${t.run_id}`])).toBe("");
    const resumed = await ssebench(["run", "--job", "killed", "--results", results.path], { env });
    expect(resumed.exitCode).toBe(0);
    // The job's --jobs 2 is kept, though the resume does not give it again.
    expect(resumed.stderr).toMatch(/^\[info\] Job killed: 8 trials, [1-8] to run, 2 at once$/m);
    expect(resumed.stdout.split("\n")[0]).toBe("Job killed: 8 trials: 4 passed, 4 failed, 0 errors");
    expect(finalGrades("killed")).toEqual(expected);
  });

  test("a trial stopped by its run time limit is retried; a failed grade is not", async () => {
    const r = await ssebench(
      ["run", "--local", demoDir, "--task", TASKS[0] as string, "--agent", "sleeper", "--agent", "dummy", "--run-timeout", "25", "--retries", "1", "--job", "retry", "--results", results.path],
      { env },
    );
    expect(r.exitCode).toBe(1);
    expect(r.stdout.split("\n")[0]).toBe("Job retry: 2 trials: 0 passed, 1 failed, 1 errors");
    const records = readTrials(join(results.path, "jobs", "retry"));
    expect(records.filter((t) => t.agent === "sleeper").map((t) => [t.try, t.status, t.error_type])).toEqual([
      [1, "error", "interrupted"],
      [2, "error", "interrupted"],
    ]);
    expect(records.filter((t) => t.agent === "dummy").map((t) => [t.try, t.status])).toEqual([[1, "failed"]]);
    expect(r.stderr).toContain(`${TASKS[0]} sleeper #1: infrastructure error; retry 1 of 1 in 5s`);
  });

  test("--predictions grades patches made elsewhere through the patch agent", async () => {
    const fix = readFileSync(join(demoDir, "htmlesc-quote-overflow", "sse", "diffs", "patch.diff"), "utf8");
    const file = join(results.path, "preds.jsonl");
    writeFileSync(file, `${JSON.stringify({ task: "htmlesc-quote-overflow", patch: fix, agent: "upstream" })}\n${JSON.stringify({ task: "htmlesc-quote-overflow", patch: "", agent: "nothing", model: "m0" })}\n`);
    // The checkout's own agents/ (the test home links only dummy and reference).
    const ownHome = { DOCKER_HOST: process.env.DOCKER_HOST };
    const r = await ssebench(["run", "--local", demoDir, "--predictions", file, "--job", "preds", "--results", results.path], { env: ownHome });
    expect(r.stdout.split("\n")[0]).toBe("Job preds: 2 trials: 1 passed, 1 failed, 0 errors");
    expect(r.exitCode).toBe(0);
    const scores = JSON.parse((await ssebench(["results", "preds", "--results", results.path, "--json"], { env: ownHome })).stdout);
    expect(scores.groups.map((g: Record<string, unknown>) => [g.agent, g.model, g.trials, g.resolved])).toEqual([
      ["nothing", "m0", 1, 0],
      ["upstream", "none", 1, 1],
    ]);
    const [passed] = readTrials(join(results.path, "jobs", "preds"));
    expect(readFileSync(join(results.path, passed?.run_dir as string, "prediction.patch"), "utf8")).toBe(fix);
  });
});
