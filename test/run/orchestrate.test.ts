/**
 * The orchestrator's flow with a fake docker CLI (its neighbour): layer caching by inputs label,
 * the order of docker calls, teardown, recording, the time limit and the grade-to-exit-code rules.
 * The same flows against the real engine are in test/e2e/run.test.ts.
 */
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync, readlinkSync, statfsSync } from "node:fs";
import { join } from "node:path";
import type { Summary } from "../../src/formats/run/summary.ts";
import { checkFreeSpace } from "../../src/run/backends/engine-check.ts";
import { msg } from "../../src/run/messages.ts";
import { parseRunOptions, type RawRunArgs } from "../../src/run/options.ts";
import { runTask } from "../../src/run/orchestrate.ts";
import { memoryReporter } from "../../src/run/reporter.ts";
import { tempDir } from "../helpers/cli.ts";
import { checkoutHome, FakeDocker, passedResult } from "./fake-docker.ts";
import { RUN_UID_BASE, RUN_UID_PAIRS } from "../../src/run/run-uids.ts";
import { VERSION } from "../../src/version.ts";
import { Argv } from "../../src/argv.ts";

const noFlags = Argv.read([], new Set());

const fixtures = join(import.meta.dir, "fixtures", "dataset");
const scratch = tempDir("ssebench-orchestrate-");
process.env.XDG_CACHE_HOME = join(scratch.path, "cache");
afterAll(scratch.cleanup);

const home = checkoutHome(scratch.path);

let docker: FakeDocker;
let counter = 0;
const BASE = "ghcr.io/42-b3yond-6ug/ssebench/base-generic-c:1.0.0";
beforeEach(() => {
  docker = new FakeDocker();
  docker.images.set(BASE, { id: "sha256:base", inputs: "" });
  docker.container = { result: passedResult };
});

async function run(extra: Partial<RawRunArgs> = {}, rawArgs: string[] = []) {
  const reporter = memoryReporter();
  const opts = parseRunOptions(
    { task: "tiny-task", agent: "dummy", local: fixtures, results: join(scratch.path, "results"), runId: `run-${++counter}`, ...extra },
    Argv.read(rawArgs, new Set(["plugin"])),
    {},
  );
  const outcome = await runTask(opts, { docker, reporter, home, env: {}, handleSignals: false });
  return { outcome, reporter };
}

describe("runTask with a fake docker", () => {
  test("a first run builds four images (case, tool, agent files, agent layer) and fills the agent store; an unchanged re-run builds none", async () => {
    const { outcome } = await run();
    expect(outcome.built.map((t) => t.replace(/^.*\/ssebench\//, "").split("/")[0])).toEqual(["case", "tool", "agent-files", "agent-dummy"]);
    expect(docker.verbs()).toEqual([
      "image inspect",
      "info",
      "build",
      "build",
      // the files image under this run's own tag, its config and the tool layer's checked
      "build",
      "image inspect",
      "image inspect",
      // the store: not complete; the lock, checked again under it; the volume made and filled by the engine
      "image inspect",
      "container create",
      "image inspect",
      "volume",
      "volume",
      "container create",
      "rm",
      // the marker (the files image's config without files) takes the files image's tag
      "build",
      "rm",
      "image rm",
      "image inspect",
      "image inspect",
      "build",
      // does the engine take a storage quota? (this one does not: the disk is watched)
      "container create",
      "run",
      "container inspect",
      "rm",
    ]);
    const before = docker.calls.length;
    const again = await run();
    expect(again.outcome.built).toEqual([]);
    expect(docker.verbs().filter((v) => v === "build")).toHaveLength(5);
    // the case, tool and agent layers, and the store
    expect(again.reporter.lines.filter((l) => l.includes("is up to date"))).toHaveLength(4);
    // one more call than before stores: is the volume there?
    expect(docker.verbs().slice(before)).toEqual(["image inspect", "info", "volume", "container create", "run", "container inspect", "rm"]);
    const runCall = docker.calls.find((c) => c[0] === "run") as string[];
    expect(runCall).toContain("type=volume,source=ssebench-agent-dummy-" + [...docker.volumes.keys()][0]?.slice("ssebench-agent-dummy-".length) + ",target=/opt/agent,readonly,volume-nocopy");
  });

  test("every build labels its image: inputs, layer, ssebench version, and the task, dataset and agent it belongs to", async () => {
    await run();
    const labels = docker.calls.filter((c) => c[0] === "build").map((c) => c.flatMap((a, i) => (c[i - 1] === "--label" ? [a] : [])));
    const own = labels.map((l) => l.slice(1));
    expect(labels.every((l) => /^ssebench\.inputs=[0-9a-f]{16,}$/.test(l[0] ?? ""))).toBe(true);
    const v = `ssebench.version=${VERSION}`;
    const store = `ssebench.agent-store=${[...docker.volumes.keys()][0]}`;
    expect(own).toEqual([
      ["ssebench.layer=case image", v, "ssebench.task=tiny-task", "ssebench.dataset=dataset"],
      ["ssebench.layer=tool layer", v, "ssebench.task=tiny-task"],
      ["ssebench.layer=agent files", v, "ssebench.agent=dummy"],
      ["ssebench.layer=agent files", v, "ssebench.agent=dummy", store],
      ["ssebench.layer=agent layer", v, "ssebench.task=tiny-task", "ssebench.agent=dummy", store],
    ]);
    expect([...docker.volumes.values()]).toEqual([["ssebench.layer=agent store", "ssebench.agent=dummy", expect.stringMatching(/^ssebench\.inputs=/), store]]);
  });

  test("a missing base image is named, with how to build it", async () => {
    docker.images.clear();
    await expect(run()).rejects.toThrow(msg.baseImageMissing(BASE, home.root));
  });

  test("the run folder: summary.json, result.json with config, latest, three lines", async () => {
    const { outcome } = await run();
    const summary = JSON.parse(readFileSync(join(outcome.runDir, "summary.json"), "utf8")) as Summary;
    expect(summary.config).toMatchObject({ agent: "dummy", model: "none", mode: "sandbox", plugins: [], egress: "restricted", keep_container: false });
    expect(summary.config).toMatchObject({ timeout: 3600, grading_timeout: 3600 });
    expect(summary.container).toMatchObject({ exit_code: 0, oom_killed: false, started_at: "2026-01-01T00:00:00.5Z" });
    expect(JSON.parse(readFileSync(join(outcome.runDir, "result.json"), "utf8")).config).toEqual(summary.config);
    expect(readlinkSync(join(outcome.runDir, "..", "latest"))).toBe(summary.run_id);
    expect(outcome.lines).toEqual([
      "Result: dummy agent on tiny-task: build passed, 1/1 PoCs no longer trigger, tests passed",
      "Grade: passed",
      `Run directory: ${outcome.runDir}`,
    ]);
    expect(outcome.exitCode).toBe(0);
  });

  test("selecting a plugin rebuilds the tool and agent layers, not the case image; SSE_PLUGINS is set", async () => {
    await run();
    const before = docker.calls.length;
    const { outcome } = await run({}, ["--plugin", "artifact"]);
    expect(outcome.built.map((t) => t.split("/").at(-2))).toEqual(["tool", "agent-dummy"]);
    const runCall = docker.calls.slice(before).find((c) => c[0] === "run") as string[];
    expect(runCall).toContain("SSE_PLUGINS=artifact");
    expect(outcome.summary.config.plugins).toEqual(["artifact"]);
  });

  test("each run gets its own uid pair for model and sse-runner from the run range", async () => {
    const pairs: number[][] = [];
    for (let i = 0; i < 2; i++) {
      const before = docker.calls.length;
      await run();
      const runCall = docker.calls.slice(before).find((c) => c[0] === "run") as string[];
      const value = (name: string) => Number(runCall.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1));
      pairs.push([value("SSE_MODEL_UID"), value("SSE_RUNNER_UID")]);
    }
    for (const [model, runner] of pairs) {
      expect(model! % 2).toBe(0);
      expect(runner).toBe(model! + 1);
      expect(model).toBeGreaterThanOrEqual(RUN_UID_BASE);
      expect(runner).toBeLessThan(RUN_UID_BASE + 2 * RUN_UID_PAIRS);
    }
    expect(pairs[0]![0]).not.toBe(pairs[1]![0]);
  });

  test("no result.json: a framework failure, status error", async () => {
    docker.container = {};
    const { outcome, reporter } = await run();
    expect(outcome.summary.patch_result).toMatchObject({ status: "error", error_msg: msg.noResultError(), error_type: "infra" });
    expect(reporter.lines).toContain(`error: ${msg.noResult()}`);
  });

  test("an OOM kill without a result is recorded as such", async () => {
    docker.container = { exitCode: 137, oomKilled: true };
    const { outcome } = await run({ memory: "256m" });
    expect(outcome.summary.container.oom_killed).toBe(true);
    expect(outcome.summary.patch_result.error_msg).toBe(msg.oomKilled("256m"));
  });

  test("a run ID that already has results: refused before anything is built or started", async () => {
    await run({ runId: "taken" });
    docker.calls.length = 0;
    await expect(run({ runId: "taken" })).rejects.toThrow("already has results; give the run another --run-id");
    expect(docker.verbs()).toEqual(["image inspect", "info"]);
  });

  test("no run makes a network: every container runs with --network none", async () => {
    await run({ runId: "shared", keepContainer: true });
    await run({ runId: "shared", results: join(scratch.path, "results-elsewhere") });
    expect(docker.verbs().filter((v) => v.startsWith("network"))).toEqual([]);
    const runs = docker.calls.filter((c) => c[0] === "run");
    expect(runs).toHaveLength(2);
    for (const argv of runs) expect(argv[argv.indexOf("--network") + 1]).toBe("none");
  });

  test("--keep-container keeps the container and says how to remove it", async () => {
    const { reporter } = await run({ keepContainer: true });
    expect(docker.calls.filter((c) => c[0] === "rm" && c.includes("cid123"))).toEqual([]);
    expect(reporter.lines).toContain("info: Kept the container cid123; remove it with: docker rm --force --volumes cid123");
  });

  test("the run time limit stops the container and records an interrupted run (exit 124)", async () => {
    docker.container = { result: passedResult, until: new Promise(() => {}) };
    const { outcome, reporter } = await run({ runTimeout: "1" });
    expect(docker.verbs()).toContain("stop");
    expect(outcome.exitCode).toBe(124);
    expect(outcome.summary.interrupted).toBe("run time limit");
    expect(outcome.summary.patch_result.error_type).toBe("interrupted");
    expect(reporter.lines.some((l) => l.startsWith("warn: The run exceeded its time limit of 1s during the container run"))).toBe(true);
    expect(docker.verbs().slice(-2)).toEqual(["container inspect", "rm"]);
    expect(outcome.lines[0]).toBe("Result: dummy agent on tiny-task: stopped at the run time limit (--run-timeout), no check ran");
  });

  test("--cpus and --memory outside what the engine accepts are refused before anything is built", async () => {
    docker.info = { cpus: 2, memoryBytes: 8 * 1024 ** 3, rootDir: "" };
    await expect(run({ cpus: "3" })).rejects.toThrow("--cpus 3: the Docker engine accepts 0.01 to 2 (it has 2 CPUs)");
    await expect(run({ cpus: "0.001" })).rejects.toThrow("--cpus 0.001: the Docker engine accepts 0.01 to 2 (it has 2 CPUs)");
    await expect(run({ memory: "5m" })).rejects.toThrow("--memory 5m: the Docker engine accepts no less than 6m");
    await expect(run({ memory: "9g" })).rejects.toThrow("--memory 9g: the Docker engine's machine has only 8.0g of memory");
    expect(docker.verbs().filter((v) => v === "build" || v === "run")).toEqual([]);
  });

  test("too little free space on the engine's disk stops the run before building; SSEBENCH_MIN_FREE_GB moves the threshold", async () => {
    docker.info = { cpus: 2, memoryBytes: 8 * 1024 ** 3, rootDir: scratch.path };
    const s = statfsSync(scratch.path);
    const freeGb = (s.bavail * s.bsize) / 1e9;
    const above = String(Math.ceil(freeGb) + 1000);
    expect(() => checkFreeSpace(scratch.path, { SSEBENCH_MIN_FREE_GB: above })).toThrow(
      new RegExp(`^Only [0-9.]+ GB free on the Docker engine's disk \\(${scratch.path}\\), below ${above} GB; free some \\(ssebench's images: docker images '\\*/ssebench/\\*'\\) or set SSEBENCH_MIN_FREE_GB$`),
    );
    expect(msg.diskLow("/var/lib/docker", 1.23e9, 5)).toBe(
      "Only 1.2 GB free on the Docker engine's disk (/var/lib/docker), below 5 GB; free some (ssebench's images: docker images '*/ssebench/*') or set SSEBENCH_MIN_FREE_GB",
    );
    expect(() => checkFreeSpace(scratch.path, { SSEBENCH_MIN_FREE_GB: "0" })).not.toThrow();
    expect(() => checkFreeSpace(scratch.path, { SSEBENCH_MIN_FREE_GB: "lots" })).toThrow("SSEBENCH_MIN_FREE_GB='lots' is not a number of GB (0 turns the check off)");
    const reporter = memoryReporter();
    const opts = parseRunOptions({ task: "tiny-task", agent: "dummy", local: fixtures, results: join(scratch.path, "results"), runId: "disk-low" }, noFlags, {});
    await expect(runTask(opts, { docker, reporter, home, env: { SSEBENCH_MIN_FREE_GB: above }, handleSignals: false })).rejects.toThrow(/^Only [0-9.]+ GB free/);
    expect(docker.verbs()).toEqual(["image inspect", "info"]);
  });

  test("a container the engine refuses to start: its message is in the record and the run fails with it", async () => {
    docker.container = { refusal: "Error response from daemon: Range of CPUs is from 0.01 to 2.00, as there are only 2 CPUs available." };
    const line = "The container did not start: Error response from daemon: Range of CPUs is from 0.01 to 2.00, as there are only 2 CPUs available.";
    await expect(run({ runId: "refused" })).rejects.toThrow(line);
    const result = JSON.parse(readFileSync(join(scratch.path, "results", "tiny-task", "none", "dummy", "refused", "result.json"), "utf8"));
    expect(result.patch_result).toMatchObject({ status: "error", error_type: "infra", error_msg: line });
  });

  test("--grading-timeout reaches the container apart from --timeout, and the record", async () => {
    const { outcome } = await run({ timeout: "60", gradingTimeout: "300" });
    const argv = docker.calls.find((c) => c[0] === "run") as string[];
    expect(argv).toContain("TIMEOUT=60");
    expect(argv).toContain("SSE_GRADING_TIMEOUT=300");
    expect(outcome.summary.config).toMatchObject({ timeout: 60, grading_timeout: 300, run_timeout: 2160 });
  });

  test("--require-pass: exit 1 unless passed", async () => {
    docker.container = { result: { ...passedResult, patch_result: { ...passedResult.patch_result, status: "failed", pov_passed: 0 } } };
    expect((await run({ requirePass: true })).outcome.exitCode).toBe(1);
    expect((await run({ requirePass: false })).outcome.exitCode).toBe(0);
  });
});
