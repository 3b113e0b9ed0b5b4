/**
 * Grading integrity (issue 9 items 6, 9, 10): hostile agents that try to read the answers or stub
 * the build and tests, and honest ones that must still pass. Real uids, the compiled entrypoint.
 */
import { afterAll, afterEach, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dropUsers, ensureUsers, newRun, type RunDirs, runEntrypoint, shAgent } from "./harness.ts";

let dirs: RunDirs | undefined;
setDefaultTimeout(90_000);
beforeAll(ensureUsers);
afterAll(dropUsers);
afterEach(() => dirs?.cleanup());

const ANSWERS = { hidden: "diffs/test.diff", fix: "diffs/patch.diff", poc: "pocs/poc.txt" };

/** An agent script that applies the task's fix (copied where the agent can read it). */
function applyFix(d: RunDirs): string {
  copyFileSync(d.reference, join(d.base, "fix.diff"));
  return `git apply ${join(d.base, "fix.diff")}`;
}

test("each check's scripts see only the answers that check needs (the agent's code probes them all)", async () => {
  dirs = newRun();
  const d = dirs;
  // The task's build runs the program it built once (as many builds run their generated tools).
  const build = join(d.taskRoot, "scripts/build.sh");
  writeFileSync(build, `${readFileSync(build, "utf8")}./build/calc /dev/null >/dev/null\n`);
  // The agent's calc reports which answers it can read into whatever check log it runs in.
  const probes = Object.entries(ANSWERS)
    .map(([name, rel]) => `if cat "$SSE_TASK_ROOT/${rel}" >/dev/null 2>&1; then echo "probe:$SSE_CHECK:${name}=OPEN" >&2; else echo "probe:$SSE_CHECK:${name}=closed" >&2; fi`)
    .join("\n");
  writeFileSync(join(d.base, "probe.sh"), `${probes}\n`);
  const r = await runEntrypoint(d, shAgent(`sed -i '1r ${join(d.base, "probe.sh")}' calc.sh`));
  expect(r.result.patch_result.checks.map((c: { check: string }) => c.check)).toEqual(["build", "poc", "function_test", "intent_test"]);
  const seen = (log: string) => readFileSync(join(d.results, "grading", log), "utf8").split("\n").filter((l) => l.startsWith("probe:"));
  const uniq = (lines: string[]) => [...new Set(lines)];
  expect(uniq(seen("build.log"))).toEqual(["probe:build:hidden=closed", "probe:build:fix=closed", "probe:build:poc=closed"]);
  expect(uniq(seen("poc-1.log"))).toEqual(["probe:poc:hidden=closed", "probe:poc:fix=closed", "probe:poc:poc=OPEN"]);
  expect(uniq(seen("function_test.log"))).toEqual(["probe:function_test:hidden=closed", "probe:function_test:fix=closed", "probe:function_test:poc=closed"]);
  expect(uniq(seen("intent_test.log"))).toEqual(["probe:intent_test:hidden=OPEN", "probe:intent_test:fix=closed", "probe:intent_test:poc=closed"]);
});

test("honest agent: a line added to .gitignore that matches a tracked test file keeps that file in the change", async () => {
  dirs = newRun();
  // `test_*` (meant for a test binary) also matches the tracked tests/test_basic.sh.
  const r = await runEntrypoint(dirs, shAgent(`${applyFix(dirs)} && echo 'test_*' >> .gitignore && echo '# checked' >> tests/test_basic.sh`));
  const patch = readFileSync(join(dirs.results, "final.patch"), "utf8");
  expect(patch).not.toContain("deleted file");
  expect(patch).toContain("+test_*");
  expect(patch).toContain("+# checked");
  expect(r.result.patch_result).toMatchObject({ status: "passed", func_test_success: true, intent_test_success: true });
});
