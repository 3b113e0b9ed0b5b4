/**
 * The real codex CLI end to end, offline: `ssebench run --agent codex` builds the agent layer from
 * the CLI installed from npm on the host, and codex works the demo task against the scripted model
 * behind the run's real gateway on the Responses wire (test/e2e/fixtures/agent-models): reading the
 * file and editing it with apply_patch through exec_command, then the namespaced MCP test_patch
 * call, passes; a script that gives up fails; a spent budget stops codex at once and the run says why.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import type { Summary } from "../../src/formats/run/summary.ts";
import type { LedgerEntry } from "../../src/gateway/ledger.ts";
import { tempDir } from "../helpers/cli.ts";
import { agentModelsHome, agentRunner, DEMO_TASK, type DialogLine, E2E, jsonl, readJson, SKIP_REASON } from "./helpers.ts";

setDefaultTimeout(900_000);
const results = tempDir("ssebench-e2e-codex-");
const home = agentModelsHome();
afterAll(() => {
  results.cleanup();
  home.cleanup();
});
const agentRun = agentRunner(results.path, home.path);
const run = (model: string, id: string, extra: string[] = []) => agentRun.run("codex", model, id, extra);
const runDir = (model: string, id: string) => agentRun.runDir("codex", model, id);

describe.skipIf(!E2E)(`the real codex CLI against the scripted model${SKIP_REASON}`, () => {
  test("codex: read, apply_patch, namespaced test_patch, stop → passed; dialog, tool calls, model calls and spend recorded", async () => {
    const r = await run("scripted-codex-fix", "codex-fix");
    const dir = runDir("scripted-codex-fix", "codex-fix");
    expect(r.stdout).toContain("Grade: passed");
    expect(r.exitCode).toBe(0);
    const dialog = jsonl<DialogLine>(join(dir, "archive", "dialog.jsonl"));
    expect(dialog.map((d) => d.seq)).toEqual(dialog.map((_, i) => i));
    expect(dialog.slice(0, 2).map((d) => d.type)).toEqual(["init", "prompt"]);
    expect(dialog[0]?.data).toMatchObject({ task: DEMO_TASK, model: "scripted-codex-fix", agent: "codex", cwd: "/src/htmlesc" });
    const tools = dialog.filter((d) => d.type === "tool").map((d) => [d.name, d.status]);
    expect(tools).toEqual([
      ["bash", "running"],
      ["bash", "success"],
      ["file_change", "running"],
      ["file_change", "success"],
      ["mcp__ssebench__test_patch", "running"],
      ["mcp__ssebench__test_patch", "success"],
    ]);
    const last = dialog.at(-1) as DialogLine;
    expect(last).toMatchObject({ type: "complete", status: "success", turns: 1, message: "The patch builds and passes the tests. Done." });
    expect(existsSync(join(dir, "archive", "codex.stream.jsonl"))).toBe(true);
    const calls = jsonl<{ call: string; outcome: string }>(join(dir, "tool-calls.jsonl"));
    expect(calls.map((c) => [c.call, c.outcome])).toEqual([["test_patch", "passed"]]);
    const ledger = jsonl<LedgerEntry>(join(dir, "model-calls.jsonl"));
    expect(ledger.filter((c) => c.wire === "responses").length).toBe(4);
    expect(ledger.every((c) => c.status === 200)).toBe(true);
    // Codex asks for no hosted web search (web_search = "disabled"): the gateway had nothing to strip.
    expect(ledger.flatMap((c) => c.stripped)).toEqual([]);
    const summary = readJson<Summary>(join(dir, "summary.json"));
    expect(summary.patch_result.status).toBe("passed");
    expect(summary.tool_calls).toBe(1);
    expect(summary.model_calls).toBe(ledger.length);
    expect(summary.spend).toBe(ledger.at(-1)?.spent as number);
    expect(summary.provenance.agent).toMatchObject({ name: "codex", version: "0.171.0" });
    expect(summary.agent_run).toEqual({ driver: "codex", cli: "@openai/codex@0.171.0", wire: "responses", turns: 1, budget_refused_calls: 0 });
    expect(summary.tokens.output).toBe(80);
    expect(last.total_tokens).toEqual({ in: 400, out: 80 });
  });

  test("codex: a script that gives up → failed", async () => {
    const r = await run("scripted-give-up", "codex-give-up");
    expect(r.stdout).toContain("Grade: failed");
    const dialog = jsonl<DialogLine>(join(runDir("scripted-give-up", "codex-give-up"), "archive", "dialog.jsonl"));
    expect(dialog.filter((d) => d.type === "tool")).toEqual([]);
    expect(dialog.at(-1)).toMatchObject({ type: "complete", status: "success", turns: 1 });
  });

  test("codex: a spent budget stops the agent promptly and the run says why", async () => {
    const r = await run("scripted-codex-fix", "codex-budget", ["--budget", "0.0001"]);
    const dir = runDir("scripted-codex-fix", "codex-budget");
    const summary = readJson<Summary>(join(dir, "summary.json"));
    expect(summary.runtime_result.agent_duration).toBeLessThan(60);
    const ledger = jsonl<LedgerEntry>(join(dir, "model-calls.jsonl"));
    // $0.0001 does not hold the first call's worst case: refused before anything is forwarded.
    expect(ledger.map((c) => c.status)).toEqual([400]);
    expect(summary.agent_run.budget_refused_calls).toBe(1);
    expect(r.stderr).toContain("The run's model budget of $0.0001 ran out: the gateway refused 1 call whose worst case did not fit");
    const dialog = jsonl<DialogLine>(join(dir, "archive", "dialog.jsonl"));
    expect(dialog.at(-1)).toMatchObject({ type: "complete", status: "error" });
    expect(dialog.at(-1)?.message).toStartWith("Budget exhausted");
  });

  test("codex under a model name from its own catalog (gpt-5.5): test_patch offered directly, no hosted tool search → passed", async () => {
    const r = await run("gpt-5.5", "codex-catalog");
    const dir = runDir("gpt-5.5", "codex-catalog");
    expect(r.stdout).toContain("Grade: passed");
    const body = JSON.parse(gunzipSync(readFileSync(join(dir, "model-calls", "1.request.json.gz"))).toString()) as { tools: { type: string; name?: string }[] };
    expect(body.tools.filter((t) => t.type === "namespace").map((t) => t.name)).toContain("mcp__ssebench");
    expect(body.tools.map((t) => t.type)).not.toContain("tool_search");
    const ledger = jsonl<LedgerEntry>(join(dir, "model-calls.jsonl"));
    expect(ledger.flatMap((c) => c.stripped)).toEqual([]);
    expect(jsonl<{ call: string; outcome: string }>(join(dir, "tool-calls.jsonl")).map((c) => c.outcome)).toEqual(["passed"]);
  });
});
