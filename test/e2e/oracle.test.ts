/**
 * The oracle plugin on a real engine: the reference agent fixes the C demo task, then
 * `--plugin oracle` asks a scripted model (whose answer is a verdict) through the run's gateway
 * socket and the container's 127.0.0.1:4000 forwarder; the review, the plugin report, the ledger
 * (a plugin call) and summary.json (spend) agree, and the grade is the reference's.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Summary } from "../../src/formats/run/summary.ts";
import type { LedgerEntry } from "../../src/gateway/ledger.ts";
import { repoRoot, ssebench, tempDir } from "../helpers/cli.ts";
import { DEMO_TASK, demoDir, E2E, homeWithAgents, readJson, SKIP_REASON } from "./helpers.ts";

setDefaultTimeout(900_000);
const results = tempDir("ssebench-e2e-oracle-");
const home = homeWithAgents({});
// The checkout's models plus one whose every answer is a verdict.
rmSync(join(home.path, "models"));
cpSync(join(repoRoot, "models"), join(home.path, "models"), { recursive: true });
writeFileSync(
  join(home.path, "models", "oracle-scripted.yaml"),
  "name: oracle-scripted\nprovider: scripted\nwires: [anthropic]\nprice: {input: 3, output: 15}\nscript: scripts/oracle.yaml\n",
);
mkdirSync(join(home.path, "models", "scripts"), { recursive: true });
writeFileSync(
  join(home.path, "models", "scripts", "oracle.yaml"),
  'turns:\n  - text: unused\nno_tools: "VERDICT: equivalent\\nBoth patches size the buffer for the longest escape."\nusage: {input: 1000, output: 50}\n',
);
afterAll(() => {
  results.cleanup();
  home.cleanup();
});
const env = { DOCKER_HOST: process.env.DOCKER_HOST, SSEBENCH_HOME: home.path };
const CALL_COST = (1000 * 3 + 50 * 15) / 1e6;

describe.skipIf(!E2E)(`the oracle plugin on a real engine${SKIP_REASON}`, () => {
  test("reference agent + --plugin oracle: the scripted verdict in the review, a plugin call in the ledger, the spend in summary.json", async () => {
    const args = ["run", "--local", demoDir, "--task", DEMO_TASK, "--results", results.path, "--agent", "reference", "--plugin", "oracle", "--model", "oracle-scripted", "--run-id", "oracle-1"];
    const r = await ssebench(args, { env });
    expect(r.stdout).toContain("Grade: passed");
    expect(r.exitCode).toBe(0);
    expect(r.stderr).not.toContain("ignoring --model");
    const runDir = join(results.path, DEMO_TASK, "none", "reference", "oracle-1");
    const review = readJson<Record<string, unknown>>(join(runDir, "archive", "oracle", "review.json"));
    expect(review).toMatchObject({ status: "ok", verdict: "equivalent", grade: "passed", model: "oracle-scripted", wire: "anthropic", tokens: { input: 1000, output: 50, cache_read: 0, cache_write: 0 } });
    expect(review.cost).toBeCloseTo(CALL_COST, 10);
    expect(readFileSync(join(runDir, "archive", "oracle", "review.txt"), "utf8")).toStartWith("Verdict: equivalent\nGrade: passed\nModel: oracle-scripted (anthropic)\n");
    const dialog = readFileSync(join(runDir, "archive", "oracle", "dialog.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l).type);
    expect(dialog).toEqual(["init", "prompt", "message", "complete"]);
    const calls = readFileSync(join(runDir, "model-calls.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as LedgerEntry);
    // The model lookup (GET /v1/models/{id}) is not a call; the one review is, marked as the plugin's.
    expect(calls.map((c) => [c.caller, c.plugin, c.wire, c.status])).toEqual([["plugin", "oracle", "anthropic", 200]]);
    const summary = readJson<Summary>(join(runDir, "summary.json"));
    expect(summary.patch_result.status).toBe("passed");
    expect(summary.plugin_results.map((p) => [p.name, p.status])).toEqual([["oracle", "ok"]]);
    expect(summary.spend).toBeCloseTo(CALL_COST, 10);
    expect(summary.model_calls).toBe(1);
    expect(summary.config.model).toBe("none");
  });
});
