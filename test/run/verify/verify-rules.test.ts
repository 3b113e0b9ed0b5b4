import { describe, expect, test } from "bun:test";
import type { PatchResult } from "../../../src/formats/run/summary.ts";
import { dummyFailures, referenceFailures } from "../../../src/run/verify/verify.ts";

const p = (over: Partial<PatchResult>): PatchResult => ({
  status: "passed",
  build_success: true,
  pov_passed: 1,
  pov_total: 1,
  func_test_success: true,
  intent_test_success: true,
  error_msg: null,
  error_log: null,
  error_type: null,
  checks: [],
  set_aside: [],
  ...over,
});
const all = ["build", "poc", "function_test", "intent_test"];

describe("dataset verify rules", () => {
  test("the reference run must pass every check the task has", () => {
    expect(referenceFailures(all, p({}))).toEqual([]);
    expect(referenceFailures(all, p({ status: "failed", intent_test_success: false, error_msg: "Intent test failed" }))).toEqual([
      "reference: graded failed (Intent test failed)",
      "reference: the hidden tests did not pass",
    ]);
    expect(referenceFailures(all, p({ intent_test_success: null }))).toEqual(["reference: the hidden tests did not pass"]);
    expect(referenceFailures(["build"], p({ intent_test_success: null, pov_total: null, pov_passed: null }))).toEqual([]);
  });

  test("the dummy run must build and leave a PoC triggering", () => {
    expect(dummyFailures(all, p({ status: "failed", pov_passed: 0 }))).toEqual([]);
    expect(dummyFailures(all, p({}))).toEqual(["dummy: no PoC triggers on the unchanged project"]);
    expect(dummyFailures(all, p({ build_success: false }))).toEqual(["dummy: the unchanged project does not build"]);
    expect(dummyFailures(["build"], p({}))).toEqual(["dummy: the task has no PoC to trigger"]);
  });
});
