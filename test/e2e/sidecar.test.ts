/**
 * Sidecar mode on a real engine (docs/container-contract.md §13, docs/agents.md "Sidecar agents"):
 * the agent's own image beside the task's container. The python-agent example (Debian's python3,
 * standard library only) fixes the demo task against a scripted model through the run's gateway
 * and is graded passed, as a shell agent on the plain Debian root image does with the mounted
 * `ssebench-entrypoint check`; a sidecar on the plain Debian root image changes nothing (failed) and
 * probes its walls (no network, the run's uid, no capability, nothing of the task's but the tree,
 * nothing left running); the time limit stops a sidecar that ignores TERM; plugins and a sidecar
 * FROM a case image are refused before anything runs; a job mixes a sidecar and a sandbox agent, and
 * `results` and `report` show both; Ctrl-C stops both containers.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Summary } from "../../src/formats/run/summary.ts";
import { readTrials } from "../../src/jobs/store.ts";
import { msg } from "../../src/run/messages.ts";
import { ssebench, tempDir } from "../helpers/cli.ts";
import { agentModelsHome, agentRunner, DEMO_TASK, demoDir, type DialogLine, docker, E2E, jsonl, readJson, SKIP_REASON, watchedSsebench } from "./helpers.ts";

setDefaultTimeout(900_000);
const results = tempDir("ssebench-e2e-sidecar-");
const home = agentModelsHome();
afterAll(() => {
  results.cleanup();
  home.cleanup();
});
const fixtures = join(import.meta.dir, "fixtures", "sidecar-agents");
const env = { DOCKER_HOST: process.env.DOCKER_HOST, SSEBENCH_HOME: home.path };
const base = ["run", "--local", demoDir, "--task", DEMO_TASK, "--results", results.path];
const { run, runDir } = agentRunner(results.path, home.path);

async function runFixture(agent: string, runId: string, extra: string[] = [], timeout = "600") {
  const r = await ssebench([...base, "--timeout", timeout, "--agent", join(fixtures, agent), "--run-id", runId, ...extra], { env });
  return { ...r, dir: join(results.path, DEMO_TASK, "none", agent, runId) };
}

/** What a sidecar run leaves on the engine besides its images: nothing once it is recorded. */
const leftovers = () => [docker(["ps", "--all", "--quiet", "--filter", "label=ssebench.sidecar"]), docker(["volume", "ls", "--quiet", "--filter", "name=ssebench-sidecar-"])].join("");

describe.skipIf(!E2E)(`sidecar mode on a real engine${SKIP_REASON}`, () => {
  test("the python-agent example, built FROM Debian's python3, fixes the demo task through the gateway: Grade: passed", async () => {
    const r = await run("python-agent", "scripted-python-fix", "py-1");
    expect(r.stdout.split("\n")[1]).toBe("Grade: passed");
    expect(r.exitCode).toBe(0);
    const dir = runDir("python-agent", "scripted-python-fix", "py-1");
    const summary = readJson<Summary>(join(dir, "summary.json"));
    expect(summary.config.mode).toBe("sidecar");
    expect(summary.patch_result).toMatchObject({ status: "passed", build_success: true, pov_passed: 1, func_test_success: true, intent_test_success: true });
    expect(summary.agent_run).toMatchObject({ wire: "chat", turns: 4 });
    // The sidecar image is the agent's; the task's container ran the tool layer.
    expect(summary.provenance.agent.image).not.toBe(summary.container.image);
    expect(readFileSync(join(dir, "final.patch"), "utf8")).toContain("+\t\tn += e != NULL ? strlen(e) : 1;");
    const dialog = jsonl<DialogLine>(join(dir, "archive", "dialog.jsonl"));
    expect(dialog.filter((l) => l.type === "tool" && l.status !== "running").map((l) => `${l.name}:${l.status}`)).toEqual(["bash:success", "bash:success", "test_patch:success"]);
    expect(dialog.at(-1)).toMatchObject({ type: "complete", status: "success", turns: 4 });
    expect(jsonl<{ call: string; outcome: string }>(join(dir, "tool-calls.jsonl")).map((c) => `${c.call}:${c.outcome}`)).toEqual(["POST /sse/v1/test_patch:passed"]);
    expect(jsonl<{ status: number }>(join(dir, "model-calls.jsonl")).map((c) => c.status)).toEqual([200, 200, 200, 200]);
    expect(leftovers()).toBe("");
  });

  test("a shell agent on the plain Debian root image fixes the demo task and checks it with ssebench-entrypoint check: Grade: passed", async () => {
    const r = await runFixture("sidecar-fixer", "fixer-1");
    expect(r.stdout.split("\n")[1]).toBe("Grade: passed");
    expect(r.exitCode).toBe(0);
    expect(readFileSync(join(r.dir, "archive", "check-all.txt"), "utf8")).toMatch(/^test_patch result: every check that ran passed\.[\s\S]*\nstatus 0\n$/);
    expect(readJson<Summary>(join(r.dir, "summary.json")).config.mode).toBe("sidecar");
  });

  describe("a sidecar on the plain Debian root image that changes nothing and probes its walls", () => {
    let probe: Awaited<ReturnType<typeof runFixture>>;
    const archived = (name: string) => readFileSync(join(probe.dir, "archive", name), "utf8");

    test("it is graded failed: the PoC still triggers", async () => {
      probe = await runFixture("sidecar-probe", "probe-1");
      expect(probe.stdout.split("\n")[0]).toBe(`Result: sidecar-probe agent on ${DEMO_TASK}: build passed, the PoC still triggers, tests passed, hidden tests failed`);
      expect(probe.stdout.split("\n")[1]).toBe("Grade: failed");
      expect(probe.exitCode).toBe(0);
      const summary = readJson<Summary>(join(probe.dir, "summary.json"));
      expect(summary.config.mode).toBe("sidecar");
      expect(summary.runtime_result.agent_exit_code).toBe(0);
      expect(readFileSync(join(probe.dir, "final.patch"), "utf8")).toBe("");
      // The agent's output reaches agent.log in the task's container through the log socket.
      expect(readFileSync(join(probe.dir, "agent.log"), "utf8")).toMatch(/^probe in \/src\/htmlesc as 1\d{9}\nprobe done\n$/);
      expect(leftovers()).toBe("");
    });

    test("it has no network: loopback only, nothing beyond answers, no name lookup; the tool API is on its 127.0.0.1:3000", () => {
      const interfaces = archived("net-dev").split("\n").slice(2).filter(Boolean).map((l) => l.trim().split(":")[0]);
      expect(interfaces).toEqual(["lo"]);
      expect(archived("connect")).toBe("1.1.1.1/53 unreachable\n10.0.0.1/80 unreachable\n172.17.0.1/2375 unreachable\n");
      expect(archived("dns")).toEndWith("status 2\n");
      expect(archived("project")).toStartWith("HTTP/1.1 200");
      expect(archived("project")).toContain(`"id": "${DEMO_TASK}"`);
    });

    test("least privilege: the run's own uid, no capability, no_new_privs; a setuid binary of its image gives nothing", () => {
      const uid = Number(archived("uid"));
      expect(uid).toBeGreaterThanOrEqual(1_000_000_000);
      expect(uid % 2).toBe(0);
      expect(Number(archived("suid-uid"))).toBe(uid);
      const status = archived("status");
      expect(status).toContain("CapBnd:\t0000000000000000");
      expect(status).toContain("CapEff:\t0000000000000000");
      expect(status).toContain("NoNewPrivs:\t1");
    });

    test("nothing of the task's but the tree: no task files, results, gateway folder or reference patch; the sockets cannot be listed; the entrypoint is read-only", () => {
      expect(archived("absent")).toBe("/ssebench absent\n/var/lib/ssebench absent\n/run/ssebench absent\n/reference absent\n");
      expect(archived("sockets-listing")).toEndWith("status 2\n");
      expect(archived("entrypoint")).toBe("entrypoint read-only\n");
    });

    test("what it left running ended with the agent phase", async () => {
      const late = join(probe.dir, "archive", "late");
      const size = statSync(late).size;
      await Bun.sleep(1000);
      expect(statSync(late).size).toBe(size);
      expect(size).toBeGreaterThan(0);
    });
  });

  test("the time limit stops a sidecar that ignores TERM; the run is graded", async () => {
    const r = await runFixture("sidecar-sleeper", "sleep-1", [], "5");
    expect(r.exitCode).toBe(0);
    const summary = readJson<Summary>(join(r.dir, "summary.json"));
    expect(summary.runtime_result).toMatchObject({ agent_timeout: true, agent_exit_code: 124 });
    expect(summary.patch_result.status).toBe("failed");
    expect(readFileSync(join(r.dir, "agent.log"), "utf8")).toBe("sleeping\n");
    expect(leftovers()).toBe("");
  });

  test("--plugin with a sidecar agent is refused before anything is built or run", async () => {
    const r = await runFixture("sidecar-probe", "plugin-1", ["--plugin", "artifact"]);
    expect(r.stderr).toBe(`${msg.pluginSidecar()}\n`);
    expect(r.exitCode).toBe(1);
    expect(existsSync(r.dir)).toBe(false);
  });

  test("hostile: a sidecar image FROM the task's case image is refused before the build", async () => {
    const r = await runFixture("sidecar-case-image", "case-1");
    const image = "ghcr.io/42-b3yond-6ug/ssebench/case/demo/htmlesc-quote-overflow:latest";
    expect(r.stderr.trim().split("\n").at(-1)).toBe(
      msg.agentRefused(`${join(fixtures, "sidecar-case-image", "Dockerfile")}:2`, "sidecar-case-image", `FROM ${image}`, `it is a case image of task ${DEMO_TASK}: a sidecar runs beside the task, never with its files`),
    );
    expect(r.exitCode).toBe(1);
    expect(docker(["image", "ls", "--quiet", "ghcr.io/42-b3yond-6ug/ssebench/agent-sidecar/sidecar-case-image"])).toBe("");
  });

  test("a job runs a sidecar and a sandbox agent side by side and records both like any trials", async () => {
    const r = await ssebench([...base, "--timeout", "600", "--agent", join(fixtures, "sidecar-probe"), "--agent", "dummy", "--job", "mixed", "--attempts", "1"], { env });
    expect(r.stdout.split("\n")[0]).toBe("Job mixed: 2 trials: 0 passed, 2 failed, 0 errors");
    const trials = readTrials(join(results.path, "jobs", "mixed"));
    expect(trials.map((t) => `${t.agent}:${t.status}`).sort()).toEqual(["dummy:failed", "sidecar-probe:failed"]);
    const modes = readdirSync(join(results.path, DEMO_TASK, "none")).sort().map((agent) => {
      const [id] = readdirSync(join(results.path, DEMO_TASK, "none", agent)).filter((d) => d !== "latest");
      return `${agent}:${readJson<Summary>(join(results.path, DEMO_TASK, "none", agent, id as string, "summary.json")).config.mode}`;
    });
    expect(modes).toContain("sidecar-probe:sidecar");
    expect(modes).toContain("dummy:sandbox");
    const listed = await ssebench(["results", "mixed", "--results", results.path], { env });
    expect(listed.exitCode).toBe(0);
    expect(listed.stdout).toContain("sidecar-probe");
    const page = join(results.path, "mixed.html");
    const report = await ssebench(["report", "mixed", "--results", results.path, "-o", page], { env });
    expect(report.exitCode).toBe(0);
    const html = readFileSync(page, "utf8");
    for (const agent of ["sidecar-probe", "dummy"]) expect(html).toContain(agent);
  });

  test("Ctrl-C stops both containers and records an interrupted run (exit 130), leaving nothing on the engine", async () => {
    const run = watchedSsebench([...base, "--timeout", "600", "--agent", join(fixtures, "sidecar-sleeper"), "--run-id", "ctrl-c-1"], env);
    await run.until("Agent started in the sidecar");
    run.proc.kill("SIGINT");
    await run.rest();
    expect(await run.proc.exited).toBe(130);
    const summary = readJson<Summary>(join(results.path, DEMO_TASK, "none", "sidecar-sleeper", "ctrl-c-1", "summary.json"));
    expect(summary.interrupted).toBe("SIGINT");
    expect(summary.patch_result).toMatchObject({ status: "error", error_type: "interrupted" });
    expect(leftovers()).toBe("");
  });
});
