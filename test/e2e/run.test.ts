/**
 * `ssebench run` end to end on a real engine: a graded run with the artifact plugin, an unchanged
 * re-run that builds nothing, Ctrl-C, the whole-run time limit and an OOM kill, each leaving no
 * container or network behind.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readlinkSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import type { Summary } from "../../src/formats/run/summary.ts";
import { ssebench, tempDir } from "../helpers/cli.ts";
import { DEMO_TASK, demoDir, docker, E2E, homeWithAgents, readJson, SKIP_REASON, watchedSsebench } from "./helpers.ts";

setDefaultTimeout(900_000);
const results = tempDir("ssebench-e2e-run-");
const home = homeWithAgents({ sleeper: `["sleep", "600"]`, hog: `["sh", "-c", "head -c 2000m /dev/zero | tail -n 1 >/dev/null; exit 0"]` });
afterAll(() => {
  results.cleanup();
  home.cleanup();
});
const env = { DOCKER_HOST: process.env.DOCKER_HOST, SSEBENCH_HOME: home.path };
const base = ["run", "--local", demoDir, "--task", DEMO_TASK, "--results", results.path, "--timeout", "600"];

function runDirOf(stdout: string): string {
  const line = stdout.split("\n").find((l) => l.startsWith("Run directory: "));
  if (!line) throw new Error(`no run directory in:\n${stdout}`);
  return line.slice("Run directory: ".length);
}

function expectNothingLeft(runId: string): void {
  expect(docker(["ps", "-a", "-q", "--filter", `label=ssebench.run-id=${runId}`])).toBe("");
  expect(docker(["network", "ls", "-q", "--filter", `name=ssebench-${runId.toLowerCase()}`])).toBe("");
}

describe.skipIf(!E2E)(`ssebench run on a real engine${SKIP_REASON}`, () => {
  test("the reference agent with --plugin artifact: graded, plugin report and artifact manifest", async () => {
    const r = await ssebench([...base, "--agent", "reference", "--plugin", "artifact", "--run-id", "artifact-1"], { env });
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(`Result: reference agent on ${DEMO_TASK}: build passed, 1/1 PoCs no longer trigger, tests passed, hidden tests passed`);
    expect(lines[1]).toBe("Grade: passed");
    const runDir = runDirOf(r.stdout);
    expect(runDir).toBe(join(results.path, DEMO_TASK, "none", "reference", "artifact-1"));
    expect(readlinkSync(join(runDir, "..", "latest"))).toBe("artifact-1");

    const summary = readJson<Summary>(join(runDir, "summary.json"));
    expect(Object.keys(summary)).toEqual(["task", "config", "patch_result", "runtime_result", "spend", "model_calls", "tokens", "tool_calls", "agent_run", "run_id", "started_at", "plugin_results", "container", "interrupted", "timings_ms", "disk_usage", "provenance"]);
    expect(summary.agent_run).toEqual({ driver: null, cli: null, wire: null, turns: null, budget_refused_calls: 0 });
    expect(summary.config.plugins).toEqual(["artifact"]);
    expect(summary.config.reference_run).toBe(true);
    expect(summary.config.resources).toEqual({ cpus: 2, memory: "4g", pids_limit: 4096, disk: "20g" });
    expect(summary.patch_result.status).toBe("passed");
    expect(summary.container.exit_code).toBe(0);
    expect(summary.container.oom_killed).toBe(false);
    expect(summary.interrupted).toBeNull();
    expect(summary.disk_usage.archive_bytes).toBeGreaterThan(0);
    expect(summary.disk_usage.run_dir_bytes).toBeGreaterThan(summary.disk_usage.archive_bytes as number);
    // the writable layer: at least the grading trees the entrypoint made (removed again, but the prepared state stays)
    expect(summary.disk_usage.container_bytes).toBeGreaterThan(0);
    expect(summary.plugin_results).toEqual([expect.objectContaining({ name: "artifact", hook: "after-grading", status: "ok", exit_code: 0 })]);
    const result = readJson(join(runDir, "result.json"));
    expect(result.config).toEqual(summary.config);

    const report = readJson<Array<Record<string, unknown>>>(join(runDir, "archive", "plugins", "results.json"));
    expect(report).toEqual([expect.objectContaining({ name: "artifact", status: "ok", started: true })]);
    const manifest = readJson<{ file_count: number; files: { path: string; producer: string; sha256: string }[] }>(
      join(runDir, "archive", "artifact", "manifest.json"),
    );
    expect(manifest.file_count).toBe(manifest.files.length);
    const producers = Object.fromEntries(manifest.files.map((f) => [f.path, f.producer]));
    expect(producers["final.patch"]).toBe("daemon");
    expect(producers["result.json"]).toBe("evaluator");
    expect(producers["agent.log"]).toBe("entrypoint");
    expect(manifest.files.some((f) => f.path.startsWith("archive/plugins/"))).toBe(false);
    expect(existsSync(join(runDir, "reference.patch"))).toBe(true);
    expectNothingLeft("artifact-1");
  });

  test("an unchanged re-run builds no layer", async () => {
    const first = await ssebench([...base, "--agent", "dummy", "--run-id", "cached-1"], { env });
    expect(first.exitCode).toBe(0);
    const again = await ssebench([...base, "--agent", "dummy", "--run-id", "cached-2"], { env });
    expect(again.exitCode).toBe(0);
    expect(again.stderr).not.toContain("Building the");
    for (const layer of ["case image", "tool layer", "agent layer"]) expect(again.stderr).toContain(`The ${layer} `);
    expect(again.stdout).toContain("Grade: failed");
    expectNothingLeft("cached-2");
  });

  test("a results folder whose path has ':' and ',' (docker's -v would split it) is mounted", async () => {
    const odd = join(results.path, "a:b,c");
    const r = await ssebench([...base.slice(0, -4), "--results", odd, "--timeout", "600", "--agent", "dummy", "--run-id", "odd-path-1"], { env });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("Grade: failed");
    const summary = readJson<Summary>(join(odd, DEMO_TASK, "none", "dummy", "odd-path-1", "summary.json"));
    expect(summary.patch_result.pov_total).toBe(1);
    expectNothingLeft("odd-path-1");
  });

  test("a dataset folder whose name is no valid image name (space, '+') still builds its case image", async () => {
    const link = join(results.path, "My DS+1");
    symlinkSync(demoDir, link);
    const r = await ssebench(["run", "--local", link, "--task", DEMO_TASK, "--results", results.path, "--agent", "dummy", "--run-id", "odd-dataset-1"], { env });
    expect(r.stderr).toContain("case/my-ds-1/");
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("Grade: failed");
  });

  test("Ctrl-C stops the container and records an interrupted run (exit 130)", async () => {
    const run = watchedSsebench([...base, "--agent", "sleeper", "--run-id", "interrupted-1"], env);
    await run.until("Agent command");
    run.proc.kill("SIGINT");
    const stderr = await run.rest();
    expect(await run.proc.exited).toBe(130);
    expect(stderr).toContain("Received SIGINT; stopping the container, then recording the run");
    const summary = readJson<Summary>(join(results.path, DEMO_TASK, "none", "sleeper", "interrupted-1", "summary.json"));
    expect(summary.interrupted).toBe("SIGINT");
    expect(summary.patch_result.status).toBe("error");
    expect(summary.patch_result.error_type).toBe("interrupted");
    expectNothingLeft("interrupted-1");
  });

  test("the whole run is bounded: --run-timeout stops it (exit 124)", async () => {
    const r = await ssebench([...base, "--agent", "sleeper", "--run-id", "limited-1", "--run-timeout", "40"], { env });
    expect(r.exitCode).toBe(124);
    expect(r.stderr).toContain("The run exceeded its time limit of 40s during");
    const summary = readJson<Summary>(join(results.path, DEMO_TASK, "none", "sleeper", "limited-1", "summary.json"));
    expect(summary.interrupted).toBe("run time limit");
    expect(summary.config.run_timeout).toBe(40);
    expectNothingLeft("limited-1");
  });

  test("an OOM kill inside the container is recorded", async () => {
    const r = await ssebench([...base, "--agent", "hog", "--run-id", "oom-1", "--memory", "256m", "--cpus", "1", "--pids-limit", "512"], { env });
    expect(r.exitCode).toBe(0);
    const summary = readJson<Summary>(join(results.path, DEMO_TASK, "none", "hog", "oom-1", "summary.json"));
    expect(summary.config.resources).toEqual({ cpus: 1, memory: "256m", pids_limit: 512, disk: "20g" });
    expect(summary.container.oom_killed).toBe(true);
    expect(r.stderr).toContain("hit its memory limit");
    expectNothingLeft("oom-1");
  });
});
