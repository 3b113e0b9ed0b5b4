/** The planner, the flag rules, resume/retry rules, the lock and --tasks, as exact values. */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Argv } from "../../src/argv.ts";
import { checkSingleValued, isJob, matrixFlags } from "../../src/jobs/flags.ts";
import { msg } from "../../src/jobs/messages.ts";
import { defaultJobs, memoryBytes, planTrials } from "../../src/jobs/plan.ts";
import { backoffSeconds, isInfraError, latestByTrial, pendingTrials } from "../../src/jobs/rules.ts";
import { lockJob } from "../../src/jobs/lock.ts";
import type { TrialRecord } from "../../src/jobs/store.ts";
import { selectTasks } from "../../src/jobs/task-list.ts";
import { tempDir } from "../helpers/cli.ts";

const scratch = tempDir("ssebench-jobs-units-");
afterAll(scratch.cleanup);
const STRING = new Set(["task", "tasks", "agent", "model", "timeout", "jobs", "job", "attempts"]);

describe("planTrials", () => {
  test("attempt by attempt, task by task; an agent without model calls gets model none once", () => {
    const trials = planTrials(["a", "b"], [{ name: "dummy", usesModel: false }, { name: "coder", usesModel: true }], ["m1", "m2"], 2);
    expect(trials.map((t) => t.trial)).toEqual([
      "a/none/dummy/1", "a/m1/coder/1", "a/m2/coder/1", "b/none/dummy/1", "b/m1/coder/1", "b/m2/coder/1",
      "a/none/dummy/2", "a/m1/coder/2", "a/m2/coder/2", "b/none/dummy/2", "b/m1/coder/2", "b/m2/coder/2",
    ]);
  });
  test("--jobs default: by CPUs (2 per run) and memory, at least 1", () => {
    expect(defaultJobs(2, memoryBytes("4g"), 8, 64 * 1024 ** 3)).toBe(4);
    expect(defaultJobs(2, memoryBytes("4g"), 8, 10 * 1024 ** 3)).toBe(2);
    expect(defaultJobs(2, memoryBytes("4g"), 1, 1024 ** 3)).toBe(1);
    expect(memoryBytes("512m")).toBe(512 * 1024 ** 2);
  });
});

describe("flags", () => {
  test("repeated and comma lists make a job; a repeated single-value flag is a usage error", () => {
    const raw = ["--task", "a,b", "--agent", "dummy", "--agent=reference", "--timeout", "--task"];
    const argv = Argv.read(raw, STRING);
    expect(Object.fromEntries(argv.names().map((n) => [n, argv.count(n)]))).toEqual({ task: 1, agent: 2, timeout: 1 });
    expect(matrixFlags(argv)).toEqual({ tasks: ["a", "b"], agents: ["dummy", "reference"], models: [] });
    expect(isJob(argv, matrixFlags(argv))).toBe(true);
    const single = Argv.read(["--task", "a", "--agent", "dummy"], STRING);
    expect(isJob(single, matrixFlags(single))).toBe(false);
    expect(isJob(single.reread([...single.words(), "--attempts", "2"]), matrixFlags(single))).toBe(true);
    expect(() => checkSingleValued(Argv.read(["--timeout", "5", "--timeout=6"], STRING))).toThrow(msg.flagTwice("--timeout"));
    expect(() => checkSingleValued(Argv.read(["--task", "a", "--task", "b"], STRING))).not.toThrow();
  });
});

const record = (trial: string, status: TrialRecord["status"], errorType: string | null = null): TrialRecord => ({
  trial, task: trial.split("/")[0] as string, agent: "dummy", model: "none", attempt: 1, try: 1, status, error_type: errorType, error_msg: null,
  run_id: null, run_dir: null, dataset: { name: "d", version: "v" }, started_at: "", finished_at: "", duration_ms: 0, images: { agent: null, case: null }, spend: 0,
});

describe("resume and retry rules", () => {
  test("graded and agent time-outs are final; infra, grader and interrupted errors are run again", () => {
    const trials = planTrials(["a", "b", "c", "d", "e", "f"], [{ name: "dummy", usesModel: false }], [], 1);
    const records = [
      record("a/none/dummy/1", "passed"),
      record("b/none/dummy/1", "failed"),
      record("c/none/dummy/1", "error", "agent_timeout"),
      record("d/none/dummy/1", "error", "infra"),
      record("e/none/dummy/1", "error", "interrupted"),
      record("e/none/dummy/1", "passed"),
    ];
    const { todo, tries } = pendingTrials(trials, records);
    expect(todo.map((t) => t.task)).toEqual(["d", "f"]);
    expect(tries.get("e/none/dummy/1")).toBe(2);
    expect(latestByTrial([...records, record("a/none/dummy/1", "error", "infra")]).get("a/none/dummy/1")?.status).toBe("passed");
    expect([1, 2, 3, 4, 5, 6].map(backoffSeconds)).toEqual([5, 10, 20, 40, 60, 60]);
  });

  test("an agent that exited without one answered model call is not retried: it could do so on purpose", () => {
    const trials = planTrials(["a"], [{ name: "dummy", usesModel: false }], [], 1);
    expect(isInfraError({ status: "error", error_type: "no_model_call" })).toBe(false);
    expect(pendingTrials(trials, [record("a/none/dummy/1", "error", "no_model_call")]).todo).toEqual([]);
  });
});

describe("lockJob", () => {
  test("a second taker refuses with one line naming the owner; the release frees it and removes the file", async () => {
    const dir = join(scratch.path, "job-a");
    const release = await lockJob(dir, "a");
    expect(await Bun.file(join(dir, "lock")).text()).toBe(`${process.pid}\n`);
    // flock belongs to the open file: a second open of it, even in this process, is a rival.
    await expect(lockJob(dir, "a", 1)).rejects.toThrow(msg.jobLocked("a", process.pid, join(dir, "lock")));
    release();
    release();
    expect(existsSync(join(dir, "lock"))).toBe(false);
    const again = await lockJob(dir, "a", 1);
    expect(await Bun.file(join(dir, "lock")).text()).toBe("1\n");
    again();
  });

  test("a lock file left by a killed owner holds no lock: it is taken at once", async () => {
    const dir = join(scratch.path, "job-b");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "lock"), "999999\n");
    const release = await lockJob(dir, "b");
    expect(await Bun.file(join(dir, "lock")).text()).toBe(`${process.pid}\n`);
    release();
  });
});

describe("--tasks", () => {
  const source = { ids: ["htmlesc-quote-overflow", "fixedbuf-extend-overflow", "staticfs-encoded-traversal"], where: "/d" };
  test("all, a glob, @FILE with comments; errors name the file and line", () => {
    expect(selectTasks("all", source)).toEqual(source.ids);
    expect(selectTasks("*-overflow", source)).toEqual(["htmlesc-quote-overflow", "fixedbuf-extend-overflow"]);
    expect(() => selectTasks("nothing*", source)).toThrow(msg.noTasksMatch("nothing*", "/d"));
    const file = join(scratch.path, "tasks.txt");
    writeFileSync(file, "# the C task\nhtmlesc-quote-overflow\n\nstaticfs-encoded-traversal  # go\n");
    expect(selectTasks(`@${file}`, source)).toEqual(["htmlesc-quote-overflow", "staticfs-encoded-traversal"]);
    writeFileSync(file, "htmlesc-quote-overflow\nno-such-task\n");
    expect(() => selectTasks(`@${file}`, source)).toThrow(msg.unknownTaskAt(file, 2, "no-such-task", "/d"));
    writeFileSync(file, "bad/id\n");
    expect(() => selectTasks(`@${file}`, source)).toThrow(msg.tasksFileLine(file, 1, "bad/id"));
  });
});
