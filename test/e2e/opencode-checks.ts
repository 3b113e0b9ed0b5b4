/**
 * The e2e checks of opencode and of Kilo's CLI, its fork (agent-opencode.test.ts,
 * agent-kilo.test.ts): the same scripts (test/e2e/fixtures/agent-models: fix-opencode.yaml's read,
 * edit with filePath/oldString/newString and ssebench_test_patch) on both wires, a give-up, a spent
 * budget.
 */
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Summary } from "../../src/formats/run/summary.ts";
import type { LedgerEntry } from "../../src/gateway/ledger.ts";
import { fixSteps } from "../agents/support.ts";
import { type agentRunner, DEMO_TASK, type DialogLine, jsonl, readJson } from "./helpers.ts";

/**
 * The agent (opencode or kilo), its agent.yaml version, its npm CLI as summary.json names it, and
 * the model calls of a fix: the four turns, and opencode's title request (kilo in a run makes
 * none: measured), and the wires whose fix runs.
 */
export function opencodeForkTests(agentRun: ReturnType<typeof agentRunner>, agent: string, version: string, cli: string, fixCalls: number, wires: readonly ("anthropic" | "chat")[]): void {
  const { run, runDir } = agentRun;
  // scripted-fix-opencode lists anthropic first, scripted-fix-opencode-chat only chat.
  const fixes = [
    ["scripted-fix-opencode", "anthropic", `${agent}-fix`],
    ["scripted-fix-opencode-chat", "chat", `${agent}-fix-chat`],
  ] as const;
  for (const [model, wire, id] of fixes.filter(([, w]) => wires.includes(w))) {
    test(`${agent} (${wire} wire): read, edit, test_patch, stop → passed; dialog, tool calls, model calls and spend recorded`, async () => {
      const r = await run(agent, model, id);
      expect(r.stdout).toContain("Grade: passed");
      expect(r.exitCode).toBe(0);
      const dir = runDir(agent, model, id);
      const dialog = jsonl<DialogLine>(join(dir, "archive", "dialog.jsonl"));
      expect(dialog.map((d) => d.seq)).toEqual(dialog.map((_, i) => i));
      expect(dialog[0]).toMatchObject({ type: "init", data: { task: DEMO_TASK, model, agent, cwd: "/src/htmlesc" } });
      expect(dialog[1]?.type).toBe("prompt");
      expect(dialog.filter((d) => d.type === "tool").map((d) => [d.name, d.status])).toEqual(fixSteps("read", "edit", "ssebench_test_patch"));
      expect(dialog.at(-1)).toMatchObject({ type: "complete", status: "success", turns: 4, total_tokens: { in: 400, out: 80 } });
      expect(existsSync(join(dir, "archive", `${agent}.stream.jsonl`))).toBe(true);
      expect(jsonl<{ call: string; outcome: string }>(join(dir, "tool-calls.jsonl")).map((c) => [c.call, c.outcome])).toEqual([["test_patch", "passed"]]);
      // Four tool turns (and opencode's title request, with no tools), all on the chosen wire, all under the run's model.
      const ledger = jsonl<LedgerEntry>(join(dir, "model-calls.jsonl"));
      expect(ledger.length).toBe(fixCalls);
      expect(ledger.every((c) => c.status === 200 && c.wire === wire)).toBe(true);
      const summary = readJson<Summary>(join(dir, "summary.json"));
      expect(summary.patch_result.status).toBe("passed");
      expect(summary.tool_calls).toBe(1);
      expect(summary.model_calls).toBe(fixCalls);
      expect(summary.spend).toBeGreaterThan(0);
      expect(summary.spend).toBe(ledger.at(-1)?.spent as number);
      expect(summary.provenance.agent).toMatchObject({ name: agent, version });
      expect(summary.agent_run).toEqual({ driver: agent, cli, wire, turns: 4, budget_refused_calls: 0 });
      expect(summary.tokens).toMatchObject({ input: 100 * fixCalls, output: 20 * fixCalls });
    });
  }

  test(`${agent}: a script that gives up → failed`, async () => {
    const r = await run(agent, "scripted-give-up", `${agent}-give-up`);
    expect(r.stdout).toContain("Grade: failed");
    const dir = runDir(agent, "scripted-give-up", `${agent}-give-up`);
    const dialog = jsonl<DialogLine>(join(dir, "archive", "dialog.jsonl"));
    expect(dialog.filter((d) => d.type === "tool")).toEqual([]);
    expect(dialog.at(-1)).toMatchObject({ type: "complete", status: "success", turns: 1, message: "I could not find a fix for this vulnerability, so I am giving up." });
    expect(readJson<Summary>(join(dir, "summary.json")).agent_run).toMatchObject({ driver: agent, turns: 1, budget_refused_calls: 0 });
  });

  test(`${agent}: a spent budget stops the agent at the first refused call and the run says why`, async () => {
    const r = await run(agent, "scripted-fix-opencode", `${agent}-budget`, ["--budget", "0.0001"]);
    const dir = runDir(agent, "scripted-fix-opencode", `${agent}-budget`);
    const summary = readJson<Summary>(join(dir, "summary.json"));
    // $0.0001 holds no call's worst case: every call (the title's too) is refused, and the CLI, which
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
}
