/**
 * result.json (docs/container-contract.md §7): the reference's keys in the reference's order, plus
 * `error_type` and per-check details. Written compact, like the reference. No I/O here.
 */
export type CheckName = "build" | "poc" | "function_test" | "intent_test";
/**
 * Why a run was not graded (`status` `error`: the environment's own failures) or, for a `failed`
 * grade, what the agent caused beyond a failing check (docs/container-contract.md §7).
 */
export type ErrorType = "infra" | "grader" | "upstream" | "agent_timeout" | "grading_timeout" | "interrupted" | "no_model_call" | FailureType;
/** `failed` with a reason: a check ran out of time, the change is over a bound, the agent's processes outgrew the walls. */
export type FailureType = "check_timeout" | "change_too_large" | "agent_resources";

export interface CheckRecord {
  check: CheckName;
  poc: string | null;
  /** "original": a control run without the agent's change, made when the patched run failed */
  tree: "patched" | "original";
  status: "passed" | "failed" | "timeout" | "error";
  exit_code: number | null;
  duration_seconds: number;
  log: string | null;
}

/** A file of the agent's change that grading did not apply (docs/container-contract.md §7). */
export interface SetAside {
  path: string;
  /** build_file, test_file: every check used the original tree's version; hidden_test: the intent test used the hidden tests' */
  reason: "build_file" | "test_file" | "hidden_test";
}

export interface PatchResult {
  status: "passed" | "failed" | "error";
  build_success: boolean | null;
  pov_passed: number | null;
  pov_total: number | null;
  func_test_success: boolean | null;
  intent_test_success: boolean | null;
  error_msg: string | null;
  error_log: string | null;
  error_type: ErrorType | null;
  checks: CheckRecord[];
  set_aside: SetAside[];
}

export interface RuntimeResult {
  agent_duration: number;
  agent_timeout: boolean;
  evaluator_timeout: boolean;
  agent_exit_code: number | null;
}

export type Verdicts = Pick<PatchResult, "build_success" | "pov_passed" | "pov_total" | "func_test_success" | "intent_test_success">;

/** The reference's rule: error when no check gave a verdict, failed when any failed, else passed. */
export function deriveStatus(v: Verdicts): PatchResult["status"] {
  if (v.build_success === null && v.pov_total === null && v.func_test_success === null && v.intent_test_success === null) return "error";
  if (v.build_success === false || (v.pov_total !== null && v.pov_passed !== v.pov_total) || v.func_test_success === false || v.intent_test_success === false) {
    return "failed";
  }
  return "passed";
}

export function emptyVerdicts(): Verdicts {
  return { build_success: null, pov_passed: null, pov_total: null, func_test_success: null, intent_test_success: null };
}

/** A result that says why the run was not graded. */
export function notGraded(errorType: ErrorType, errorMsg: string, checks: CheckRecord[] = [], errorLog: string | null = null): PatchResult {
  return { status: "error", ...emptyVerdicts(), error_msg: errorMsg, error_log: errorLog, error_type: errorType, checks, set_aside: [] };
}

/** `failed` before or without the checks, for what the agent caused (every check counts as failed). */
export function failedByAgent(errorType: FailureType, errorMsg: string, errorLog: string | null, checks: CheckRecord[] = []): PatchResult {
  return { status: "failed", ...emptyVerdicts(), build_success: false, func_test_success: false, intent_test_success: false, error_msg: errorMsg, error_log: errorLog, error_type: errorType, checks, set_aside: [] };
}

export function renderResult(patch: PatchResult, runtime: RuntimeResult): string {
  // Spelled out so the key order is the documented one whatever built the objects.
  const p = {
    status: patch.status,
    build_success: patch.build_success,
    pov_passed: patch.pov_passed,
    pov_total: patch.pov_total,
    func_test_success: patch.func_test_success,
    intent_test_success: patch.intent_test_success,
    error_msg: patch.error_msg,
    error_log: patch.error_log,
    error_type: patch.error_type,
    checks: patch.checks.map((c) => ({ check: c.check, poc: c.poc, tree: c.tree, status: c.status, exit_code: c.exit_code, duration_seconds: c.duration_seconds, log: c.log })),
    set_aside: patch.set_aside.map((s) => ({ path: s.path, reason: s.reason })),
  };
  const r = {
    agent_duration: runtime.agent_duration,
    agent_timeout: runtime.agent_timeout,
    evaluator_timeout: runtime.evaluator_timeout,
    agent_exit_code: runtime.agent_exit_code,
  };
  return JSON.stringify({ patch_result: p, runtime_result: r });
}
