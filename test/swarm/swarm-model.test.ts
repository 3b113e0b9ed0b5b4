/**
 * A model-using agent on the two-node test swarm: the real claude-code CLI (from the host's npm
 * cache, as test/e2e/agents.test.ts) works the demo task on the worker against the scripted model
 * behind the run's gateway here, reached only through the trial's relay (no network of its own
 * beyond the trial's internal overlay): graded passed, its model calls and spend in the run folder
 * on this machine as a local run's; a spent budget is reported as a local run reports it; the key
 * is in no `docker service inspect`; the oracle plugin (llm: true) after grading reaches the model
 * through the relay's plugin port and its call is marked as the plugin's; nothing is left on the swarm.
 * Runs with SSEBENCH_E2E=1 SSEBENCH_SWARM=1 and the swarm's variables (`swarm-two-node.sh env`).
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Summary } from "../../src/formats/run/summary.ts";
import type { LedgerEntry } from "../../src/gateway/ledger.ts";
import { trialNames } from "../../src/run/backends/swarm-service.ts";
import { ssebench, tempDir } from "../helpers/cli.ts";
import { agentModelsHome, DEMO_TASK, type DialogLine, demoDir, jsonl, readJson } from "../e2e/helpers.ts";
import { leftovers, nodes, nodeWithRole, onManager, SKIP, SWARM, swarmEnv, watchStarts } from "./helpers.ts";

setDefaultTimeout(1_800_000);
const results = tempDir("ssebench-swarm-model-");
const home = agentModelsHome();
// A model whose every answer is a verdict, for the oracle plugin (as test/e2e/oracle.test.ts).
writeFileSync(join(home.path, "models", "oracle-scripted.yaml"), "name: oracle-scripted\nprovider: scripted\nwires: [anthropic]\nprice: {input: 3, output: 15}\nscript: oracle-scripts/oracle.yaml\n");
mkdirSync(join(home.path, "models", "oracle-scripts"));
writeFileSync(join(home.path, "models", "oracle-scripts", "oracle.yaml"), 'turns:\n  - text: unused\nno_tools: "VERDICT: equivalent\\nBoth patches size the buffer for the longest escape."\nusage: {input: 1000, output: 50}\n');
afterAll(() => {
  results.cleanup();
  home.cleanup();
});
const SWARM_FLAGS = ["--backend", "swarm", "--constraint", "node.labels.ssebench.role==runner", "--cpus", "1", "--memory", "2g"];
const run = (model: string, id: string, extra: string[] = []) =>
  ssebench(["run", "--local", demoDir, "--task", DEMO_TASK, "--results", results.path, "--timeout", "600", "--agent", "claude-code", "--model", model, "--run-id", id, ...SWARM_FLAGS, ...extra], {
    env: swarmEnv(home.path),
  });
const runDir = (model: string, id: string) => join(results.path, DEMO_TASK, model, "claude-code", id);

describe.skipIf(!SWARM)(`a model-using agent on the two-node swarm${SKIP}`, () => {
  test("claude-code on the worker fixes the task through the relayed gateway: passed; calls and spend in the run folder here; nothing left", async () => {
    const worker = nodeWithRole("runner");
    const onWorker = watchStarts(nodes.get(worker) as string);
    const r = await run("scripted-fix", "swarm-cc-fix");
    const workerStarts = await onWorker.stop();
    expect(r.stdout).toContain("Grade: passed");
    expect(r.exitCode).toBe(0);
    const dir = runDir("scripted-fix", "swarm-cc-fix");
    const ledger = jsonl<LedgerEntry>(join(dir, "model-calls.jsonl"));
    expect(ledger.filter((c) => c.wire === "anthropic").length).toBeGreaterThanOrEqual(4);
    expect(ledger.every((c) => c.status === 200 && c.caller === "agent" && c.run === "swarm-cc-fix")).toBe(true);
    const summary = readJson<Summary>(join(dir, "summary.json"));
    expect(summary.patch_result.status).toBe("passed");
    expect(summary.model_calls).toBe(ledger.length);
    expect(summary.spend).toBeGreaterThan(0);
    expect(summary.spend).toBe(ledger.at(-1)?.spent as number);
    expect(summary.agent_run).toMatchObject({ driver: "claude-code", wire: "anthropic", turns: 4, budget_refused_calls: 0 });
    expect(jsonl<{ call: string; outcome: string }>(join(dir, "tool-calls.jsonl")).map((c) => [c.call, c.outcome])).toEqual([["test_patch", "passed"]]);
    expect(workerStarts.map((s) => s.runId)).toContain("swarm-cc-fix");
    expect(await leftovers()).toEqual([]);
  });

  test("a spent budget stops claude-code on the worker and the run says so as a local run does; the key is in no service spec", async () => {
    const r = await run("scripted-fix", "swarm-cc-budget", ["--budget", "0.0001", "--keep-container"]);
    const dir = runDir("scripted-fix", "swarm-cc-budget");
    const summary = readJson<Summary>(join(dir, "summary.json"));
    const ledger = jsonl<LedgerEntry>(join(dir, "model-calls.jsonl"));
    expect(ledger.some((c) => c.status === 400 && c.error?.includes("budget"))).toBe(true);
    expect(summary.agent_run.budget_refused_calls).toBeGreaterThan(0);
    expect(r.stderr).toContain(`The run's model budget of $0.0001 ran out: the gateway refused ${summary.agent_run.budget_refused_calls} call`);
    const dialog = jsonl<DialogLine>(join(dir, "archive", "dialog.jsonl"));
    expect(dialog.at(-1)).toMatchObject({ type: "complete", status: "error" });
    expect(JSON.stringify(dialog.at(-1))).toContain("Budget exhausted");
    // Kept: the trial's service and its relay container (on the manager's engine), neither holding the key (sk-ssebench-…).
    const names = trialNames("swarm-cc-budget");
    const service = onManager(["service", "inspect", names.service]);
    expect(service).toContain(names.modelSecret);
    expect(service).not.toContain("sk-ssebench-");
    const relay = onManager(["container", "inspect", names.relay]);
    expect(relay).toContain("/run/ssebench-model/model.sock");
    expect(relay).not.toContain("sk-ssebench-");
    onManager(["service", "rm", names.service]);
    onManager(["rm", "--force", names.relay]);
    for (const secret of [names.uploadSecret, names.modelSecret]) onManager(["secret", "rm", secret]);
    for (let i = 0; i < 40 && onManager(["network", "ls", "--quiet", "--filter", `name=${names.network}`]); i++) {
      onManager(["network", "rm", names.network]);
      await Bun.sleep(250);
    }
    expect(await leftovers()).toEqual([]);
  });

  test("the oracle plugin after grading reaches the model through the relay's plugin port: its call marked as the plugin's, the spend recorded", async () => {
    const args = ["run", "--local", demoDir, "--task", DEMO_TASK, "--results", results.path, "--agent", "reference", "--plugin", "oracle", "--model", "oracle-scripted", "--run-id", "swarm-oracle", ...SWARM_FLAGS];
    const r = await ssebench(args, { env: swarmEnv(home.path) });
    expect(r.stdout).toContain("Grade: passed");
    expect(r.exitCode).toBe(0);
    const dir = join(results.path, DEMO_TASK, "none", "reference", "swarm-oracle");
    expect(readJson<Record<string, unknown>>(join(dir, "archive", "oracle", "review.json"))).toMatchObject({ status: "ok", verdict: "equivalent", grade: "passed" });
    const calls = jsonl<LedgerEntry>(join(dir, "model-calls.jsonl"));
    expect(calls.map((c) => [c.caller, c.plugin, c.wire, c.status])).toEqual([["plugin", "oracle", "anthropic", 200]]);
    const summary = readJson<Summary>(join(dir, "summary.json"));
    expect(summary.model_calls).toBe(1);
    expect(summary.spend).toBeCloseTo((1000 * 3 + 50 * 15) / 1e6, 10);
    expect(await leftovers()).toEqual([]);
  });
});
