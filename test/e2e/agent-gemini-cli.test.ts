/**
 * The real Gemini CLI end to end, offline: `ssebench run --agent gemini-cli` builds the agent's
 * files from the package and the Bun runtime installed from npm on the host, and gemini works the
 * demo task against the scripted model behind the run's real gateway on the gemini wire
 * (test/e2e/fixtures/agent-models): read_file, replace and the MCP test_patch call pass; a script
 * that gives up fails; a spent budget stops gemini at once and the run says why.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import type { Summary } from "../../src/formats/run/summary.ts";
import type { LedgerEntry } from "../../src/gateway/ledger.ts";
import { fixSteps } from "../agents/support.ts";
import { tempDir } from "../helpers/cli.ts";
import { givesUp, stopsOnBudget } from "./agent-checks.ts";
import { agentModelsHome, agentRunner, DEMO_TASK, type DialogLine, E2E, jsonl, readJson, SKIP_REASON } from "./helpers.ts";

setDefaultTimeout(900_000);
const results = tempDir("ssebench-e2e-gemini-");
const home = agentModelsHome();
afterAll(() => {
  results.cleanup();
  home.cleanup();
});
const agentRun = agentRunner(results.path, home.path);
const run = (model: string, id: string, extra: string[] = []) => agentRun.run("gemini-cli", model, id, extra);
const runDir = (model: string, id: string) => agentRun.runDir("gemini-cli", model, id);

describe.skipIf(!E2E)(`the real Gemini CLI against the scripted model${SKIP_REASON}`, () => {
  test("gemini-cli: read_file, replace, MCP test_patch, stop → passed; dialog, tool calls, model calls and spend recorded", async () => {
    const r = await run("scripted-gemini-fix", "gemini-fix");
    const dir = runDir("scripted-gemini-fix", "gemini-fix");
    expect(r.stdout).toContain("Grade: passed");
    expect(r.exitCode).toBe(0);
    const dialog = jsonl<DialogLine>(join(dir, "archive", "dialog.jsonl"));
    expect(dialog.map((d) => d.seq)).toEqual(dialog.map((_, i) => i));
    expect(dialog[0]?.data).toMatchObject({ task: DEMO_TASK, model: "scripted-gemini-fix", agent: "gemini-cli", cwd: "/src/htmlesc" });
    expect(dialog.filter((d) => d.type === "tool").map((d) => [d.name, d.status])).toEqual(fixSteps("read_file", "replace", "mcp_ssebench_test_patch"));
    const last = dialog.at(-1) as DialogLine;
    expect(last).toMatchObject({ type: "complete", status: "success", turns: 4, total_tokens: { in: 400, out: 80 }, message: "The patch builds and passes the tests. Done." });
    expect(jsonl<{ call: string; outcome: string }>(join(dir, "tool-calls.jsonl")).map((c) => [c.call, c.outcome])).toEqual([["test_patch", "passed"]]);
    const ledger = jsonl<LedgerEntry>(join(dir, "model-calls.jsonl"));
    // Every call under the run's model (no helper call under another name), streamed as SSE, nothing to strip.
    expect(ledger.map((c) => [c.wire, c.status, c.path])).toEqual(Array(4).fill(["gemini", 200, "/v1beta/models/scripted-gemini-fix:streamGenerateContent"]));
    expect(ledger.flatMap((c) => c.stripped)).toEqual([]);
    // Web tools are off: the model is offered neither google_web_search nor web_fetch, and test_patch by MCP.
    const body = JSON.parse(gunzipSync(readFileSync(join(dir, "model-calls", "1.request.json.gz"))).toString()) as { tools: { functionDeclarations: { name: string }[] }[] };
    const offered = body.tools.flatMap((t) => t.functionDeclarations.map((f) => f.name));
    expect(offered).toContain("mcp_ssebench_test_patch");
    expect(offered).not.toContain("google_web_search");
    expect(offered).not.toContain("web_fetch");
    const summary = readJson<Summary>(join(dir, "summary.json"));
    expect(summary.patch_result.status).toBe("passed");
    expect(summary.model_calls).toBe(4);
    expect(summary.spend).toBe(ledger.at(-1)?.spent as number);
    expect(summary.provenance.agent).toMatchObject({ name: "gemini-cli", version: "0.61.0" });
    expect(summary.agent_run).toEqual({ driver: "gemini-cli", cli: "@google/gemini-cli@0.61.0", wire: "gemini", turns: 4, budget_refused_calls: 0 });
  });

  test("gemini-cli: a script that gives up → failed", () => givesUp(agentRun, "gemini-cli"));

  test("gemini-cli: a spent budget stops the agent promptly (a 400 it does not retry) and the run says why", () => stopsOnBudget(agentRun, "gemini-cli", "scripted-gemini-fix"));
});
