/**
 * `ssebench dataset verify` on every demo task, on a real engine: the reference agent passes every
 * check, the dummy agent leaves the PoC triggering.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { TaskVerdict } from "../../src/run/verify/verify.ts";
import { ssebench, tempDir } from "../helpers/cli.ts";
import { demoDir, E2E, readJson, SKIP_REASON } from "./helpers.ts";

setDefaultTimeout(1_800_000);
const output = tempDir("ssebench-e2e-verify-");
afterAll(output.cleanup);

describe.skipIf(!E2E)(`ssebench dataset verify on a real engine${SKIP_REASON}`, () => {
  test("every demo task verifies both ways", async () => {
    const tasks = readdirSync(demoDir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
    expect(tasks.length).toBeGreaterThanOrEqual(3);
    const r = await ssebench(["dataset", "verify", "--output", output.path, "--timeout", "900"], { env: { DOCKER_HOST: process.env.DOCKER_HOST } });
    if (r.exitCode !== 0) console.error(r.stdout, r.stderr);
    expect(r.exitCode).toBe(0);
    const rows = r.stdout.trimEnd().split("\n");
    expect(rows[0]).toMatch(/^TASK +REFERENCE +DUMMY +SECONDS +RESULT$/);
    expect(rows.slice(1).map((row) => row.split(/\s+/)[0])).toEqual(tasks);
    for (const task of tasks) {
      const verdict = readJson<TaskVerdict>(join(output.path, "tasks", `${task}.json`));
      expect(verdict.ok).toBe(true);
      expect(verdict.failures).toEqual([]);
      const reference = verdict.runs.reference?.result;
      const dummy = verdict.runs.dummy?.result;
      expect(reference?.status).toBe("passed");
      expect(reference?.pov_passed).toBe(reference?.pov_total ?? -1);
      expect(dummy?.build_success).toBe(true);
      expect(dummy?.pov_passed).toBeLessThan(dummy?.pov_total ?? 0);
    }
  });

  test("--repeat 2 on a demo task: both repetitions agree on every check, one log per agent and repetition", async () => {
    const task = "htmlesc-quote-overflow";
    const out = join(output.path, "repeat");
    const r = await ssebench(["dataset", "verify", task, "--repeat", "2", "--output", out, "--timeout", "900"], { env: { DOCKER_HOST: process.env.DOCKER_HOST } });
    if (r.exitCode !== 0) console.error(r.stdout, r.stderr);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(`${task}: repetition 1/2 ok`);
    expect(r.stderr).toContain(`${task}: repetition 2/2 ok`);
    expect(r.stdout).toContain("passed (PoC 1/1 fixed) ×2");
    const verdict = readJson<TaskVerdict>(join(out, "tasks", `${task}.json`));
    expect(verdict.ok).toBe(true);
    expect(verdict.disagreements).toEqual([]);
    expect(verdict.repetitions).toHaveLength(2);
    const [first, second] = verdict.repetitions;
    for (const agent of ["reference", "dummy"]) {
      const statuses = (rep: typeof first) => rep?.runs[agent]?.result?.checks.map((c) => `${c.check} ${c.poc ?? ""} ${c.status}`);
      expect(statuses(first)?.length).toBeGreaterThan(0);
      expect(statuses(second)).toEqual(statuses(first) as string[]);
      expect(first?.runs[agent]?.run_dir).not.toBe(second?.runs[agent]?.run_dir as string);
      for (const k of [1, 2]) expect(existsSync(join(out, "logs", `${task}.${agent}.${k}.log`))).toBe(true);
    }
  });

  test("a failing task makes verify exit 1 with the reason in the table", async () => {
    // The fixture dataset of test/run has a task without a reference patch: its reference run cannot start.
    const fixtures = join(import.meta.dir, "..", "run", "fixtures", "dataset");
    const r = await ssebench(["dataset", "verify", "no-patch-task", "--dir", fixtures, "--output", output.path], { env: { DOCKER_HOST: process.env.DOCKER_HOST } });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain("FAILED: reference: Task no-patch-task has no reference patch (files.patch), so the reference agent cannot run it");
  });
});
