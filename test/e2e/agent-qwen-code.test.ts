/**
 * The real Qwen Code end to end, offline: `ssebench run --agent qwen-code` builds the agent's files
 * from the package and the Bun runtime installed from npm on the host, and qwen works the demo task
 * against the scripted model behind the run's real gateway on each wire it speaks (the model's
 * first: test/e2e/fixtures/agent-models): read_file, edit and the MCP test_patch call pass; a script
 * that gives up fails; a spent budget stops qwen at once and the run says why.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import type { Summary } from "../../src/formats/run/summary.ts";
import type { LedgerEntry } from "../../src/gateway/ledger.ts";
import { FIX_MESSAGES, fixSteps } from "../agents/support.ts";
import { tempDir } from "../helpers/cli.ts";
import { givesUp, offeredTools, stopsOnBudget } from "./agent-checks.ts";
import { agentModelsHome, agentRunner, DEMO_TASK, type DialogLine, E2E, jsonl, readJson, SKIP_REASON } from "./helpers.ts";

setDefaultTimeout(900_000);
const results = tempDir("ssebench-e2e-qwen-");
const home = agentModelsHome();
afterAll(() => {
  results.cleanup();
  home.cleanup();
});
const agentRun = agentRunner(results.path, home.path);
const run = (model: string, id: string, extra: string[] = []) => agentRun.run("qwen-code", model, id, extra);
const runDir = (model: string, id: string) => agentRun.runDir("qwen-code", model, id);
describe.skipIf(!E2E)(`the real Qwen Code against the scripted model${SKIP_REASON}`, () => {
  for (const wire of ["chat", "gemini", "anthropic", "responses"] as const) {
    test(`qwen-code on the ${wire} wire: read_file, edit, MCP test_patch, stop → passed; every call on that wire`, async () => {
      const model = `scripted-qwen-fix-${wire}`;
      const r = await run(model, `qwen-${wire}`);
      const dir = runDir(model, `qwen-${wire}`);
      expect(r.stdout).toContain("Grade: passed");
      const dialog = jsonl<DialogLine>(join(dir, "archive", "dialog.jsonl"));
      expect(dialog[0]?.data).toMatchObject({ task: DEMO_TASK, model, agent: "qwen-code" });
      expect(dialog.filter((d) => d.type === "message").map((d) => d.content)).toEqual(FIX_MESSAGES);
      expect(dialog.filter((d) => d.type === "tool").map((d) => [d.name, d.status])).toEqual(fixSteps("read_file", "edit", "mcp__ssebench__test_patch"));
      expect(dialog.at(-1)).toMatchObject({ type: "complete", status: "success", turns: 4, total_tokens: { in: 560, out: 80 } });
      expect(jsonl<{ call: string; outcome: string }>(join(dir, "tool-calls.jsonl")).map((c) => [c.call, c.outcome])).toEqual([["test_patch", "passed"]]);
      const ledger = jsonl<LedgerEntry>(join(dir, "model-calls.jsonl"));
      // No memory extraction or side call after the answer: the 4 turns, each answered, nothing stripped.
      expect(ledger.map((c) => [c.wire, c.status])).toEqual(Array(4).fill([wire, 200]));
      expect(ledger.flatMap((c) => c.stripped)).toEqual([]);
      const tools = offeredTools(dir);
      expect(tools).toContain("mcp__ssebench__test_patch");
      expect(tools.filter((t) => /web/.test(t))).toEqual([]);
      const summary = readJson<Summary>(join(dir, "summary.json"));
      expect(summary.agent_run).toEqual({ driver: "qwen-code", cli: "@qwen-code/qwen-code@0.24.4", wire, turns: 4, budget_refused_calls: 0 });
      expect(summary.tokens).toEqual({ input: 400, output: 80, cache_read: 160, cache_write: 0 });
    });
  }

  test("qwen-code: a script that gives up → failed", () => givesUp(agentRun, "qwen-code"));

  test("qwen-code: a spent budget stops the agent promptly (a 400 it does not retry) and the run says why", () => stopsOnBudget(agentRun, "qwen-code", "scripted-qwen-fix-chat"));
});
