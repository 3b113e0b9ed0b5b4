/** The bypasses an agent could try; each must fail for real (uid switching as root). */
import { afterAll, afterEach, beforeAll, expect, test, setDefaultTimeout } from "bun:test";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { entrypointBin } from "../helpers/cli.ts";
import { join } from "node:path";
import { dropUsers, ensureUsers, liveProcessesOf, newRun, type RunDirs, runEntrypoint, shAgent, uidOf, users } from "./harness.ts";

let dirs: RunDirs | undefined;
// Each run is several real processes and git calls; a busy 2-vCPU machine needs headroom.
setDefaultTimeout(90_000);
beforeAll(ensureUsers);
afterAll(dropUsers);
afterEach(() => dirs?.cleanup());

/** Runs each probe as the agent; a probe prints OPEN when the access worked. */
async function probe(lines: Record<string, string>): Promise<Record<string, string>> {
  const script = Object.entries(lines)
    .map(([name, cmd]) => `if ${cmd} >/dev/null 2>&1; then echo "${name}=OPEN"; else echo "${name}=closed"; fi >> "$SSE_ARCHIVE/probes"`)
    .join("\n");
  const r = await runEntrypoint(dirs!, shAgent(script));
  expect(r.exitCode).toBe(0);
  return Object.fromEntries(readFileSync(join(dirs!.archive, "probes"), "utf8").trim().split("\n").map((l) => l.split("=") as [string, string]));
}

test("the agent cannot read the task files, hidden tests, reference patch or results, nor write plugin code", async () => {
  dirs = newRun({ plugins: [{ name: "audit", hook: "after-grading", script: "echo audited" }] });
  const d = dirs;
  const found = await probe({
    taskConfig: `cat ${d.taskRoot}/config.yaml`,
    taskList: `ls ${d.taskRoot}`,
    hiddenTests: `cat ${d.taskRoot}/diffs/test.diff`,
    referencePatch: `cat ${d.reference}`,
    results: `ls ${d.results}`,
    pluginCode: `sh -c 'echo "cat /etc/shadow" >> ${d.plugins}/audit/run.sh'`,
    pluginFolder: `touch ${d.plugins}/audit/extra`,
    workState: `ls ${d.work}/state`,
    ownTree: `touch ${d.source}/mine`,
    archive: `touch $SSE_ARCHIVE/mine`,
  });
  expect(found).toEqual({
    taskConfig: "closed",
    taskList: "closed",
    hiddenTests: "closed",
    referencePatch: "closed",
    results: "closed",
    pluginCode: "closed",
    pluginFolder: "closed",
    workState: "closed",
    ownTree: "OPEN",
    archive: "OPEN",
  });
  expect(readFileSync(join(d.plugins, "audit/run.sh"), "utf8")).not.toContain("shadow");
});

test("plugin folders that were group/world-writable are locked down before the agent starts", async () => {
  dirs = newRun({ plugins: [{ name: "loose", hook: "after-grading", script: "true" }] });
  Bun.spawnSync(["chmod", "-R", "a+w", dirs.plugins]);
  Bun.spawnSync(["chown", "-R", `${uidOf(users.model)}`, join(dirs.plugins, "loose")]);
  const found = await probe({ pluginCode: `sh -c 'echo x >> ${dirs.plugins}/loose/run.sh'` });
  expect(found.pluginCode).toBe("closed");
});

test("a process left behind (double fork + setsid) does not survive the agent phase", async () => {
  dirs = newRun();
  const marker = join(dirs.archive, "late");
  const r = await runEntrypoint(dirs, shAgent(`setsid sh -c '(sleep 2; echo still-here > ${marker}) &' & exit 0`));
  expect(r.exitCode).toBe(0);
  // No process of the agent's user is left, and only root could start one: the orphan can never write.
  expect(liveProcessesOf(uidOf(users.model))).toEqual([]);
  expect(() => readFileSync(marker)).toThrow();
});

test("the agent's processes are gone before grading: a change made late is not graded", async () => {
  dirs = newRun();
  // A background job that would apply the fix after the agent exits (i.e. during grading).
  const fix = `sleep 1; cp ${dirs.source}/calc.sh /dev/null; sed -i 's/exit 139/exit 0/' ${dirs.source}/calc.sh`;
  const r = await runEntrypoint(dirs, shAgent(`setsid sh -c '${fix}' >/dev/null 2>&1 & exit 0`));
  expect(r.result.patch_result.pov_passed).toBe(0);
  expect(readFileSync(join(dirs.results, "final.patch"), "utf8")).toBe("");
});

test("code the agent left cannot outlive its check and tamper with a later check's tree", async () => {
  dirs = newRun();
  // The agent leaves the bug in and makes calc start a detached helper that, during later checks,
  // replaces the hidden test in every scratch tree with one that passes.
  const calc = readFileSync(join(dirs.source, "calc.sh"), "utf8").replace(
    "\n",
    `\nsetsid sh -c 'for i in $(seq 1 150); do for f in $(find ../.. -name test_long.sh); do echo true > "$f"; done; sleep 0.1; done' >/dev/null 2>&1 &\n`,
  );
  writeFileSync(join(dirs.base, "calc.sh"), calc);
  const r = await runEntrypoint(dirs, shAgent(`cp ${join(dirs.base, "calc.sh")} calc.sh`));
  expect(readFileSync(join(dirs.results, "final.patch"), "utf8")).toContain("+setsid sh -c");
  expect(r.result.patch_result).toMatchObject({ pov_passed: 0, intent_test_success: false });
  expect(liveProcessesOf(uidOf(users.runner))).toEqual([]);
});

test("an agent that keeps forking (outside its group) is stopped at the end of the agent phase", async () => {
  dirs = newRun({ env: { TIMEOUT: "2" } });
  const r = await runEntrypoint(dirs, shAgent("setsid sh -c 'while :; do sleep 100 & sleep 0.01; done' & while :; do sleep 100 & sleep 0.01; done"));
  expect(r.exitCode).toBe(124);
  expect(r.result.patch_result.error_type).toBeNull(); // every process stopped, so it was graded
  expect(liveProcessesOf(uidOf(users.model))).toEqual([]);
});

test("variables handed to the container at run time reach no child; the image's own (recorded by prepare) do", async () => {
  dirs = newRun({
    plugins: [
      { name: "gradingp", hook: "after-grading", llm: true, script: 'env > "$SSE_ARCHIVE/env-plugin"' },
      { name: "agentp", hook: "before-agent", script: 'env > "$SSE_ARCHIVE/env-agent-plugin"' },
    ],
  });
  // The tool layer's RUN step: the image's environment is what prepare sees.
  const prep = Bun.spawnSync([entrypointBin, "prepare"], { env: { ...dirs.env, GOFLAGS: "-mod=vendor", LC_ALL: "C.UTF-8" }, stderr: "pipe" });
  expect(prep.exitCode).toBe(0);
  const build = join(dirs.taskRoot, "scripts/build.sh");
  writeFileSync(build, readFileSync(build, "utf8").replace("set -e\n", `set -e\nenv > /tmp/sse-env-build-${process.pid}\n`));
  dirs.env = { ...dirs.env, GOFLAGS: "-mod=vendor", LC_ALL: "C.UTF-8", AWS_SECRET_ACCESS_KEY: "leak-aws", DOCKER_HOST: "tcp://leak-docker", MY_TOKEN: "leak-token", NODE_OPTIONS: "--x", SSE_AGENT_ENV: "NODE_OPTIONS" };
  const r = await runEntrypoint(dirs, shAgent('env > "$SSE_ARCHIVE/env-agent"'));
  expect(r.exitCode).toBe(0);
  const seen = {
    agent: readFileSync(join(dirs.archive, "env-agent"), "utf8"),
    agentPlugin: readFileSync(join(dirs.archive, "env-agent-plugin"), "utf8"),
    gradingPlugin: readFileSync(join(dirs.archive, "env-plugin"), "utf8"),
    script: readFileSync(`/tmp/sse-env-build-${process.pid}`, "utf8"),
  };
  rmSync(`/tmp/sse-env-build-${process.pid}`);
  for (const [who, env] of Object.entries(seen)) {
    expect({ who, leaked: env.split("\n").filter((l) => l.includes("leak")) }).toEqual({ who, leaked: [] });
    expect(env).toContain("GOFLAGS=-mod=vendor");
    expect(env).toContain("LC_ALL=C.UTF-8");
    expect(env).toContain("TIMEOUT=60");
  }
  // Only the agent gets what its layer names in SSE_AGENT_ENV.
  expect(seen.agent).toContain("NODE_OPTIONS=--x");
  expect(seen.script).not.toContain("NODE_OPTIONS");
});

test("what the agent leaves in /tmp, /var/tmp and /dev/shm is gone before the grading scripts run", async () => {
  dirs = newRun();
  const planted = ["/tmp", "/var/tmp", "/dev/shm"].map((d) => `${d}/sse-planted-${process.pid}`);
  const build = join(dirs.taskRoot, "scripts/build.sh");
  // A build that would pick up a poisoned cache: it fails when a planted entry is there.
  writeFileSync(build, readFileSync(build, "utf8").replace("set -e\n", `set -e\nfor p in ${planted.join(" ")}; do test ! -e "$p"; done\n`));
  const r = await runEntrypoint(dirs, shAgent(planted.map((p) => `mkdir -p ${p}/cache && echo poison > ${p}/cache/obj`).join(" && ")));
  expect(r.exitCode).toBe(0);
  expect(r.result.patch_result).toMatchObject({ status: "failed", build_success: true, error_type: null });
  for (const p of planted) expect(existsSync(p)).toBe(false);
});
