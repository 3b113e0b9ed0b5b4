/** The funnel of grading's checks: stages a trial passed in a row, from its patch_result (untrusted). */
import { describe, expect, test } from "bun:test";
import { funnelOf, stagesPassed } from "../../src/results/funnel.ts";

const v = (build: unknown, pocs: [unknown, unknown], func: unknown, intent: unknown) => ({ build_success: build, pov_passed: pocs[0], pov_total: pocs[1], func_test_success: func, intent_test_success: intent });

describe("stagesPassed", () => {
  test("each check in order, stopping at the first that failed", () => {
    expect(stagesPassed(v(true, [2, 2], true, true), "passed")).toBe(4);
    expect(stagesPassed(v(true, [2, 2], true, false), "failed")).toBe(3);
    expect(stagesPassed(v(true, [2, 2], false, true), "failed")).toBe(2);
    expect(stagesPassed(v(true, [1, 2], true, true), "failed")).toBe(1);
    expect(stagesPassed(v(false, [null, null], null, null), "failed")).toBe(0);
  });
  test("a check the task does not have passes in a passed trial, and in no other", () => {
    expect(stagesPassed(v(true, [1, 1], true, null), "passed")).toBe(4);
    expect(stagesPassed(v(true, [1, 1], false, null), "failed")).toBe(2);
    expect(stagesPassed(v(true, [1, 1], true, null), "failed")).toBe(3);
  });
  test("an ungraded trial passed nothing, whatever verdicts it holds; other types are failures", () => {
    expect(stagesPassed(v(true, [1, 1], true, true), "error")).toBe(0);
    expect(stagesPassed(v("true", [1, 1], true, true), "passed")).toBe(0);
    expect(stagesPassed(v(true, ["1", 1], true, true), "passed")).toBe(1);
    expect(stagesPassed({}, "passed")).toBe(4);
    expect(stagesPassed({}, "failed")).toBe(0);
  });
});

test("funnelOf counts each trial at every stage it reached", () => {
  expect(funnelOf([4, 3, 3, 2, 1, 0])).toEqual({ build: 5, poc: 4, function_test: 3, intent_test: 1 });
  expect(funnelOf([])).toEqual({ build: 0, poc: 0, function_test: 0, intent_test: 0 });
});
