/**
 * Hostile agents against the host's walls, for real: `ssebench run` on a real engine with agent
 * folders that attack it (test/e2e/fixtures/hostile-agents/<name>, each Dockerfile says its attack).
 * docs/container-contract.md "Hostile agents" lists each class, its defence and the test here.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { Summary } from "../../src/formats/run/summary.ts";
import { msg } from "../../src/run/messages.ts";
import { ssebench, tempDir } from "../helpers/cli.ts";
import { DEMO_TASK, demoDir, E2E, homeWithAgents, hostileAgentsDir, readJson, SKIP_REASON } from "./helpers.ts";

setDefaultTimeout(900_000);
const results = tempDir("ssebench-e2e-hostile-");
const home = homeWithAgents({}, readdirSync(hostileAgentsDir));
afterAll(() => {
  results.cleanup();
  home.cleanup();
});
const env = { DOCKER_HOST: process.env.DOCKER_HOST, SSEBENCH_HOME: home.path };
const base = ["run", "--local", demoDir, "--task", DEMO_TASK, "--results", results.path, "--timeout", "600"];
const dockerfile = (agent: string) => join(home.path, "agents", agent, "Dockerfile");
const runDir = (agent: string, runId: string) => join(results.path, DEMO_TASK, "none", agent, runId);

async function run(agent: string, runId: string, extra: string[] = []) {
  const r = await ssebench([...base, "--agent", agent, "--run-id", runId, ...extra], { env });
  return { ...r, dir: runDir(agent, runId) };
}

describe.skipIf(!E2E)(`hostile agents on a real engine${SKIP_REASON}`, () => {
  describe("the agent layer cannot read the answers or replace the grader", () => {
    const why = {
      from: "an agent's stages start FROM scratch or an earlier stage, so no task file is readable where agent files are built",
      pinned: "the run pins ssebench-entrypoint and runs it as root",
      sse: "SSE_* variables steer the entrypoint and the grader",
      env: "it would change the environment of the entrypoint or of the grading scripts",
    };
    const refusedBeforeAnyRun: [string, number, string, string][] = [
      ["copy-answers", 3, "FROM ${TOOL_IMAGE}", why.from],
      ["case-image", 2, "FROM ghcr.io/42-b3yond-6ug/ssebench/case/demo/htmlesc-quote-overflow:latest", why.from],
      ["fake-entrypoint", 4, "ENTRYPOINT", why.pinned],
      ["root-user", 4, "USER", why.pinned],
      ["sse-env", 4, "ENV SSE_TASK_ROOT", why.sse],
    ];
    for (const [agent, line, what, reason] of refusedBeforeAnyRun) {
      test(`${agent}: refused with one line naming the agent and the instruction; no run folder, no container`, async () => {
        const r = await run(agent, `${agent}-1`);
        expect(r.exitCode).toBe(1);
        expect(r.stderr.trim()).toBe(msg.agentRefused(`${dockerfile(agent)}:${line}`, agent, what, reason));
        expect(existsSync(r.dir)).toBe(false);
      });
    }

    // Neither is an SSE_* name, so the Dockerfile passes; the files image's config is checked against the tool layer's.
    for (const [agent, name] of [["ld-preload", "LD_PRELOAD"], ["path-override", "PATH"]]) {
      test(`${agent}: the built image's ENV ${name} is refused before the agent layer is built`, async () => {
        const r = await run(agent as string, `${agent}-1`);
        const line = msg.agentRefused(`${dockerfile(agent as string)} (image)`, agent as string, `ENV ${name}`, why.env);
        expect(r.exitCode).toBe(1);
        expect(r.stderr).toContain(line);
        expect(readJson<Summary>(join(r.dir, "summary.json")).patch_result).toMatchObject({ status: "error", error_type: "infra", error_msg: line });
      });
    }
  });

  describe("the host never trusts a file the agent controls", () => {
    test("a forged archive/plugins/results.json with no plugin selected never reaches summary.json", async () => {
      const r = await run("forge-plugins", "forge-1");
      expect(r.exitCode).toBe(0);
      expect(existsSync(join(r.dir, "archive", "plugins", "results.json"))).toBe(true); // it is there, and ignored
      const summary = readJson<Summary>(join(r.dir, "summary.json"));
      expect(summary.plugin_results).toEqual([]);
      expect(summary.patch_result.status).toBe("failed");
    });

    test("a FIFO at archive/plugins/results.json does not hang the run", async () => {
      const r = await run("fifo-plugins", "fifo-1");
      expect(r.exitCode).toBe(0);
      expect(readJson<Summary>(join(r.dir, "summary.json")).plugin_results).toEqual([]);
    });

    test("symlinks to /dev/zero and /etc/shadow in the archive are never followed", async () => {
      const r = await run("link-plugins", "link-1", ["--plugin", "artifact"]);
      expect(r.exitCode).toBe(0);
      const summary = readJson<Summary>(join(r.dir, "summary.json"));
      // the entrypoint replaced the agent's plugins/ with its own report; the host read the root-owned copy
      expect(summary.plugin_results).toEqual([expect.objectContaining({ name: "artifact", status: "ok" })]);
      expect(readFileSync(join(r.dir, "archive", "plugins", "artifact.log"), "utf8")).not.toContain("root:");
    });

    test("a tree deeper than PATH_MAX and setgid/setuid/world-writable entries are handed back whole and safe", async () => {
      const r = await run("deep-tree", "deep-1");
      expect(r.exitCode).toBe(0);
      const find = (...args: string[]) => Bun.spawnSync(["find", join(r.dir, "archive"), ...args]).stdout.toString().trim();
      expect(find("-name", "leaf").length).toBeGreaterThan(4096);
      expect(find("!", "-uid", String(process.getuid?.()))).toBe("");
      expect(find("!", "-type", "l", "-perm", "/7022")).toBe("");
      const summary = readJson<Summary>(join(r.dir, "summary.json"));
      expect(summary.disk_usage.archive_bytes).toBeGreaterThan(3600 * 512);
      expect(Bun.spawnSync(["rm", "-rf", join(r.dir, "archive")]).exitCode).toBe(0);
    });
  });

  test("exit 137 after an OOM-killed child keeps the graded `failed`", async () => {
    const r = await run("oom-137", "oom-1", ["--memory", "384m"]);
    expect(r.exitCode).toBe(0);
    const summary = readJson<Summary>(join(r.dir, "summary.json"));
    expect(summary.container).toMatchObject({ oom_killed: true, exit_code: 137 });
    expect(summary.runtime_result.agent_exit_code).toBe(137);
    expect(summary.patch_result).toMatchObject({ status: "failed", build_success: true, error_type: null });
  });

  test("least privilege: no_new_privs, only the entrypoint's capabilities in the bounding set, no setuid/setgid file", async () => {
    const r = await run("privileges", "priv-1");
    expect(r.exitCode).toBe(0);
    const status = readFileSync(join(r.dir, "archive", "status"), "utf8");
    // CHOWN 0, DAC_OVERRIDE 1, FOWNER 3, KILL 5, SETGID 6, SETUID 7
    expect(status).toContain("CapBnd:\t00000000000000eb");
    expect(status).toContain("CapEff:\t0000000000000000");
    expect(status).toContain("NoNewPrivs:\t1");
    expect(readFileSync(join(r.dir, "archive", "setuid"), "utf8")).toBe("");
  });
});
