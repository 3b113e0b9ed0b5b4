/**
 * Real agent CLIs end to end, offline: `ssebench run --agent claude-code` builds the agent layer
 * from the CLI installed from npm on the host, and the real CLI works the demo task against the
 * scripted model behind the run's real gateway (test/e2e/fixtures/agent-models): a script that
 * fixes the bug with the agent's own tools and calls test_patch passes; one that gives up fails;
 * a spent budget stops the agent at once and the run says why.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Summary } from "../../src/formats/run/summary.ts";
import type { LedgerEntry } from "../../src/gateway/ledger.ts";
import { ssebench, tempDir } from "../helpers/cli.ts";
import { agentModelsHome, agentRunner, DEMO_TASK, demoDir, type DialogLine, E2E, jsonl, readJson, SKIP_REASON } from "./helpers.ts";

setDefaultTimeout(900_000);
const results = tempDir("ssebench-e2e-agents-");
const home = agentModelsHome();
afterAll(() => {
  results.cleanup();
  home.cleanup();
});
const { run, runDir } = agentRunner(results.path, home.path);

describe.skipIf(!E2E)(`real agent CLIs against the scripted model${SKIP_REASON}`, () => {
  test("claude-code: read, edit, test_patch, stop → passed; dialog, tool calls, model calls and spend recorded", async () => {
    const r = await run("claude-code", "scripted-fix", "cc-fix");
    expect(r.stdout).toContain("Grade: passed");
    expect(r.exitCode).toBe(0);
    const dir = runDir("claude-code", "scripted-fix", "cc-fix");
    const dialog = jsonl<DialogLine>(join(dir, "archive", "dialog.jsonl"));
    expect(dialog.map((d) => d.seq)).toEqual(dialog.map((_, i) => i));
    expect(dialog[0]?.type).toBe("init");
    expect(dialog[0]?.data).toMatchObject({ task: DEMO_TASK, model: "scripted-fix", agent: "claude-code", cwd: "/src/htmlesc" });
    expect(dialog[1]?.type).toBe("prompt");
    const tools = dialog.filter((d) => d.type === "tool").map((d) => [d.name, d.status]);
    expect(tools).toEqual([
      ["Read", "running"],
      ["Read", "success"],
      ["Edit", "running"],
      ["Edit", "success"],
      ["mcp__ssebench__test_patch", "running"],
      ["mcp__ssebench__test_patch", "success"],
    ]);
    const last = dialog.at(-1) as DialogLine;
    expect(last.type).toBe("complete");
    expect(last.status).toBe("success");
    expect(last.turns).toBe(4);
    expect(existsSync(join(dir, "archive", "claude-code.stream.jsonl"))).toBe(true);
    const calls = jsonl<{ call: string; outcome: string }>(join(dir, "tool-calls.jsonl"));
    expect(calls.map((c) => [c.call, c.outcome])).toEqual([["test_patch", "passed"]]);
    const ledger = jsonl<LedgerEntry>(join(dir, "model-calls.jsonl"));
    const toolTurns = ledger.filter((c) => c.wire === "anthropic");
    expect(toolTurns.length).toBeGreaterThanOrEqual(4);
    expect(ledger.every((c) => c.status === 200)).toBe(true);
    const summary = readJson<Summary>(join(dir, "summary.json"));
    expect(summary.patch_result.status).toBe("passed");
    expect(summary.tool_calls).toBe(1);
    expect(summary.model_calls).toBe(ledger.length);
    expect(summary.spend).toBeGreaterThan(0);
    expect(summary.spend).toBe(ledger.at(-1)?.spent as number);
    expect(summary.provenance.agent).toMatchObject({ name: "claude-code", version: "2.1.332" });
    expect(summary.agent_run).toEqual({ driver: "claude-code", cli: "@anthropic-ai/claude-code@2.1.332", wire: "anthropic", turns: 4, budget_refused_calls: 0 });
    expect(summary.tokens.output).toBeGreaterThanOrEqual(80);
  });

  test("claude-code: a script that gives up → failed", async () => {
    const r = await run("claude-code", "scripted-give-up", "cc-give-up");
    expect(r.stdout).toContain("Grade: failed");
    const dialog = jsonl<DialogLine>(join(runDir("claude-code", "scripted-give-up", "cc-give-up"), "archive", "dialog.jsonl"));
    expect(dialog.filter((d) => d.type === "tool")).toEqual([]);
    expect(dialog.at(-1)).toMatchObject({ type: "complete", status: "success", turns: 1 });
  });

  test("claude-code: a spent budget stops the agent promptly and the run says why", async () => {
    const started = performance.now();
    const r = await run("claude-code", "scripted-fix", "cc-budget", ["--budget", "0.0001"]);
    const dir = runDir("claude-code", "scripted-fix", "cc-budget");
    const summary = readJson<Summary>(join(dir, "summary.json"));
    expect(summary.runtime_result.agent_duration).toBeLessThan(60);
    expect(performance.now() - started).toBeLessThan(300_000);
    const ledger = jsonl<LedgerEntry>(join(dir, "model-calls.jsonl"));
    expect(ledger.some((c) => c.status === 400)).toBe(true);
    expect(summary.agent_run.budget_refused_calls).toBeGreaterThan(0);
    expect(r.stderr).toContain(`The run's model budget of $0.0001 ran out: the gateway refused ${summary.agent_run.budget_refused_calls} call`);
    const dialog = jsonl<DialogLine>(join(dir, "archive", "dialog.jsonl"));
    expect(dialog.at(-1)).toMatchObject({ type: "complete", status: "error" });
    expect(JSON.stringify(dialog.at(-1))).toContain("Budget exhausted");
  });

  test("claude-code stopped by --timeout 1: recorded as the time limit, never as 'check the model's key'", async () => {
    const env = { DOCKER_HOST: process.env.DOCKER_HOST, SSEBENCH_HOME: home.path, SSEBENCH_NPM_CACHE: process.env.SSEBENCH_NPM_CACHE };
    const args = ["run", "--local", demoDir, "--task", DEMO_TASK, "--results", results.path, "--timeout", "1", "--agent", "claude-code", "--model", "scripted-slow", "--run-id", "cc-timeout"];
    const r = await ssebench(args, { env });
    const dir = runDir("claude-code", "scripted-slow", "cc-timeout");
    const summary = readJson<Summary>(join(dir, "summary.json"));
    expect(summary.runtime_result.agent_timeout).toBe(true);
    expect(summary.patch_result.error_type).not.toBe("no_model_call");
    expect(summary.patch_result.status).toBe("failed");
    expect(r.stdout).toContain("the agent timed out after 1s (--timeout)");
    expect(r.stdout).not.toContain("check the model's key");
  });
});
