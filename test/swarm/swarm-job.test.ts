/**
 * A job on the two-node test swarm (setup/swarm-two-node.sh): the demo tasks × {reference, dummy}
 * with --backend swarm, placed on the worker by a constraint; the grades are the local ones, the run
 * folders are on this machine (the manager's), pushed home by each trial's entrypoint through its
 * relay (no docker cp: no node engine is asked for files), every trial's container ran on the worker, and
 * nothing is left on the swarm (services, networks, secrets, containers on the nodes). A trial whose
 * container is killed on the worker is retried; an interrupted run removes what it made.
 * Runs with SSEBENCH_E2E=1 SSEBENCH_SWARM=1 and the swarm's variables (`swarm-two-node.sh env`).
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { readTrials } from "../../src/jobs/store.ts";
import { ssebench, ssebenchBin, tempDir } from "../helpers/cli.ts";
import { demoDir, homeWithAgents, readJson } from "../e2e/helpers.ts";
import { dockerAt, leftovers, nodes, nodeWithRole, SKIP, SWARM, swarmEnv, watchStarts } from "./helpers.ts";

setDefaultTimeout(1_800_000);

const results = tempDir("ssebench-swarm-jobs-");
// napper: sleeps, then leaves no patch (a failed grade), so a killed first try has time to happen.
const home = homeWithAgents({ napper: `["sleep", "20"]` });
afterAll(() => {
  results.cleanup();
  home.cleanup();
});
const TASKS = ["htmlesc-quote-overflow", "fixedbuf-extend-overflow", "staticfs-encoded-traversal"];
const SWARM_FLAGS = ["--backend", "swarm", "--constraint", "node.labels.ssebench.role==runner", "--cpus", "1", "--memory", "2g"];

/** Images go to both nodes (trials run on the worker, each trial's results relay on the manager). */
const envFor = () => swarmEnv(home.path);

describe.skipIf(!SWARM)(`jobs on the two-node swarm${SKIP}`, () => {
  test("the demo tasks × {reference, dummy} on the worker: the reference resolves every task, dummy none; run folders here; nothing left", async () => {
    const worker = nodeWithRole("runner");
    expect(worker).not.toBe("");
    const managerEngine = nodes.get(nodeWithRole("manager")) as string;
    const onWorker = watchStarts(nodes.get(worker) as string);
    const onManagerEngine = watchStarts(managerEngine);
    const args = ["run", "--local", demoDir, ...TASKS.flatMap((t) => ["--task", t]), "--agent", "reference", "--agent", "dummy", "--jobs", "2", "--job", "demo", "--results", results.path, ...SWARM_FLAGS];
    const r = await ssebench(args, { env: envFor() });
    const [workerStarts, managerStarts] = [await onWorker.stop(), await onManagerEngine.stop()];
    expect(r.stdout).toBe(`Job demo: 6 trials: 3 passed, 3 failed, 0 errors\nJob directory: ${join(results.path, "jobs", "demo")}\n`);
    expect(r.exitCode).toBe(0);
    const records = readTrials(join(results.path, "jobs", "demo"));
    expect(Object.fromEntries(records.map((t) => [t.trial, t.status]))).toEqual(
      Object.fromEntries(TASKS.flatMap((t) => [[`${t}/none/reference/1`, "passed"], [`${t}/none/dummy/1`, "failed"]])),
    );
    for (const t of records) {
      const runDir = join(results.path, t.run_dir as string);
      // The results the entrypoint wrote on the worker, in the same layout as a local run.
      expect(readJson<{ patch_result: { status: string } }>(join(runDir, "result.json")).patch_result.status).toBe(t.status);
      expect(existsSync(join(runDir, "summary.json"))).toBe(true);
      expect(existsSync(join(runDir, "archive"))).toBe(true);
    }
    // Each trial's container ran on the worker; on the manager only each trial's relay.
    const ran = new Set(workerStarts.map((s) => s.runId));
    for (const t of records) expect(ran.has(t.run_id as string)).toBe(true);
    expect(managerStarts.map((s) => s.runId).sort()).toEqual(records.map((t) => t.run_id as string).sort());
    // The relays are plain containers there (no swarm task the scheduler would count).
    expect(managerStarts.every((s) => /^ssb-.*-relay$/.test(s.name))).toBe(true);
    expect(await leftovers()).toEqual([]);
  });

  test("a trial whose container is killed on the worker is retried (an infrastructure error); nothing left", async () => {
    const worker = nodeWithRole("runner");
    const engine = nodes.get(worker) as string;
    const args = ["run", "--local", demoDir, "--task", TASKS[0] as string, "--agent", "napper", "--retries", "1", "--job", "killed", "--results", results.path, ...SWARM_FLAGS];
    const proc = Bun.spawn([ssebenchBin, ...args], { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...envFor() }, stdout: "pipe", stderr: "pipe" });
    let killed = "";
    for (let i = 0; i < 2400 && !killed; i++) {
      const id = dockerAt(engine, ["ps", "--quiet", "--filter", "label=ssebench.agent=napper"]);
      if (id) killed = dockerAt(engine, ["kill", id]);
      else await Bun.sleep(250);
    }
    expect(killed).not.toBe("");
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    expect(stdout.split("\n")[0]).toBe("Job killed: 1 trials: 0 passed, 1 failed, 0 errors");
    expect(code).toBe(0);
    const records = readTrials(join(results.path, "jobs", "killed"));
    expect(records.map((t) => [t.try, t.status, t.error_type])).toEqual([
      [1, "error", "infra"],
      [2, "failed", null],
    ]);
    expect(stderr).toContain("napper #1: infrastructure error; retry 1 of 1");
    expect(await leftovers()).toEqual([]);
  });

  test("an interrupted ssebench run (SIGINT) removes its service, secret and network", async () => {
    const worker = nodeWithRole("runner");
    const engine = nodes.get(worker) as string;
    const args = ["run", "--local", demoDir, "--task", TASKS[0] as string, "--agent", "napper", "--results", results.path, ...SWARM_FLAGS];
    const proc = Bun.spawn([ssebenchBin, ...args], { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...envFor() }, stdout: "pipe", stderr: "pipe" });
    let running = "";
    for (let i = 0; i < 2400 && !running; i++) {
      running = dockerAt(engine, ["ps", "--quiet", "--filter", "label=ssebench.agent=napper"]);
      if (!running) await Bun.sleep(250);
    }
    expect(running).not.toBe("");
    proc.kill("SIGINT");
    expect(await proc.exited).toBe(130);
    expect(await leftovers()).toEqual([]);
  });
});
