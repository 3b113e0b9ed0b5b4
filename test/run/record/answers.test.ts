/**
 * Run answers that say what to do (issue 16 item 3): the Result line of timed-out, interrupted and
 * failed runs, close names for a misspelt agent or task, each an exact string.
 */
import { describe, expect, test } from "bun:test";
import { messages as catalogMsg } from "../../../src/catalog/messages.ts";
import type { Summary } from "../../../src/formats/run/summary.ts";
import { closeNames, didYouMean } from "../../../src/output/close-names.ts";
import { msg } from "../../../src/run/messages.ts";
import { summaryLines } from "../../../src/run/record/record.ts";
import { passedResult } from "../fake-docker.ts";

function summary(patch: Partial<Summary["patch_result"]>, extra: { agent_timeout?: boolean; interrupted?: string | null } = {}): Summary {
  return {
    task: { id: "tiny-task" },
    config: { agent: "dummy", model: "none", timeout: 60 },
    patch_result: { ...passedResult.patch_result, set_aside: [], ...patch },
    runtime_result: { ...passedResult.runtime_result, agent_timeout: extra.agent_timeout ?? false },
    interrupted: extra.interrupted ?? null,
  } as unknown as Summary;
}

describe("the Result line", () => {
  test("a passed run is unchanged", () => {
    expect(summaryLines(summary({}), "/r")[0]).toBe("Result: dummy agent on tiny-task: build passed, 1/1 PoCs no longer trigger, tests passed");
  });

  test("a failed PoC check is worded as the PoC still triggering", () => {
    expect(summaryLines(summary({ status: "failed", pov_passed: 0 }), "/r")[0]).toBe(
      "Result: dummy agent on tiny-task: build passed, the PoC still triggers, tests passed",
    );
    expect(summaryLines(summary({ status: "failed", pov_passed: 1, pov_total: 3 }), "/r")[0]).toBe(
      "Result: dummy agent on tiny-task: build passed, 2/3 PoCs still trigger, tests passed",
    );
  });

  test("a timed-out agent says so", () => {
    expect(summaryLines(summary({ status: "failed", pov_passed: 0 }, { agent_timeout: true }), "/r")[0]).toBe(
      "Result: dummy agent on tiny-task: the agent timed out after 60s (--timeout), build passed, the PoC still triggers, tests passed",
    );
  });

  test("an interrupted run names the signal, and the checks that ran (not 'no check ran')", () => {
    const verdictless = { status: "error" as const, build_success: null, pov_passed: null, pov_total: null, func_test_success: null, intent_test_success: null };
    const checks = passedResult.patch_result.checks.slice(0, 2).map((c, i) => ({ ...c, status: i === 0 ? "passed" : "interrupted" }));
    expect(summaryLines(summary({ ...verdictless, checks } as never, { interrupted: "SIGINT" }), "/r")[0]).toBe(
      "Result: dummy agent on tiny-task: interrupted by SIGINT (Ctrl-C), build passed, poc interrupted",
    );
    expect(summaryLines(summary({ ...verdictless, checks: [] }, { interrupted: "SIGTERM" }), "/r")[0]).toBe(
      "Result: dummy agent on tiny-task: interrupted by SIGTERM, no check ran",
    );
    expect(summaryLines(summary({ ...verdictless, checks: [] }, { interrupted: "run time limit" }), "/r")[0]).toBe(
      "Result: dummy agent on tiny-task: stopped at the run time limit (--run-timeout), no check ran",
    );
  });
});

describe("close names", () => {
  test("a misspelt name finds its neighbours; an unrelated one none", () => {
    expect(closeNames("refrence", ["dummy", "reference"])).toEqual(["reference"]);
    expect(closeNames("dumy", ["dummy", "reference"])).toEqual(["dummy"]);
    expect(closeNames("htmlesc", ["htmlesc-quote-overflow", "fixedbuf-extend-overflow"])).toEqual(["htmlesc-quote-overflow"]);
    expect(closeNames("zzz", ["dummy", "reference"])).toEqual([]);
    expect(didYouMean("tiny-tsak", ["tiny-task", "tiny-tusk", "other"])).toBe("'tiny-task' or 'tiny-tusk'");
  });

  test("an unknown agent says so first and suggests close names", () => {
    expect(msg.unknownAgent("refrence", ["dummy", "reference"])).toBe("Unknown agent 'refrence'. Did you mean 'reference'? Available agents: dummy, reference");
    expect(msg.unknownAgent("nosuch", ["dummy", "reference"])).toBe("Unknown agent 'nosuch'. Available agents: dummy, reference");
  });

  test("an unknown task suggests close ids and how to list the tasks", () => {
    expect(catalogMsg.taskNotInCatalog("htmlesc", "the built-in demo dataset", ["htmlesc-quote-overflow", "fixedbuf-extend-overflow"])).toBe(
      "Task htmlesc is not in the catalog at the built-in demo dataset (did you mean 'htmlesc-quote-overflow'? ssebench tasks list lists its tasks)",
    );
    expect(msg.taskMissing("tiny-tsak", "/d", ["no-patch-task", "tiny-task"])).toBe(
      "Benchmark task tiny-tsak does not exist in /d. Did you mean 'tiny-task'? Its tasks: ls /d",
    );
  });
});
