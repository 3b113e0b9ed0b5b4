/** test_patch's text for outcomes the real runs do not reach cheaply: exact strings from the messages file. */
import { expect, test } from "bun:test";
import { level, parseDifficulty } from "../../src/runtime/tool-api/levels.ts";
import { toolMsg } from "../../src/runtime/tool-api/messages.ts";
import { emptyChecks, logSection, renderReport, reportOk } from "../../src/runtime/tool-api/report.ts";

test("levels: unset is 2; 0-4 with surrounding blanks; each enables the reference's checks", () => {
  expect(parseDifficulty(undefined)).toEqual(level(2));
  expect(parseDifficulty(" 0 ").n).toBe(0);
  expect([0, 1, 2, 3, 4].map((n) => level(n))).toEqual([
    { n: 0, name: "FULL_ASSISTANCE", build: true, function_test: true, poc: true, intent_test: true },
    { n: 1, name: "NO_INTENT_TEST", build: true, function_test: true, poc: true, intent_test: false },
    { n: 2, name: "NO_FUTURE_TEST", build: true, function_test: true, poc: false, intent_test: false },
    { n: 3, name: "BUILD_ONLY", build: true, function_test: false, poc: false, intent_test: false },
    { n: 4, name: "NO_BUILD", build: false, function_test: false, poc: false, intent_test: false },
  ]);
  expect(() => parseDifficulty("02x")).toThrow(toolMsg.badDifficulty("02x"));
});

test("several failures: the headline names build > functional tests > PoCs > intent tests; the lines keep run order", () => {
  const r = { ...emptyChecks(3), build_success: true, pov_passed: 1, intent_test_success: false, func_test_success: false, logs: { function_test: "assert failed\n", poc: "boom" } };
  const text = renderReport(r, level(0), () => null);
  expect(text).toBe(
    [
      toolMsg.failed(toolMsg.reasons.function_test),
      "Checks:\n- build: passed\n- PoCs: FAILED (passed 1 of 3; stopped at the first that still triggers the bug)\n- intent tests: FAILED\n- functional tests: FAILED",
      "Full log (functional tests):\nassert failed\n",
    ].join("\n\n"),
  );
  expect(reportOk(r, level(0))).toBe(false);
});

test("a task with no PoC passes that check; a failing check without a log says so", () => {
  const r = { ...emptyChecks(0), build_success: true, intent_test_success: false, func_test_success: true };
  expect(renderReport(r, level(0), () => null)).toBe(
    [
      toolMsg.failed(toolMsg.reasons.intent_test),
      "Checks:\n- build: passed\n- PoCs: passed (the task has none)\n- intent tests: FAILED\n- functional tests: passed",
      "Full log (intent tests):\nNo log available",
    ].join("\n\n"),
  );
});

test("long logs: the shorter of the last 100 lines and the last 10,000 words; the full log is saved, or the text says it could not be", () => {
  const long = Array.from({ length: 300 }, (_, i) => `line ${i} ${"w ".repeat(48)}`.trim()).join("\n"); // 15,000 words
  const saved: string[] = [];
  const byLines = logSection("build", long, (t) => (saved.push(t), "/w/tool-logs/x.txt"));
  expect(saved).toEqual([long]);
  const kept = long.split("\n").slice(-100).join("\n");
  expect(byLines).toBe(toolMsg.truncatedLog("build", kept, "/w/tool-logs/x.txt"));
  // One huge line: the last 10,000 words are shorter than the last 100 lines.
  const oneLine = Array.from({ length: 12_000 }, (_, i) => `w${i}`).join("   ");
  const byWords = logSection("build", oneLine, () => null);
  expect(byWords).toBe(toolMsg.truncatedNoFile("build", oneLine.split(/\s+/).slice(-10_000).join(" ")));
  // At most 10,000 words: the whole log.
  const short = "a ".repeat(10_000);
  expect(logSection("build", short, () => "never")).toBe(toolMsg.fullLog("build", short));
});
