/**
 * The funnel of a set of trials: how many passed each check of grading in order — the build, then
 * every PoC, then the project's tests, then the hidden tests that came with the upstream fix. The
 * gap between `poc` and `intent_test` is the "plausible but wrong" patches: the PoC no longer
 * triggers, yet the tests show the fix is not the right one. No I/O.
 */

export const FUNNEL_STAGES = ["build", "poc", "function_test", "intent_test"] as const;
export type FunnelStage = (typeof FUNNEL_STAGES)[number];
export type Funnel = Record<FunnelStage, number>;

/**
 * How many stages a graded trial passed in a row (0–4), from its patch_result (untrusted: any
 * other type is a failed stage). A check a task does not have (null in a passed trial) is passed;
 * an ungraded trial (`error`) passed none, whatever verdicts it has.
 */
export function stagesPassed(p: Record<string, unknown>, status: "passed" | "failed" | "error"): number {
  if (status === "error") return 0;
  const absent = (v: unknown) => v === null || v === undefined;
  const ok = (v: unknown) => v === true || (absent(v) && status === "passed");
  const poc = typeof p.pov_total === "number" ? p.pov_passed === p.pov_total : absent(p.pov_total) && status === "passed";
  const stages = [ok(p.build_success), poc, ok(p.func_test_success), ok(p.intent_test_success)];
  const first = stages.indexOf(false);
  return first < 0 ? stages.length : first;
}

/** The trials that passed each stage (and every one before it). */
export function funnelOf(stages: readonly number[]): Funnel {
  const funnel = { build: 0, poc: 0, function_test: 0, intent_test: 0 };
  for (const n of stages) for (let i = 0; i < n; i++) funnel[FUNNEL_STAGES[i] as FunnelStage]++;
  return funnel;
}
