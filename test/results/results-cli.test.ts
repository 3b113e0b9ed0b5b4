/**
 * `ssebench results` through the compiled binary on synthetic run folders: the tables as exact
 * text, --csv, --json, --compare, datasets kept apart, and hostile run folders (a symlinked
 * summary.json, a symlinked run folder, archive/ copies, an oversized file) never counted.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type SyntheticRun, writeJob, writeRun } from "../../scripts/bench/synthetic-results.ts";
import { msg } from "../../src/results/messages.ts";
import { ssebench, ssebenchBin, tempDir } from "../helpers/cli.ts";

const scratch = tempDir("ssebench-results-");
afterAll(scratch.cleanup);
const root = scratch.path;
const tok = (input: number) => ({ input, output: 10, cache_read: 0, cache_write: 0 });
const runsA: SyntheticRun[] = [
  { task: "task-a", agent: "reference", model: "none", attempt: 1, status: "passed", seconds: 4 },
  { task: "task-b", agent: "reference", model: "none", attempt: 1, status: "passed", seconds: 6 },
  { task: "task-a", agent: "coder", model: "m1", attempt: 1, status: "passed", spend: 0.5, tokens: tok(90), seconds: 10 },
  // Plausible but wrong: the PoC no longer triggers, the hidden tests fail.
  { task: "task-b", agent: "coder", model: "m1", attempt: 1, status: "failed", spend: 0.25, tokens: tok(40), seconds: 20, verdicts: { build_success: true, pov_passed: 1, pov_total: 1, func_test_success: true, intent_test_success: false } },
  { task: "task-a", agent: "reference", model: "none", attempt: 2, status: "passed", seconds: 4 },
  { task: "task-b", agent: "reference", model: "none", attempt: 2, status: "error", error_type: "infra", seconds: 2 },
  { task: "task-a", agent: "coder", model: "m1", attempt: 2, status: "failed", spend: 0.25, tokens: tok(40), seconds: 10, verdicts: { build_success: true, pov_passed: 0, pov_total: 1, func_test_success: true, intent_test_success: true } },
  { task: "task-b", agent: "coder", model: "m1", attempt: 2, status: "error", error_type: "agent_timeout", spend: 1, tokens: tok(190), seconds: 60 },
];
writeJob(root, "a", runsA);
writeJob(root, "b", runsA.map((r) => (r.task === "task-a" && r.agent === "coder" ? { ...r, status: "failed" } : r.task === "task-b" && r.agent === "coder" ? { ...r, status: "passed", error_type: null } : r)));

async function results(args: string[]) {
  return ssebench(["results", ...args, "--results", root]);
}

describe("ssebench results", () => {
  test("per agent × model and per task, exact text", async () => {
    const r = await results(["a"]);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    // coder/m1: tasks resolved in 1/2 and 0/2 of their trials, so 0.25 with the Wilson interval of
    // 0.5 over 2 tasks; reference/none: 2/2 and 1/2 (the infra error unresolved), 1.5 over 2, and
    // without infrastructure errors 2/2 and 1/1, 2 over 2. Funnel of coder/m1: the passed trial (4
    // stages), the plausible-but-wrong one (3), the one whose PoC still triggers (1), the timeout (0).
    expect(r.stdout).toBe(
      [
        "AGENT/MODEL     TRIALS  TASKS  RESOLVED  RATE   95% CI      RATE W/O INFRA  95% CI W/O INFRA  PASS@1  PASS@2  COST     COST/TRIAL  COST/RESOLVED  TOKENS  MEAN S  ERRORS",
        "coder/m1        4       2      1         25.0%  2.7-80.2%   25.0% of 4      2.7-80.2%         0.250   0.500   $2.00    $0.5000     $2.00          400     25.0    agent_timeout 1",
        "reference/none  4       2      3         75.0%  19.8-97.3%  100.0% of 3     34.2-100.0%       1.000   -       $0.0000  $0.0000     $0.0000        0       4.0     infra 1",
        "95% CI: Wilson score interval over tasks, each task's mean over its trials",
        "",
        "Funnel: the trials passing each check of grading in order",
        "AGENT/MODEL     TRIALS  BUILD      + POC      + FUNCTION TEST  + INTENT TEST  POC FIXED, TESTS FAILED",
        "coder/m1        4       3 (75.0%)  2 (50.0%)  2 (50.0%)        1 (25.0%)      1",
        "reference/none  4       3 (75.0%)  3 (75.0%)  3 (75.0%)        3 (75.0%)      0",
        "",
        "TASK (passed/graded)  coder/m1  reference/none",
        "task-a                1/2       2/2",
        "task-b                0/2       1/1 +1 err",
        "",
      ].join("\n"),
    );
  });

  test("--csv and --json carry the same numbers", async () => {
    const csv = (await results(["a", "--csv"])).stdout.split("\n");
    expect(csv[0]).toBe(
      "agent,model,trials,tasks,resolved,rate,ci_low,ci_high,graded,rate_without_infra,ci_low_without_infra,ci_high_without_infra,pass_at_1,pass_at_2,cost_total,cost_mean,cost_per_resolved,tokens,seconds_mean,errors,funnel_build,funnel_poc,funnel_function_test,funnel_intent_test",
    );
    expect(csv[1]?.startsWith("coder,m1,4,2,1,0.25,0.0266773420089")).toBe(true);
    expect(csv[1]?.endsWith(",2,400,25,agent_timeout:1,3,2,2,1")).toBe(true);
    const json = JSON.parse((await results(["a", "--json"])).stdout);
    expect(json.interval_method).toBe("Wilson score interval over tasks, each task's mean over its trials");
    expect(json.groups[0]).toMatchObject({ agent: "coder", tasks: 2, cost_per_resolved: 2, funnel: { build: 3, poc: 2, function_test: 2, intent_test: 1 } });
    expect(json.groups[0].interval[0]).toBeCloseTo(0.026677342, 8);
    expect(json.groups[0].interval[1]).toBeCloseTo(0.802132544, 8);
    expect(json.groups[1]).toMatchObject({ agent: "reference", model: "none", trials: 4, resolved: 3, rate: 0.75, graded: 3, rate_without_infra: 1, pass_at_k: { "1": 1 }, errors: { infra: 1 }, cost_per_resolved: 0 });
    expect(json.groups[1].interval[0]).toBeCloseTo(0.197867456, 8);
    expect(json.groups[1].interval_without_infra).toEqual([expect.closeTo(0.342380228, 8), 1]);
    expect(json.tasks["task-b"]["reference/none"]).toEqual({ passed: 1, graded: 1, errors: 1 });
  });

  test("--compare lists the flips", async () => {
    const r = await results(["--compare", "a", "b"]);
    expect(r.stdout).toBe(["TASK    AGENT/MODEL  a    b    CHANGE", "task-b  coder/m1     0/2  2/2  fixed", ""].join("\n"));
    expect((await results(["--compare", "a"])).stderr).toContain(msg.compareArgs());
  });

  test("a folder scan skips links, archive/ and oversized files; two datasets' tasks never mix", async () => {
    const dir = join(root, "scan");
    const real = writeRun(dir, { task: "t", agent: "dummy", model: "none", attempt: 1, status: "failed", dataset: { name: "one", version: "1" } }, "r1");
    writeRun(dir, { task: "t", agent: "dummy", model: "none", attempt: 1, status: "passed", dataset: { name: "two", version: "1" } }, "r2");
    // Forged results an agent could leave: in archive/, behind a symlinked file or folder.
    writeRun(join(dir, real, "archive"), { task: "t", agent: "dummy", model: "none", attempt: 1, status: "passed" }, "forged");
    mkdirSync(join(dir, "t", "none", "dummy", "r3"));
    symlinkSync(join(dir, real, "summary.json"), join(dir, "t", "none", "dummy", "r3", "summary.json"));
    symlinkSync(join(dir, real), join(dir, "t", "none", "dummy", "latest"));
    mkdirSync(join(dir, "t", "none", "dummy", "big"));
    writeFileSync(join(dir, "t", "none", "dummy", "big", "summary.json"), Buffer.alloc(16 * 1024 * 1024 + 1, 32));
    const r = await ssebench(["results", dir]);
    expect(r.stdout.split("\n").slice(-4)).toEqual(["TASK (passed/graded)  dummy/none", "one@1/t               0/1", "two@1/t               1/1", ""]);
    expect(r.stdout.split("\n")[1]).toStartWith("dummy/none   2       2      1  ");
    // The symlinked summary.json is not a run folder's (lstat type): skipped without a word.
    expect(r.stderr.split("\n").filter(Boolean)).toEqual([`Ignoring ${join(dir, "t", "none", "dummy", "big", "summary.json")}: is larger than 16777216 bytes`]);
  });

  test("a job's run folder named through a linked folder is not read: the trial counts as its record says", async () => {
    // The record says failed; the linked folder leads to a forged summary that says passed.
    const runs: SyntheticRun[] = [{ task: "linked-task", agent: "coder", model: "m1", attempt: 1, status: "failed" }];
    writeJob(root, "linked", runs);
    const outside = join(root, "..", `${root.split("/").pop()}-outside`);
    writeRun(outside, { ...runs[0] as SyntheticRun, status: "passed", spend: 5 }, "linked-0");
    rmSync(join(root, "linked-task"), { recursive: true });
    symlinkSync(join(outside, "linked-task"), join(root, "linked-task"));
    try {
      const r = await results(["linked", "--json"]);
      expect(JSON.parse(r.stdout).groups[0]).toMatchObject({ trials: 1, resolved: 0, cost_total: 0 });
      const file = join(root, "linked-task", "m1", "coder", "linked-0", "summary.json");
      expect(r.stderr).toBe(`${msg.unreadable(file, `resolves to ${join(outside, "linked-task", "m1", "coder", "linked-0", "summary.json")}, outside ${dirname(file)}`)}\n`);
      const report = await ssebench(["report", "linked", "--results", root]);
      expect(report.stdout).toContain("No run folder (the trial failed before it had one).");
      expect(report.stdout).not.toContain("$5.00");
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  test("a results folder that is itself a link is read as its target", async () => {
    const link = `${root}-link`;
    symlinkSync(root, link);
    try {
      const direct = await results(["a"]);
      const linked = await ssebench(["results", "a", "--results", link]);
      expect(linked.stdout).toBe(direct.stdout);
    } finally {
      rmSync(link);
    }
  });

  test("the oracle's verdicts beside the grades: how often they agree, per agent × model and per task", async () => {
    const dir = join(root, "oracle");
    const run = (task: string, status: SyntheticRun["status"], verdict?: string): SyntheticRun => ({ task, agent: "coder", model: "m1", attempt: 1, status, verdict });
    writeRun(dir, run("t1", "passed", "equivalent"), "r1");
    writeRun(dir, run("t1", "passed", "wrong"), "r2");
    writeRun(dir, run("t2", "failed", "wrong"), "r3");
    writeRun(dir, run("t2", "failed", "unsure"), "r4");
    writeRun(dir, run("t2", "failed"), "r5");
    // A review the agent could have left in its archive is never read.
    const forged = writeRun(dir, run("t3", "failed"), "r6");
    writeFileSync(join(dir, forged, "archive", "oracle-review.json"), JSON.stringify({ status: "ok", verdict: "wrong" }));
    const r = await ssebench(["results", dir]);
    expect(r.stderr).toBe("");
    const lines = r.stdout.split("\n");
    expect(lines[0]).toEndWith("  ORACLE AGREES");
    expect(lines[1]).toEndWith("  2/3 of 4");
    expect(lines.slice(-5)).toEqual(["TASK (passed/graded)  coder/m1", "t1                    2/2 oracle 1/2", "t2                    0/3 oracle 1/1", "t3                    0/1", ""]);
    const json = JSON.parse((await ssebench(["results", dir, "--json"])).stdout);
    expect(json.groups[0].oracle).toEqual({ reviewed: 4, verdicts: { equivalent: 1, wrong: 2, unsure: 1 }, compared: 3, agrees: 2 });
    const csv = (await ssebench(["results", dir, "--csv"])).stdout.split("\n");
    expect(csv[0]).toEndWith(",errors,funnel_build,funnel_poc,funnel_function_test,funnel_intent_test,oracle_reviewed,oracle_compared,oracle_agrees");
    expect(csv[1]).toEndWith(",4,3,2");
  });

  test("--split-by date --cutoff: tasks published before a day beside those published on or after it", async () => {
    const dir = join(root, "dated");
    let n = 0;
    const plausible = { build_success: true, pov_passed: 1, pov_total: 1, func_test_success: true, intent_test_success: false };
    const days: [string, string | undefined][] = [["old-1", "2024-03-01"], ["old-2", "2024-12-31"], ["new-1", "2025-01-01"], ["new-2", "2025-06-01"], ["no-day", undefined]];
    for (const [task, published] of days) {
      // Agent a resolves each old task once in two trials, no new one; agent b only new-1.
      writeRun(dir, { task, agent: "a", model: "m", attempt: 1, status: task.startsWith("old") ? "passed" : "failed", published }, `r${n++}`);
      writeRun(dir, { task, agent: "a", model: "m", attempt: 2, status: "failed", published, verdicts: plausible }, `r${n++}`);
      writeRun(dir, { task, agent: "b", model: "m", attempt: 1, status: task === "new-1" ? "passed" : "failed", published }, `r${n++}`);
    }
    const r = await ssebench(["results", dir, "--split-by", "date", "--cutoff", "2025-01-01"]);
    expect(r.stderr).toBe("");
    // a: 0.5 over 2 tasks before (Wilson 9.5-90.5 %), 0 over 2 after (0-65.8 %): -50 points, Newcombe
    // -50 - sqrt(0^2 + 40.55^2) to -50 + sqrt(65.76^2 + 40.55^2) = -90.5 to +27.3; b the mirror.
    expect(r.stdout.split("\n").slice(0, 7)).toEqual([
      "Tasks by the day they were published: 2 before 2025-01-01, 2 on or after it; 1 without a day, left out: no-day",
      "",
      "AGENT/MODEL  TASKS BEFORE  RATE   95% CI     TASKS AFTER  RATE   95% CI     AFTER - BEFORE  95% CI",
      "a/m          2             50.0%  9.5-90.5%  2            0.0%   0.0-65.8%  -50.0 pts       -90.5 to +27.3 pts",
      "b/m          2             0.0%   0.0-65.8%  2            50.0%  9.5-90.5%  +50.0 pts       -27.3 to +90.5 pts",
      "95% CI of a rate: Wilson score interval over tasks, each task's mean over its trials; of a difference: Newcombe's hybrid score interval from both sides' intervals",
      "",
    ]);
    expect(r.stdout).toContain("Published before 2025-01-01:\nAGENT/MODEL  TRIALS  TASKS  RESOLVED  RATE   95% CI");
    expect(r.stdout).toContain("Published on or after 2025-01-01:\n");
    const json = JSON.parse((await ssebench(["results", dir, "--split-by", "date", "--cutoff", "2025-01-01", "--json"])).stdout);
    expect(Object.keys(json)).toEqual(["by", "cutoff", "before", "after", "differences", "difference_method", "undated"]);
    expect(Object.keys(json.before.tasks)).toEqual(["old-1", "old-2"]);
    expect(Object.keys(json.after.tasks)).toEqual(["new-1", "new-2"]);
    expect(json.undated).toEqual(["no-day"]);
    expect(json.before.groups[0]).toMatchObject({ agent: "a", rate: 0.5, funnel: { build: 4, poc: 4, function_test: 4, intent_test: 2 } });
    expect(json.differences[0]).toMatchObject({ agent: "a", model: "m", before: 0.5, after: 0, difference: -0.5 });
    expect(json.differences[0].interval[0]).toBeCloseTo(-0.905468794, 8);
    expect(json.differences[0].interval[1]).toBeCloseTo(0.272572785, 8);
  });

  test("--split-by's flags: one line each, exit 2; runs without days are said", async () => {
    const bad = async (args: string[], line: string) => {
      const r = await results(["a", ...args]);
      expect([r.exitCode, r.stderr.trim()]).toEqual([2, line]);
    };
    await bad(["--split-by", "dates", "--cutoff", "2025-01-01"], msg.splitBy("dates"));
    await bad(["--split-by", "date"], msg.cutoffMissing());
    await bad(["--split-by", "date", "--cutoff", "2025-02-30"], msg.cutoffBad("2025-02-30"));
    await bad(["--cutoff", "2025-01-01"], msg.cutoffAlone());
    await bad(["--split-by", "date", "--cutoff", "2025-01-01", "--csv"], msg.splitWith("--csv"));
    const r = await results(["a", "--split-by", "date", "--cutoff", "2025-01-01"]);
    expect([r.exitCode, r.stderr.trim()]).toEqual([0, msg.noDays()]);
    expect(r.stdout.split("\n")[0]).toBe("Tasks by the day they were published: 0 before 2025-01-01, 0 on or after it; 2 without a day, left out: task-a, task-b");
  });

  test("nothing there: one line, exit 1", async () => {
    const r = await ssebench(["results", "no-such-job", "--results", root]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr.trim()).toBe(msg.notFound("no-such-job"));
  });
});

describe("a reader that stops early", () => {
  // 2,000 tasks of long names: the tables and the JSON both overflow a pipe's 64 kB buffer.
  const scratchBig = tempDir("ssebench-results-big-");
  const big = scratchBig.path;
  const task = (i: number) => `a-task-with-a-name-long-enough-${i}`;
  beforeAll(() => {
    writeJob(big, "big", Array.from({ length: 2000 }, (_, i) => ({ task: task(i), agent: "dummy", model: "none", attempt: 1, status: "passed" as const, seconds: 1 })));
  }, 60_000);
  // Thousands of run folders: removing them takes longer than a hook's default 5 s on a busy machine.
  afterAll(scratchBig.cleanup, 60_000);

  for (const flags of [[], ["--json"]]) {
    test(`results ${flags.join(" ") || "(tables)"}: ends quietly with exit 0 when the reader closes the pipe`, async () => {
      const command = `'${ssebenchBin}' results big ${flags.join(" ")} --results '${big}'; echo "exit $?" >&2`;
      const full = await ssebench(["results", "big", ...flags, "--results", big]);
      expect(full.stdout.length).toBeGreaterThan(65536);
      const proc = Bun.spawn(["sh", "-c", `(${command}) | head -c 1`], { stdout: "pipe", stderr: "pipe" });
      const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      expect(stdout).toHaveLength(1);
      expect(stderr).toBe("exit 0\n");
    });
  }
});

describe("ssebench results: model provenance", () => {
  test("trials answered by another model than upstream_model: a note under the table, model_mismatch in --json", async () => {
    const dir = join(root, "provenance");
    const asked = (answered: string[], mismatch: boolean) => ({ name: "local-qwen", upstream_model: "Qwen/Qwen3-Coder", answered, mismatch });
    const run = (task: string, answered: string[], mismatch: boolean): SyntheticRun => ({ task, agent: "opencode", model: "local-qwen", attempt: 1, status: "failed", modelProvenance: asked(answered, mismatch) });
    writeRun(dir, run("t1", ["Qwen/Qwen3-Coder"], false), "r1");
    writeRun(dir, run("t2", ["Qwen/Qwen2.5-7B"], true), "r2");
    writeRun(dir, run("t3", ["Qwen/Qwen2.5-7B", "\u001b[31mred"], true), "r3");
    const r = await ssebench(["results", dir]);
    expect(r.stderr).toBe("");
    const lines = r.stdout.split("\n");
    const note = msg.modelMismatch("opencode/local-qwen", 2, 3, ["Qwen/Qwen3-Coder"], ["\uFFFD[31mred", "Qwen/Qwen2.5-7B"]);
    expect(lines.slice(2, 5)).toEqual(["95% CI: Wilson score interval over tasks, each task's mean over its trials", note, ""]);
    const json = JSON.parse((await ssebench(["results", dir, "--json"])).stdout);
    expect(json.groups[0].model_mismatch).toEqual({ trials: 2, upstream_models: ["Qwen/Qwen3-Coder"], answered: ["\u001b[31mred", "Qwen/Qwen2.5-7B"] });
    // Runs that agree (and runs recorded before provenance) add no note.
    const clean = join(root, "provenance-clean");
    writeRun(clean, run("t1", ["Qwen/Qwen3-Coder"], false), "r1");
    writeRun(clean, { task: "t2", agent: "opencode", model: "local-qwen", attempt: 1, status: "failed" }, "r2");
    const c = await ssebench(["results", clean, "--json"]);
    expect(JSON.parse(c.stdout).groups[0].model_mismatch).toEqual({ trials: 0, upstream_models: [], answered: [] });
    expect((await ssebench(["results", clean])).stdout).not.toContain("Note:");
  });
});
