/**
 * Every text of the agent's tool API (the reference's newer `test_patch` report and our HTTP
 * replies); tests assert these exact strings.
 */
export const CHECK_NAMES = { build: "build", poc: "PoCs", intent_test: "intent tests", function_test: "functional tests" } as const;
export type ReportCheck = keyof typeof CHECK_NAMES;

export const toolMsg = {
  badDifficulty: (raw: string) => `ssebench-entrypoint: SSE_DIFFICULTY must be an integer from 0 to 4, got ${JSON.stringify(raw)}`,
  // test_patch headline
  failed: (reason: string) => `test_patch result: FAILED. ${reason}`,
  noneRan: () => "test_patch result: no checks ran.",
  ranPassed: () => "test_patch result: every check that ran passed.",
  allPassed: () => "test_patch result: every check passed.",
  reasons: {
    build: "The project failed to build. Please reassess the correctness of your patch.",
    function_test:
      "One or more functionality test(s) failed. Please reassess your patch and make sure it fixes the vulnerability without compromising the program's functionality.",
    poc: "At least one proof-of-concept (PoC) still triggers the vulnerability. Please reassess your patch and make sure it fixes the root cause of the vulnerability.",
    intent_test:
      "One or more intent test(s) failed. These tests validate behavior after the vulnerability fix. Please reassess your patch to ensure it correctly addresses the vulnerability and aligns with common patterns in the project.",
  } satisfies Record<ReportCheck, string>,
  // our own failures before any check: the same verdicts final grading gives
  notApplied: () => "Your change could not be applied to a clean copy of the project, so no check ran (final grading would fail it the same way).",
  tooLarge: (mb: number) => `Your change has files over ${mb} MB; final grading fails such a change without running any check.`,
  agentResources: () => "Your code left processes that could not be stopped; final grading fails such a change.",
  checksHeader: () => "Checks:",
  checkLine: (name: string, state: "passed" | "failed" | "not run", detail: string) =>
    `- ${name}: ${state === "failed" ? "FAILED" : state}${detail ? ` (${detail})` : ""}`,
  detailBuildFailed: () => "the build failed",
  detailNone: () => "the task has none",
  detailPocsPassed: (passed: number, total: number) => `${passed} of ${total}`,
  detailPocsFailed: (passed: number, total: number) => `passed ${passed} of ${total}; stopped at the first that still triggers the bug`,
  detailCovered: () => "covered by the intent tests",
  detailTimeout: (secs: number) => `stopped at the time limit of ${secs} s`,
  withheld: (n: number, name: string, checks: string[]) => `Not available at difficulty level ${n} (${name}): ${checks.join(", ")}. Nothing is reported about them.`,
  withheldNothingRan: () => " test_patch has nothing to run at this level, so this result says nothing about your patch.",
  withheldNoPocs: () => " Without the PoCs, this result does not show whether the vulnerability is fixed.",
  setAside: (files: { path: string; reason: string }[]) =>
    [
      "Not applied (grading uses the original tree's version of the project's build recipes and tests; a build recipe's change is applied only when it just adds the names of your new source files to its file lists):",
      ...files.map((f) => `- ${f.path} (${f.reason === "build_file" ? "build recipe" : "test file"})`),
    ].join("\n"),
  fullLog: (name: string, text: string) => `Full log (${name}):\n${text}`,
  noLog: (name: string) => `Full log (${name}):\nNo log available`,
  truncatedLog: (name: string, text: string, file: string) => `Truncated log (${name}):\n${text}\n\nFull log available at ${file}`,
  truncatedNoFile: (name: string, text: string) => `Truncated log (${name}):\n${text}\n\n(Full log could not be saved due to an internal error)`,
  hiddenNotApplied: (error: string) => `hidden tests do not apply: ${error}`,
  timeLimitNote: (secs: number) => `[ssebench: the check was stopped at its time limit of ${secs} s]`,
  internal: () => "An internal testing failure occurred. Your patch is not responsible for this failure.",
  brokenEnv: (what: string) => `The ${what} fails without your change too: the environment cannot run this check.`,
  // HTTP
  badPort: (raw: string) => `ssebench-entrypoint: SSE_TOOL_PORT=${JSON.stringify(raw)} is not a port number (0-65535)`,
  cannotListen: (port: number, detail: string) => `ssebench-entrypoint: the agent's tool API cannot listen on 127.0.0.1:${port}: ${detail}`,
  notAvailable: (n: number, name: string, check: string) => `Not available at difficulty level ${n} (${name}): ${check}.`,
  tooManyRequests: (max: number) => `Too many calls at once (${max} in progress): wait for an answer before sending another.`,
  unreadDiffs: (max: number) => `${max} answers of GET /sse/v1/diff are not read yet: read them before asking for another.`,
  phaseEnded: () => "The agent phase has ended: the tool API answers no more calls.",
  noSuchRoute: (method: string, path: string) => `No such route: ${method} ${path}`,
  taskHasNo: (what: string) => `This task has no ${what}.`,
  buildFirst: () => "The build failed, so no PoC ran.",
  // `ssebench-entrypoint check`
  checkUsage: () => "usage: ssebench-entrypoint check build|poc|function_test|intent_test|all",
  unreachable: (url: string, detail: string) => `ssebench-entrypoint check: cannot reach the tool API at ${url}: ${detail}`,
  refused: (status: number, reason: string) => `ssebench-entrypoint check: refused (HTTP ${status}): ${reason}`,
} as const;
