/**
 * The real Cline CLI end to end, offline: `ssebench run --agent cline` builds the agent's files from
 * its platform package installed from npm on the host, and cline works the demo task against the
 * scripted model behind the run's real gateway on each wire it speaks (the model's first:
 * test/e2e/fixtures/agent-models): read_files, editor (apply_patch on the responses wire) and the
 * MCP test_patch call pass; a script that gives up fails; a spent budget stops cline at once and
 * the run says why.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import type { Summary } from "../../src/formats/run/summary.ts";
import type { LedgerEntry } from "../../src/gateway/ledger.ts";
import { FIX_MESSAGES, fixSteps } from "../agents/support.ts";
import { tempDir } from "../helpers/cli.ts";
import { firstRequest, givesUp, offeredTools, stopsOnBudget } from "./agent-checks.ts";
import { agentModelsHome, agentRunner, DEMO_TASK, type DialogLine, E2E, jsonl, readJson, SKIP_REASON } from "./helpers.ts";

setDefaultTimeout(900_000);
const results = tempDir("ssebench-e2e-cline-");
const home = agentModelsHome();
afterAll(() => {
  results.cleanup();
  home.cleanup();
});
const agentRun = agentRunner(results.path, home.path);
/** The hosted tools cline adds on each wire, which the gateway strips (they would reach the internet). */
const STRIPPED = { chat: [], anthropic: ["web_search_20250305"], responses: ["web_search", "image_generation"] };

describe.skipIf(!E2E)(`the real Cline CLI against the scripted model${SKIP_REASON}`, () => {
  for (const wire of ["chat", "anthropic", "responses"] as const) {
    test(`cline on the ${wire} wire: read_files, an edit, MCP test_patch, stop → passed; every call on that wire`, async () => {
      const model = `scripted-cline-fix-${wire}`;
      const r = await agentRun.run("cline", model, `cline-${wire}`);
      const dir = agentRun.runDir("cline", model, `cline-${wire}`);
      expect(r.stdout).toContain("Grade: passed");
      expect(r.exitCode).toBe(0);
      const dialog = jsonl<DialogLine>(join(dir, "archive", "dialog.jsonl"));
      expect(dialog[0]?.data).toMatchObject({ task: DEMO_TASK, model, agent: "cline", cwd: "/src/htmlesc" });
      expect(dialog.filter((d) => d.type === "message").map((d) => d.content)).toEqual(FIX_MESSAGES);
      expect(dialog.filter((d) => d.type === "tool").map((d) => [d.name, d.status])).toEqual(fixSteps("read_files", wire === "responses" ? "apply_patch" : "editor", "ssebench__test_patch"));
      expect(dialog.at(-1)).toMatchObject({ type: "complete", status: "success", turns: 4, total_tokens: { in: 560, out: 80 } });
      expect(jsonl<{ call: string; via: string; outcome: string }>(join(dir, "tool-calls.jsonl")).map((c) => [c.via, c.call, c.outcome])).toEqual([["mcp", "test_patch", "passed"]]);
      const ledger = jsonl<LedgerEntry>(join(dir, "model-calls.jsonl"));
      expect(ledger.map((c) => [c.wire, c.status])).toEqual(Array(4).fill([wire, 200]));
      expect(ledger.map((c) => c.stripped)).toEqual(Array(4).fill(STRIPPED[wire]));
      // The prompt's first line came as the argument, the rest on stdin: cline sent it whole.
      expect(firstRequest(dir)).toContain(JSON.stringify(`# Task\n\nYou are a software security engineer.`).slice(1, -1));
      expect(firstRequest(dir)).toContain("## Build and test");
      const tools = offeredTools(dir);
      expect(tools).toContain("ssebench__test_patch");
      expect(tools).not.toContain("fetch_web_content");
      const summary = readJson<Summary>(join(dir, "summary.json"));
      expect(summary.provenance.agent).toMatchObject({ name: "cline", version: "3.0.65" });
      expect(summary.agent_run).toEqual({ driver: "cline", cli: "@cline/cli-linux-x64@3.0.65", wire, turns: 4, budget_refused_calls: 0 });
    });
  }

  test("cline: a script that gives up → failed", () => givesUp(agentRun, "cline"));

  test("cline: a spent budget stops the agent at once (a 400 it does not retry) and the run says why", () => stopsOnBudget(agentRun, "cline", "scripted-cline-fix-chat"));
});
