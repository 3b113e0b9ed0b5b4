/** summary.json's model fields and the reference's rule for an agent that never reached its model. */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { emptyVerdicts } from "../../../src/formats/run/result.ts";
import type { RunConfig } from "../../../src/formats/run/summary.ts";
import { msg } from "../../../src/run/messages.ts";
import { type ContainerResult, judgeResult, recordRun } from "../../../src/run/record/record.ts";
import { tempDir } from "../../helpers/cli.ts";

const dir = tempDir("ssebench-model-record-");
afterAll(dir.cleanup);

function failed(exitCode: number | null): ContainerResult {
  return {
    produced: true,
    patch_result: { status: "failed", ...emptyVerdicts(), build_success: false, error_msg: "Build failed", error_log: null, error_type: null, checks: [], set_aside: [] },
    runtime_result: { agent_duration: 1, agent_timeout: false, evaluator_timeout: false, agent_exit_code: exitCode },
  };
}
const events = (answeredCalls: number | undefined, budgetRefused = 0) => ({ failure: undefined, interrupted: undefined, state: { oomKilled: false, exitCode: 0 }, memory: "4g", error: () => {}, answeredCalls, budgetRefused });

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
});

test("summary.json carries the gateway's spend, call count and tokens", () => {
  const tokens = { input: 10, output: 2, cache_read: 3, cache_write: 1 };
  const summary = recordRun({
    runDir: dir.path,
    task: { id: "t" },
    config: { agent: "a", model: "m" } as RunConfig,
    result: failed(0),
    plugins: [],
    diskUsage: { run_dir_bytes: 8192, archive_bytes: 4096 },
    runId: "r",
    startedAt: "2026-01-01T00:00:00.000Z",
    container: { image: null, case_image: null, exit_code: 0, oom_killed: false, started_at: null, finished_at: null },
    interrupted: null,
    timings: {},
    model: { spend: 0.25, calls: 3, tokens },
    provenance: { ssebench_version: "0.1.0", dataset: { name: "demo", version: "demo-v1" }, agent: { name: "a", version: "1", image: null }, job: null },
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
      diskUsage: { run_dir_bytes: null, archive_bytes: null },
      runId: "r",
      startedAt: "2026-01-01T00:00:00.000Z",
      container: { image: null, case_image: null, exit_code: 0, oom_killed: false, started_at: null, finished_at: null },
      interrupted: null,
      timings: {},
      provenance: { ssebench_version: "0.1.0", dataset: { name: "demo", version: "demo-v1" }, agent: { name: "a", version: "1", image: null }, job: null },
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
