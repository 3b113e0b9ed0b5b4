/** SIGTERM/SIGINT at any phase, and the refusal to run as PID 1 without an init. */
import { afterAll, afterEach, beforeAll, expect, test, setDefaultTimeout } from "bun:test";
import { existsSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { entrypointBin } from "../helpers/cli.ts";
import { dropUsers, ensureUsers, processesMatching, SLEEP, sleepsLeft, liveProcessesOf, newRun, type RunDirs, runEntrypoint, shAgent, uidOf, users } from "./harness.ts";

let dirs: RunDirs | undefined;
// Each run is several real processes and git calls; a busy 2-vCPU machine needs headroom.
setDefaultTimeout(90_000);
beforeAll(ensureUsers);
afterAll(dropUsers);
afterEach(() => dirs?.cleanup());

function waitForLog(text: string): Promise<void> {
  const path = join(dirs!.results, "entrypoint.log");
  return waitFor(() => existsSync(path) && readFileSync(path, "utf8").includes(text), `entrypoint.log showing ${text}`);
}

async function waitFor(ready: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (ready()) return;
    await Bun.sleep(50);
  }
  throw new Error(`never saw ${what}`);
}

/** git processes whose working directory is the agent's tree (the patch capture). */
function gitInTree(): number[] {
  return processesMatching(/^git /).filter((pid) => {
    try {
      return readlinkSync(`/proc/${pid}/cwd`) === dirs!.source;
    } catch {
      return false;
    }
  });
}

test("SIGTERM during the agent phase: every process killed, interrupted result, plugin results so far, exit 143", async () => {
  dirs = newRun({
    plugins: [
      { name: "early", hook: "before-agent", script: "true" },
      { name: "beside", hook: "on-agent", script: `sleep ${SLEEP}` },
    ],
  });
  const r = await runEntrypoint(dirs, shAgent(`setsid sleep ${SLEEP + 3} & trap '' TERM; sleep ${SLEEP + 2}`), {
    onStart: (proc) => void waitForLog("Agent command").then(() => proc.kill("SIGTERM")),
  });
  expect(r.exitCode).toBe(143);
  expect(r.result.patch_result).toMatchObject({ status: "error", error_type: "interrupted", error_msg: "Interrupted by SIGTERM during the agent phase" });
  expect(r.result.runtime_result.agent_exit_code).toBeNull();
  expect(r.pluginResults!.map((p) => `${p.name}:${p.status}`)).toEqual(["early:ok", "beside:failed"]);
  expect(liveProcessesOf(uidOf(users.model))).toEqual([]);
  expect(sleepsLeft(0, 2, 3)).toEqual([]);
});

test("SIGINT during grading: the checks done so far are kept, exit 130", async () => {
  dirs = newRun();
  Bun.spawnSync(["sh", "-c", `echo 'sleep ${SLEEP + 4}' >> ${join(dirs.taskRoot, "scripts/test.sh")}`]);
  const r = await runEntrypoint(dirs, shAgent("true"), {
    onStart: (proc) => void waitForLog("check=function_test").then(() => proc.kill("SIGINT")),
  });
  expect(r.exitCode).toBe(130);
  expect(r.result.patch_result).toMatchObject({ status: "error", error_type: "interrupted", error_msg: "Interrupted by SIGINT during grading" });
  expect(r.result.patch_result.checks.map((c: { check: string }) => c.check)).toEqual(["build", "poc"]);
  expect(r.result.runtime_result.agent_exit_code).toBe(0);
  expect(sleepsLeft(4)).toEqual([]);
});

test("SIGTERM while a long patch capture runs is handled at once (nothing blocks the event loop)", async () => {
  dirs = newRun({ env: { SSE_MAX_FILE_MB: "1000000", SSE_MAX_CHANGE_MB: "1000000" } }); // let git hash the huge file
  let signalled = 0;
  const r = await runEntrypoint(dirs, shAgent("truncate -s 64G huge.bin"), {
    onStart: (proc) =>
      void waitForLog("Agent finished").then(async () => {
        await waitFor(() => gitInTree().length > 0, "a git process hashing the agent's tree");
        signalled = performance.now();
        proc.kill("SIGTERM");
      }),
  });
  expect(r.exitCode).toBe(143);
  expect(performance.now() - signalled).toBeLessThan(5000);
  expect(r.result.patch_result).toMatchObject({ error_type: "interrupted", error_msg: "Interrupted by SIGTERM during grading" });
  // The interrupted git (cwd: the agent's tree) was stopped with the run.
  expect(gitInTree()).toEqual([]);
});

test("SIGTERM while the grading plugins run keeps the finished grade; the plugin is recorded, exit 143", async () => {
  dirs = newRun({ plugins: [{ name: "slow", hook: "after-grading", script: `sleep ${SLEEP + 5}` }] });
  const r = await runEntrypoint(dirs, shAgent("true"), {
    onStart: (proc) => void waitForLog("plugin=slow").then(() => proc.kill("SIGTERM")),
  });
  expect(r.exitCode).toBe(143);
  // The unchanged tree fails on its PoC: that verdict was known before the signal came.
  expect(r.result.patch_result).toMatchObject({ status: "failed", error_type: null, error_msg: "PoC failed: pocs/poc.txt", build_success: true });
  expect(r.result.patch_result.checks).toHaveLength(4);
  expect(r.pluginResults!.map((p) => `${p.name}:${p.status}`)).toEqual(["slow:failed"]);
  expect(sleepsLeft(5)).toEqual([]);
});

test("as PID 1 without an init it refuses with a clear message", async () => {
  dirs = newRun();
  const proc = Bun.spawn(["unshare", "--pid", "--fork", "--mount-proc", entrypointBin, "--", "true"], { env: dirs.env, stdout: "pipe", stderr: "pipe" });
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  expect(code).toBe(1);
  expect(stderr).toBe("ssebench-entrypoint: refusing to run as PID 1: start the container with an init (docker run --init)\n");
  expect(existsSync(join(dirs.results, "result.json"))).toBe(false);
});
