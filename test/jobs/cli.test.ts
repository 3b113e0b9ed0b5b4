/** `ssebench run` job flags through the compiled binary: usage errors and planning errors, each one line. */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { msg } from "../../src/jobs/messages.ts";
import { readTrials } from "../../src/jobs/store.ts";
import { hasNoStackTrace, repoRoot, ssebench, tempDir } from "../helpers/cli.ts";

const scratch = tempDir("ssebench-jobs-cli-");
afterAll(scratch.cleanup);
const results = join(scratch.path, "results");
const demo = join(repoRoot, "datasets", "demo");

async function fails(args: string[], code: number, line: string) {
  const r = await ssebench(["run", ...args], { env: { XDG_CACHE_HOME: join(scratch.path, "cache") } });
  expect(r.exitCode).toBe(code);
  expect(r.stderr).toContain(line);
  expect(r.stdout).toBe("");
  expect(hasNoStackTrace(r.stderr)).toBe(true);
}

describe("ssebench run as a job", () => {
  test("a repeated single-value flag is a usage error, in one run and in a job", async () => {
    await fails(["--task", "htmlesc-quote-overflow", "--agent", "dummy", "--timeout", "5", "--timeout", "6"], 2, msg.flagTwice("--timeout"));
    await fails(["--task", "a", "--task", "b", "--agent", "dummy", "--results", results, "--results", results], 2, msg.flagTwice("--results"));
  });

  test("job flags are checked; --run-id does not go with a job", async () => {
    await fails(["--task", "a", "--task", "b", "--agent", "dummy", "--run-id", "x"], 2, msg.jobRunId());
    await fails(["--task", "a", "--agent", "dummy", "--attempts", "0"], 2, msg.attempts("0"));
    await fails(["--task", "a", "--agent", "dummy", "--jobs", "two"], 2, msg.jobsCount("two"));
    await fails(["--task", "a", "--agent", "dummy", "--job", "../x"], 2, msg.jobName("../x"));
  });

  test("a job that does not exist, or a bad tasks file, leaves no job folder", async () => {
    await fails(["--job", "nope", "--results", results], 1, msg.jobMissing("nope", join(results, "jobs")));
    const file = join(scratch.path, "tasks.txt");
    writeFileSync(file, "htmlesc-quote-overflow\nnot-a-demo-task\n");
    await fails(["--local", demo, "--tasks", `@${file}`, "--agent", "dummy", "--job", "bad", "--results", results], 1, msg.unknownTaskAt(file, 2, "not-a-demo-task", demo));
    expect(existsSync(join(results, "jobs", "bad"))).toBe(false);
    expect(existsSync(join(results, "jobs", "nope"))).toBe(false);
  });

  test("a resume keeps the job's options: a different one is refused", async () => {
    const dir = join(results, "jobs", "planned");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "job.json"), JSON.stringify({ name: "planned", trials: [], argv: ["--local", demo, "--task", "htmlesc-quote-overflow", "--agent", "dummy", "--timeout", "100"] }));
    await fails(["--job", "planned", "--results", results, "--timeout", "5"], 1, msg.resumeOptions("planned", `${dir}/job.json`));
    // The same options again are fine (here: a plan with no trials left, so nothing runs).
    const same = await ssebench(["run", "--job", "planned", "--results", results, "--local", demo, "--timeout", "100"], { env: { XDG_CACHE_HOME: join(scratch.path, "cache") } });
    expect(same.stdout).toBe(`${msg.jobSummary("planned", 0, 0, 0, 0, 0, 0)}\n${msg.jobDir(dir)}\n`);
    expect(same.exitCode).toBe(0);
  });

  test("a resume keeps the job's --jobs and --retries unless given again", async () => {
    const dir = join(results, "jobs", "paced");
    mkdirSync(join(dir, "logs"), { recursive: true });
    const trial = { trial: "htmlesc-quote-overflow/none/dummy/1", task: "htmlesc-quote-overflow", agent: "dummy", model: "none", attempt: 1 };
    const argv = ["--local", demo, "--task", trial.task, "--agent", "dummy", "--jobs", "3", "--retries", "0", "--require-pass"];
    writeFileSync(join(dir, "job.json"), JSON.stringify({ name: "paced", dataset: { name: "demo", version: "demo-v1" }, trials: [trial], argv }));
    // No engine: the trial is an infrastructure error, not retried (--retries 0 kept; the default would retry twice).
    const env = { XDG_CACHE_HOME: join(scratch.path, "cache"), DOCKER_HOST: `unix://${join(scratch.path, "no-engine.sock")}` };
    const kept = await ssebench(["run", "--job", "paced", "--results", results], { env });
    expect(kept.stderr).toContain(`\n[info] ${msg.jobPlanned("paced", 1, 1, 3)}\n`);
    expect(readTrials(dir).map((r) => [r.try, r.error_type])).toEqual([[1, "infra"]]);
    expect(kept.exitCode).toBe(1);
    const given = await ssebench(["run", "--job", "paced", "--results", results, "--jobs", "1", "--retries", "0"], { env });
    expect(given.stderr).toContain(`\n[info] ${msg.jobPlanned("paced", 1, 1, 1)}\n`);
    expect(readTrials(dir).map((r) => r.try)).toEqual([1, 2]);
  });

  test("a torn last line of trials.jsonl is dropped (or terminated) on open and noted in job.log; the next record is whole", async () => {
    const env = { XDG_CACHE_HOME: join(scratch.path, "cache"), DOCKER_HOST: `unix://${join(scratch.path, "no-engine.sock")}` };
    const trial = (task: string) => ({ trial: `${task}/none/dummy/1`, task, agent: "dummy", model: "none", attempt: 1 });
    const trials = [trial("htmlesc-quote-overflow"), trial("fixedbuf-extend-overflow")];
    const argv = ["--local", demo, "--task", "htmlesc-quote-overflow", "--task", "fixedbuf-extend-overflow", "--agent", "dummy", "--retries", "0", "--jobs", "1"];
    const graded = JSON.stringify({ ...trials[0], try: 1, status: "failed", error_type: null, error_msg: null, run_id: "r1", run_dir: null });
    for (const [name, torn, kept] of [
      // a crash mid-write: a partial record without its newline
      ["torn", graded.slice(0, 40), [["htmlesc-quote-overflow/none/dummy/1", 1, "error"], ["fixedbuf-extend-overflow/none/dummy/1", 1, "error"]]],
      // a crash between the record and its newline: the record is whole and kept
      ["unterminated", graded, [["htmlesc-quote-overflow/none/dummy/1", 1, "failed"], ["fixedbuf-extend-overflow/none/dummy/1", 1, "error"]]],
    ] as const) {
      const dir = join(results, "jobs", name);
      mkdirSync(join(dir, "logs"), { recursive: true });
      writeFileSync(join(dir, "job.json"), JSON.stringify({ name, dataset: { name: "demo", version: "demo-v1" }, trials, argv }));
      writeFileSync(join(dir, "trials.jsonl"), torn);
      const r = await ssebench(["run", "--job", name, "--results", results], { env });
      expect(r.exitCode).toBe(1);
      const file = join(dir, "trials.jsonl");
      const note = name === "torn" ? msg.trialsTornDropped(file, torn.length) : msg.trialsTornTerminated(file);
      expect(r.stderr).toContain(`${note}\n`);
      expect(hasNoStackTrace(r.stderr)).toBe(true);
      expect(readFileSync(join(dir, "job.log"), "utf8")).toContain(note);
      if (name === "torn") expect(readFileSync(join(dir, "job.log"), "utf8")).toContain(JSON.stringify(torn));
      // Every line whole: the records of this run did not land on the torn line.
      const lines = readFileSync(file, "utf8").split("\n");
      expect(lines.pop()).toBe("");
      for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
      expect(readTrials(dir).map((t) => [t.trial, t.try, t.status])).toEqual(kept as unknown as [string, number, string][]);
    }
  });
});
