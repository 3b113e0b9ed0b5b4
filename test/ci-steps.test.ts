/**
 * scripts/dev/ci-steps.sh, which .ci/run sources, as real bash processes: the closing table of each
 * step's wall and CPU seconds (also when a step fails), and background jobs whose output is kept
 * and whose failure fails the run.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot, runBinary, tempDir } from "./helpers/cli.ts";

const work = tempDir("ssebench-ci-steps-");
afterAll(() => work.cleanup());

async function ci(body: string) {
  const script = join(work.path, `ci-${Math.random().toString(36).slice(2)}.sh`);
  writeFileSync(script, `set -euo pipefail\nsource ${join(repoRoot, "scripts/dev/ci-steps.sh")}\n${body}\n`);
  return runBinary("/bin/bash", [script], { env: { TMPDIR: work.path } });
}

/** The table's rows by step name: [wall, cpu] (engine and machine depend on the whole host). */
function rows(stdout: string): Map<string, string[]> {
  const table = stdout.slice(stdout.lastIndexOf("\nstep (seconds; load at the end"));
  const out = new Map<string, string[]>();
  for (const line of table.split("\n").slice(2)) {
    const m = line.match(/^(.*?)\s+(\d+)(?:\s+(\d+|-)\s+(\d+|-)\s+(\d+|-))?$/);
    if (m) out.set(m[1]!, [m[2]!, m[3] ?? ""]);
  }
  return out;
}

describe("scripts/dev/ci-steps.sh", () => {
  test("each step's wall and the CPU of what it ran; a background job is its own row, its output printed when waited for", async () => {
    const r = await ci(`
step "spin"
timeout 1.5 bash -c 'while :; do :; done' || true
background "helper" bash -c 'echo from the helper; timeout 1 bash -c "while :; do :; done" || true'
step "sleep"
sleep 1.2
wait_for helper
ci_end_step`);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("\n==> [   0s] spin\n");
    expect(r.stdout).toContain("    (in the background: helper)\n");
    expect(r.stdout).toMatch(/--- helper \(in the background, \d+s, exit 0\):\nfrom the helper\n/);
    const table = rows(r.stdout);
    expect([...table.keys()]).toEqual(["spin", "(background) helper", "sleep", "total"]);
    // spinning 1.5 s takes at most 1.5 CPU seconds whatever the load; the sleeping step's CPU is
    // its sleep's, not the helper's (that is the helper's row)
    expect(Number(table.get("spin")![0])).toBeGreaterThanOrEqual(2);
    expect(Number(table.get("spin")![1])).toBeLessThanOrEqual(2);
    expect(Number(table.get("sleep")![0])).toBeGreaterThanOrEqual(1);
    expect(table.get("sleep")![1]).toBe("0");
    expect(Number(table.get("(background) helper")![1])).toBeLessThanOrEqual(1);
  });

  test("a background job that ends during one step and is waited for in a later one counts in neither", async () => {
    const done = join(work.path, "early-done");
    const r = await ci(`
background "early" bash -c 'for ((i = 0; i < 1000000; i++)); do :; done; touch ${done}'
step "during"
until [ -e ${done} ]; do sleep 0.1; done
sleep 0.5
step "after"
sleep 0.2
wait_for early
ci_end_step`);
    expect(r.exitCode).toBe(0);
    const table = rows(r.stdout);
    expect(Number(table.get("(background) early")![1])).toBeGreaterThanOrEqual(1);
    expect(table.get("during")![1]).toBe("0");
    expect(table.get("after")![1]).toBe("0");
  }, 30_000);

  test("a failing step ends the run with its exit code and the table up to it, marked FAILED", async () => {
    const r = await ci(`
step "fine"
true
step "breaks"
exit 7`);
    expect(r.exitCode).toBe(7);
    expect([...rows(r.stdout).keys()]).toEqual(["fine", "breaks (FAILED)", "total"]);
  });

  test("a failed background job fails the run where it is waited for; one never waited for is stopped, its output shown", async () => {
    const marker = join(work.path, "still-running");
    const r = await ci(`
background "broken" bash -c 'echo apt said no >&2; exit 4'
background "slow" bash -c 'echo slow started; sleep 2; touch ${marker}'
step "needs broken"
wait_for broken
echo not reached`);
    expect(r.exitCode).toBe(4);
    expect(r.stdout).toContain("--- broken (in the background, 0s, exit 4):\napt said no\n");
    expect(r.stdout).not.toContain("not reached");
    expect(r.stderr).toContain("CI: broken failed (exit 4)\n");
    expect(r.stderr).toContain("CI: stopped the background job slow (not waited for); its output:\nslow started\n");
    expect([...rows(r.stdout).keys()]).toEqual(["(background) broken", "needs broken (FAILED)", "total"]);
    await Bun.sleep(2500);
    expect(existsSync(marker)).toBe(false);
  });

  test("tests: a failing test command fails the run, also when called as `tests … || rc=$?` (errexit is off there); the closing line sums every run", async () => {
    const fake = (pass: number, fail: number, code: number) => `bash -c 'printf " %d pass\\n %d fail\\n" ${pass} ${fail}; exit ${code}'`;
    const r = await ci(`
step "tests"
tests '' ${fake(3, 0, 0)}
rc=0
tests '' ${fake(2, 1, 1)} || rc=$?
echo "guarded rc=$rc"
ci_test_counts
tests '' ${fake(0, 4, 9)}
echo not reached`);
    expect(r.stdout).toContain("guarded rc=1\n");
    expect(r.stdout).toContain("tests: 5 passed, 1 failed, 0 skipped\n");
    expect(r.stdout).not.toContain("not reached");
    expect(r.exitCode).toBe(9);
  });

  test("tests: a skipped test the step is meant to run fails the run, naming it; one it may skip does not", async () => {
    const r = await ci(`
tests 'needs an engine' bash -c 'echo "(skip) runs a container [needs an engine]"'
echo allowed
tests 'needs an engine' bash -c 'echo "(skip) the swarm job"'
echo not reached`);
    expect(r.stdout).toContain("allowed\n");
    expect(r.stdout).not.toContain("not reached");
    expect(r.stderr).toContain("CI: tests were skipped in the step meant to run them:\nthe swarm job\n");
    expect(r.exitCode).toBe(1);
  });
});
