/**
 * The runtime's walls in real containers: two runs at once, one a perl fork bomb that keeps its
 * container's pids limit (and its per-uid RLIMIT_NPROC) full through its agent phase, the other
 * the reference agent. Each run has its own uids; the bomb is graded `failed` like any agent that
 * changed nothing, and the other run passes as it does alone. And the host-side runtime tests,
 * whose users' processes are all killed, can no longer reach a live run's (issue 19: they had the
 * container users' uids 1000/999).
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Summary } from "../../src/formats/run/summary.ts";
import { entrypointBin, ssebench, tempDir } from "../helpers/cli.ts";
import { dropUsers, ensureUsers, newRun, runEntrypoint, shAgent } from "../runtime/harness.ts";
import { DEMO_TASK, demoDir, E2E, homeWithAgents, readJson, SKIP_REASON } from "./helpers.ts";

setDefaultTimeout(900_000);

// Notes its uid and limits, then forks for 15 s (every child too) with the limit full.
const bomb = `open my $l, "<", "/proc/self/limits"; open my $f, ">", "$ENV{SSE_ARCHIVE}/bomb.txt"; print $f "uid $<\\n", grep { /^Max processes/ } <$l>; close $f; my $t = time + 15; while (time < $t) { fork }`;
const home = homeWithAgents({
  bomber: JSON.stringify(["perl", "-e", bomb]),
  uidnote: JSON.stringify(["sh", "-c", 'id -u > "$SSE_ARCHIVE/uid.txt"']),
  napper: JSON.stringify(["sh", "-c", 'touch "$SSE_ARCHIVE/napping"; sleep 20']),
  // 2 GiB outside the tree and the archive (sparse: the engine counts apparent sizes), then waits.
  filler: JSON.stringify(["sh", "-c", 'truncate -s 2G /tmp/fill && touch "$SSE_ARCHIVE/filled" && sleep 300']),
});
const results = tempDir("ssebench-e2e-walls-");
afterAll(() => {
  results.cleanup();
  home.cleanup();
});
const env = { DOCKER_HOST: process.env.DOCKER_HOST, SSEBENCH_HOME: home.path };
const base = ["run", "--local", demoDir, "--task", DEMO_TASK, "--results", results.path, "--timeout", "600"];
const runDir = (agent: string, id: string) => join(results.path, DEMO_TASK, "none", agent, id);

describe.skipIf(!E2E)(`runtime walls on a real engine${SKIP_REASON}`, () => {
  test("a fork bomb in one run leaves a concurrent run unaffected; each run has its own uids", async () => {
    const [bombed, other] = await Promise.all([
      ssebench([...base, "--agent", "bomber", "--run-id", "bomb-1", "--pids-limit", "512", "--cpus", "1"], { env }),
      ssebench([...base, "--agent", "reference", "--run-id", "beside-1"], { env }),
    ]);
    expect(other.exitCode).toBe(0);
    expect(other.stdout).toContain("Grade: passed");
    expect(bombed.exitCode).toBe(0);
    const b = readJson<Summary>(join(runDir("bomber", "bomb-1"), "summary.json"));
    // The bomb changed nothing: graded like the dummy agent, every check ran, no error.
    expect(b.patch_result).toMatchObject({ status: "failed", build_success: true, pov_passed: 0, func_test_success: true, error_type: null });
    const notes = readFileSync(join(runDir("bomber", "bomb-1"), "archive", "bomb.txt"), "utf8");
    const uid = Number(/^uid (\d+)$/m.exec(notes)?.[1]);
    expect(uid).toBeGreaterThanOrEqual(1_000_000_000);
    expect(uid).toBeLessThan(1_500_000_000);
    // pids limit 512 less the grader's reserve of 128 (a quarter)
    expect(notes).toMatch(/^Max processes\s+384\s+384\s/m);
    const o = readJson<Summary>(join(runDir("reference", "beside-1"), "summary.json"));
    expect(o.patch_result.checks.every((c) => c.status === "passed")).toBe(true);
    console.log(`bombed run: ${b.timings_ms?.total} ms; run beside it: ${o.timings_ms?.total} ms`);
  });

  test("a container that writes past --disk to its own layer is stopped and failed; the layer's size is reported", async () => {
    const started = performance.now();
    const r = await ssebench([...base, "--agent", "filler", "--run-id", "fill-1", "--disk", "1g"], { env });
    expect(r.exitCode).toBe(0);
    // Stopped by the watch (this engine has no quota: overlay2 on ext4), long before the agent's 300 s.
    expect(performance.now() - started).toBeLessThan(200_000);
    const s = readJson<Summary>(join(runDir("filler", "fill-1"), "summary.json"));
    expect(existsSync(join(runDir("filler", "fill-1"), "archive", "filled"))).toBe(true);
    expect(s.config.resources.disk).toBe("1g");
    expect(s.patch_result).toMatchObject({ status: "failed", error_type: "agent_resources" });
    expect(s.patch_result.error_msg).toMatch(/^The container wrote \d+ bytes to its own disk, over --disk 1g, and was stopped$/);
    expect(s.disk_usage.container_bytes).toBeGreaterThan(2 * 1024 ** 3);
  });

  test("two runs get different uids, none of them the tool layer's 1000", async () => {
    const [a, b] = await Promise.all(["uid-a", "uid-b"].map((id) => ssebench([...base, "--agent", "uidnote", "--run-id", id], { env })));
    expect(a!.exitCode).toBe(0);
    expect(b!.exitCode).toBe(0);
    const uids = ["uid-a", "uid-b"].map((id) => Number(readFileSync(join(runDir("uidnote", id), "archive", "uid.txt"), "utf8")));
    expect(uids[0]).not.toBe(uids[1]);
    for (const u of uids) expect(u).toBeGreaterThanOrEqual(1_000_000_000);
  });

  test("the host-side runtime tests (kill -KILL -1 as their users) beside a live run do not harm it", async () => {
    ensureUsers();
    const live = ssebench([...base, "--agent", "napper", "--run-id", "nap-1"], { env });
    // Wait until the run's agent is asleep in its container, then attack from the host.
    while (!existsSync(join(runDir("napper", "nap-1"), "archive", "napping"))) await Bun.sleep(200);
    const dirs = newRun();
    try {
      const host = await runEntrypoint(dirs, shAgent("kill -KILL -1; exit 0"));
      expect(host.result.patch_result.status).toBe("failed");
    } finally {
      dirs.cleanup();
      dropUsers();
    }
    const r = await live;
    expect(r.exitCode).toBe(0);
    const s = readJson<Summary>(join(runDir("napper", "nap-1"), "summary.json"));
    // The agent slept its 20 s out (exit 0, not 137) and every check ran as usual.
    expect(s.runtime_result).toMatchObject({ agent_exit_code: 0 });
    expect(s.patch_result).toMatchObject({ status: "failed", build_success: true, pov_passed: 0, func_test_success: true, error_type: null });
  });
});

describe.skipIf(!E2E)(`no_new_privs fails closed${SKIP_REASON}`, () => {
  test("a container where prctl(PR_SET_NO_NEW_PRIVS) is refused (seccomp) never starts the agent: one line, exit 1", () => {
    const profile = join(results.path, "no-nnp-seccomp.json");
    const refuse = { names: ["prctl"], action: "SCMP_ACT_ERRNO", args: [{ index: 0, value: 38, op: "SCMP_CMP_EQ" }] };
    writeFileSync(profile, JSON.stringify({ defaultAction: "SCMP_ACT_ALLOW", syscalls: [refuse] }));
    const r = Bun.spawnSync(["docker", "run", "--rm", "--init", "--network", "none", "--security-opt", `seccomp=${profile}`,
      "--mount", `type=bind,source=${entrypointBin},target=/usr/local/bin/ssebench-entrypoint,readonly`, "--entrypoint", "/usr/local/bin/ssebench-entrypoint",
      "-e", "SSE_ARCHIVE=/tmp", "ssebench/debian-root:bookworm", "--mode", "sandbox", "--", "sh", "-c", "echo AGENT-RAN"]);
    expect(r.stdout.toString()).toBe("");
    expect(r.stderr.toString()).toBe("ssebench-entrypoint: cannot set no_new_privs, refusing to run the agent without it: prctl(PR_SET_NO_NEW_PRIVS, 1): EPERM\n");
    expect(r.exitCode).toBe(1);
  });
});
