/**
 * The real OpenCode CLI end to end, offline: `ssebench run --agent opencode` builds the agent
 * layer from the CLI installed from npm on the host, and opencode works the demo task against the
 * scripted model behind the run's real gateway (test/e2e/fixtures/agent-models) on both of its
 * wires: a script that fixes the bug with opencode's own read and edit tools and calls
 * test_patch passes; one that gives up fails; a spent budget stops it at the first refused call.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Summary } from "../../src/formats/run/summary.ts";
import type { LedgerEntry } from "../../src/gateway/ledger.ts";
import { tempDir } from "../helpers/cli.ts";
import { agentModelsHome, agentRunner, DEMO_TASK, type DialogLine, E2E, jsonl, readJson, SKIP_REASON } from "./helpers.ts";

setDefaultTimeout(900_000);
const results = tempDir("ssebench-e2e-opencode-");
const home = agentModelsHome();
afterAll(() => {
  results.cleanup();
  home.cleanup();
});
const { run, runDir } = agentRunner(results.path, home.path);

describe.skipIf(!E2E)(`the real opencode CLI against the scripted model${SKIP_REASON}`, () => {
  // scripted-fix-opencode lists anthropic first, scripted-fix-opencode-chat only chat.
  for (const [model, wire, id] of [
    ["scripted-fix-opencode", "anthropic", "opencode-fix"],
    ["scripted-fix-opencode-chat", "chat", "opencode-fix-chat"],
  ] as const) {
    test(`opencode (${wire} wire): read, edit, test_patch, stop → passed; dialog, tool calls, model calls and spend recorded`, async () => {
      const r = await run("opencode", model, id);
      expect(r.stdout).toContain("Grade: passed");
      expect(r.exitCode).toBe(0);
      const dir = runDir("opencode", model, id);
      const dialog = jsonl<DialogLine>(join(dir, "archive", "dialog.jsonl"));
      expect(dialog.map((d) => d.seq)).toEqual(dialog.map((_, i) => i));
      expect(dialog[0]).toMatchObject({ type: "init", data: { task: DEMO_TASK, model, agent: "opencode", cwd: "/src/htmlesc" } });
      expect(dialog[1]?.type).toBe("prompt");
      expect(dialog.filter((d) => d.type === "tool").map((d) => [d.name, d.status])).toEqual([
        ["read", "running"],
        ["read", "success"],
        ["edit", "running"],
        ["edit", "success"],
        ["ssebench_test_patch", "running"],
        ["ssebench_test_patch", "success"],
      ]);
      expect(dialog.at(-1)).toMatchObject({ type: "complete", status: "success", turns: 4, total_tokens: { in: 400, out: 80 } });
      expect(existsSync(join(dir, "archive", "opencode.stream.jsonl"))).toBe(true);
      expect(jsonl<{ call: string; outcome: string }>(join(dir, "tool-calls.jsonl")).map((c) => [c.call, c.outcome])).toEqual([["test_patch", "passed"]]);
      // Four tool turns and opencode's title request (no tools), all on the chosen wire, all under the run's model.
      const ledger = jsonl<LedgerEntry>(join(dir, "model-calls.jsonl"));
      expect(ledger.length).toBe(5);
      expect(ledger.every((c) => c.status === 200 && c.wire === wire)).toBe(true);
      const summary = readJson<Summary>(join(dir, "summary.json"));
      expect(summary.patch_result.status).toBe("passed");
      expect(summary.tool_calls).toBe(1);
      expect(summary.model_calls).toBe(5);
      expect(summary.spend).toBeGreaterThan(0);
      expect(summary.spend).toBe(ledger.at(-1)?.spent as number);
      expect(summary.provenance.agent).toMatchObject({ name: "opencode", version: "1.18.33" });
      expect(summary.agent_run).toEqual({ driver: "opencode", cli: "opencode-ai@1.18.33", wire, turns: 4, budget_refused_calls: 0 });
      expect(summary.tokens).toMatchObject({ input: 500, output: 100 });
    });
  }

  test("opencode: a script that gives up → failed", async () => {
    const r = await run("opencode", "scripted-give-up", "opencode-give-up");
    expect(r.stdout).toContain("Grade: failed");
    const dir = runDir("opencode", "scripted-give-up", "opencode-give-up");
    const dialog = jsonl<DialogLine>(join(dir, "archive", "dialog.jsonl"));
    expect(dialog.filter((d) => d.type === "tool")).toEqual([]);
    expect(dialog.at(-1)).toMatchObject({ type: "complete", status: "success", turns: 1, message: "I could not find a fix for this vulnerability, so I am giving up." });
    expect(readJson<Summary>(join(dir, "summary.json")).agent_run).toMatchObject({ driver: "opencode", turns: 1, budget_refused_calls: 0 });
  });

  test("opencode: a spent budget stops the agent at the first refused call and the run says why", async () => {
    const r = await run("opencode", "scripted-fix-opencode", "opencode-budget", ["--budget", "0.0001"]);
    const dir = runDir("opencode", "scripted-fix-opencode", "opencode-budget");
    const summary = readJson<Summary>(join(dir, "summary.json"));
    // $0.0001 holds no call's worst case: every call (the title's too) is refused, and opencode, which
    // does not retry a 400, exits 1.
    const ledger = jsonl<LedgerEntry>(join(dir, "model-calls.jsonl"));
    expect(ledger.length).toBeGreaterThan(0);
    expect(ledger.every((c) => c.status === 400)).toBe(true);
    expect(summary.agent_run.budget_refused_calls).toBe(ledger.length);
    expect(summary.runtime_result.agent_exit_code).toBe(1);
    expect(r.stderr).toContain(`The run's model budget of $0.0001 ran out: the gateway refused ${ledger.length} call`);
    const dialog = jsonl<DialogLine>(join(dir, "archive", "dialog.jsonl"));
    expect(dialog.at(-1)).toMatchObject({ type: "complete", status: "error", turns: 0 });
    expect(dialog.at(-1)?.message).toStartWith("APIError: Budget exhausted");
    expect(r.stdout).toContain("Grade: failed");
  });
});
