/** summary.json's model fields and the reference's rule for an agent that never reached its model. */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { emptyVerdicts } from "../../../src/formats/run/result.ts";
import type { RunConfig } from "../../../src/formats/run/summary.ts";
import { msg } from "../../../src/run/messages.ts";
import { isInfraError } from "../../../src/jobs/rules.ts";
import { type ContainerResult, judgeResult, recordRun, summaryLines } from "../../../src/run/record/record.ts";
import { tempDir } from "../../helpers/cli.ts";

const dir = tempDir("ssebench-model-record-");
afterAll(dir.cleanup);

function failed(exitCode: number | null, agentTimeout = false): ContainerResult {
  return {
    produced: true,
    patch_result: { status: "failed", ...emptyVerdicts(), build_success: false, error_msg: "Build failed", error_log: null, error_type: null, checks: [], set_aside: [] },
    runtime_result: { agent_duration: 1, agent_timeout: agentTimeout, evaluator_timeout: false, agent_exit_code: exitCode },
  };
}
const events = (answeredCalls: number | undefined, budgetRefused = 0, upstream?: { lastFailed: boolean; first: string | null }) => ({ failure: undefined, interrupted: undefined, state: { oomKilled: false, exitCode: 0 }, memory: "4g", error: () => {}, answeredCalls, budgetRefused, upstream });

describe("no answered model call", () => {
  test("an agent that exits non-zero without one answered call is an error (check the key), not failed", () => {
    const r = judgeResult(failed(1), events(0));
    expect(r.patch_result.status).toBe("error");
    // Not infra: jobs do not retry it and scores without infrastructure errors count it as unresolved.
    expect(r.patch_result.error_type).toBe("no_model_call");
    expect(r.patch_result.error_msg).toStartWith(msg.noAnsweredCall(1));
  });

  test("with an answered call, exit 0, or no model at all, the grade stands", () => {
    expect(judgeResult(failed(1), events(1)).patch_result.status).toBe("failed");
    expect(judgeResult(failed(0), events(0)).patch_result.status).toBe("failed");
    expect(judgeResult(failed(1), events(undefined)).patch_result.status).toBe("failed");
  });

  test("a budget too small for the first call: the grade stands (the run warns of the budget), not 'check the key'", () => {
    expect(judgeResult(failed(1), events(0, 1)).patch_result).toMatchObject({ status: "failed", error_type: null });
  });

  test("--timeout reached before any answered call: the time limit, never 'check the model's key'", () => {
    expect(judgeResult(failed(137, true), events(0)).patch_result).toMatchObject({ status: "failed", error_type: null, error_msg: "Build failed" });
  });
});

describe("the provider's failures are the harness's", () => {
  const first = "502: getaddrinfo ENOTFOUND api.example.com";
  test("an agent whose last call failed upstream: error/upstream (an infrastructure error), whatever its exit", () => {
    for (const [answered, code] of [[0, 1], [3, 0], [0, 137]] as const) {
      const r = judgeResult(failed(code), events(answered, 0, { lastFailed: true, first }));
      expect(r.patch_result).toMatchObject({ status: "error", error_type: "upstream" });
      expect(r.patch_result.error_msg).toStartWith(msg.upstreamFailedRun(first));
    }
    expect(isInfraError({ status: "error", error_type: "upstream" })).toBe(true);
  });

  test("a pass stands; calls that failed upstream before an answered last one leave the grade to the agent", () => {
    const build = { check: "build" as const, poc: null, tree: "patched" as const, status: "passed" as const, exit_code: 0, duration_seconds: 1, log: null };
    const passed = { ...failed(0), patch_result: { ...failed(0).patch_result, status: "passed" as const, build_success: true, error_msg: null, checks: [build] } };
    expect(judgeResult(passed, events(1, 0, { lastFailed: true, first })).patch_result.status).toBe("passed");
    expect(judgeResult(failed(1), events(2, 0, { lastFailed: false, first })).patch_result).toMatchObject({ status: "failed", error_type: null });
  });
});

test("summary.json carries the gateway's spend, call count and tokens", () => {
  const tokens = { input: 10, output: 2, cache_read: 3, cache_write: 1 };
  const summary = recordRun({
    runDir: dir.path,
    task: { id: "t" },
    config: { agent: "a", model: "m" } as RunConfig,
    result: failed(0),
    plugins: [],
    diskUsage: { run_dir_bytes: 8192, archive_bytes: 4096, container_bytes: 65536 },
    runId: "r",
    startedAt: "2026-01-01T00:00:00.000Z",
    container: { image: null, case_image: null, exit_code: 0, oom_killed: false, started_at: null, finished_at: null },
    interrupted: null,
    timings: {},
    model: { spend: 0.25, calls: 3, tokens },
    provenance: { ssebench_version: "0.1.0", dataset: { name: "demo", version: "demo-v1" }, agent: { name: "a", version: "1", image: null }, job: null, task_dates: { published: null, fixed: null }, model: null },
  });
  const written = JSON.parse(readFileSync(join(dir.path, "summary.json"), "utf8"));
  expect(written).toEqual(summary);
  expect([written.spend, written.model_calls, written.tokens]).toEqual([0.25, 3, tokens]);
  expect(written.tool_calls).toBe(0); // no tool-calls.jsonl
});

test("summary.json counts the lines of tool-calls.jsonl; a symlink there is never followed", () => {
  const run = (d: string) =>
    recordRun({
      runDir: d,
      task: { id: "t" },
      config: { agent: "a", model: "none" } as RunConfig,
      result: failed(0),
      plugins: [],
      diskUsage: { run_dir_bytes: null, archive_bytes: null, container_bytes: null },
      runId: "r",
      startedAt: "2026-01-01T00:00:00.000Z",
      container: { image: null, case_image: null, exit_code: 0, oom_killed: false, started_at: null, finished_at: null },
      interrupted: null,
      timings: {},
      provenance: { ssebench_version: "0.1.0", dataset: { name: "demo", version: "demo-v1" }, agent: { name: "a", version: "1", image: null }, job: null, task_dates: { published: null, fixed: null }, model: null },
    });
  const a = join(dir.path, "calls");
  mkdirSync(a);
  writeFileSync(join(a, "tool-calls.jsonl"), '{"call":"test_patch"}\n{"call":"GET /sse/v1/diff"}\n{"call":"test_patch"}\n');
  expect(run(a).tool_calls).toBe(3);
  const b = join(dir.path, "linked");
  mkdirSync(b);
  symlinkSync(join(a, "tool-calls.jsonl"), join(b, "tool-calls.jsonl"));
  expect(run(b).tool_calls).toBe(0);
});

test("a grading time-out says grading (result.json keeps the reference's Timeout (Ns))", () => {
  const summary = {
    task: { id: "t" },
    config: { agent: "a", model: "none", timeout: 60, grading_timeout: 600 },
    patch_result: { status: "error", ...emptyVerdicts(), error_msg: "Timeout (600s)", error_log: null, error_type: "grading_timeout", checks: [], set_aside: [] },
    runtime_result: { agent_duration: 1, agent_timeout: false, evaluator_timeout: true, agent_exit_code: 0 },
    interrupted: null,
  } as unknown as Parameters<typeof summaryLines>[0];
  expect(summaryLines(summary, "/r")).toEqual([`Result: a agent on t: ${msg.gradingTimedOut(600)}, no check ran`, `Grade: error (${msg.gradingTimedOut(600)})`, "Run directory: /r"]);
  expect(msg.gradingTimedOut(600)).toBe("grading timed out after 600s (--grading-timeout)");
});

test("a run with a model ends with its cost and tokens; one without a model prints three lines", () => {
  const summary = {
    task: { id: "t" },
    config: { agent: "claude-code", model: "claude-sonnet-4-6", timeout: 60, grading_timeout: 600 },
    patch_result: { status: "passed", ...emptyVerdicts(), build_success: true, error_msg: null, error_log: null, error_type: null, checks: [], set_aside: [] },
    runtime_result: { agent_duration: 1, agent_timeout: false, evaluator_timeout: false, agent_exit_code: 0 },
    spend: 0.04215,
    model_calls: 3,
    tokens: { input: 5200, output: 610, cache_read: 1200, cache_write: 0 },
    interrupted: null,
  } as unknown as Parameters<typeof summaryLines>[0];
  expect(summaryLines(summary, "/r")).toEqual([
    "Result: claude-code agent (claude-sonnet-4-6) on t: build passed",
    "Grade: passed",
    "Run directory: /r",
    "Cost: $0.0421 for 3 model calls; tokens: 5,200 in, 610 out, 1,200 cache read, 0 cache write",
  ]);
  const none = { ...summary, config: { ...summary.config, agent: "reference", model: "none" } } as typeof summary;
  expect(summaryLines(none, "/r")).toHaveLength(3);
});
