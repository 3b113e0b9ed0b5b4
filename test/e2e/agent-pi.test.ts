/**
 * The real pi end to end, offline: `ssebench run --agent pi` builds the agent's files from pi's
 * install (its lockfile's tree and the Bun runtime, from npm on the host) and our MCP extension,
 * and pi works the demo task against the scripted model behind the run's real gateway on each wire
 * it speaks (the model's first: test/e2e/fixtures/agent-models; chat and gemini here): read, edit and test_patch through
 * the extension pass; a script that gives up fails; a spent budget stops pi at once and the run
 * says why.
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
const results = tempDir("ssebench-e2e-pi-");
const home = agentModelsHome();
afterAll(() => {
  results.cleanup();
  home.cleanup();
});
const agentRun = agentRunner(results.path, home.path);

describe.skipIf(!E2E)(`the real pi against the scripted model${SKIP_REASON}`, () => {
  // Two of its four wires (CI time): the anthropic and responses runs are the captured streams of
  // test/agents/fixtures/pi, and each wire's configuration is unit-tested.
  for (const wire of ["chat", "gemini"] as const) {
    test(`pi on the ${wire} wire: read, edit, test_patch through our MCP extension, stop → passed; every call on that wire`, async () => {
      const model = `scripted-pi-fix-${wire}`;
      const r = await agentRun.run("pi", model, `pi-${wire}`);
      const dir = agentRun.runDir("pi", model, `pi-${wire}`);
      expect(r.stdout).toContain("Grade: passed");
      expect(r.exitCode).toBe(0);
      const dialog = jsonl<DialogLine>(join(dir, "archive", "dialog.jsonl"));
      expect(dialog[0]?.data).toMatchObject({ task: DEMO_TASK, model, agent: "pi", cwd: "/src/htmlesc" });
      expect(dialog.filter((d) => d.type === "message").map((d) => d.content)).toEqual(FIX_MESSAGES);
      expect(dialog.filter((d) => d.type === "tool").map((d) => [d.name, d.status])).toEqual(fixSteps("read", "edit", "mcp__ssebench__test_patch"));
      expect(dialog.at(-1)).toMatchObject({ type: "complete", status: "success", turns: 4, total_tokens: { in: 560, out: 80 } });
      expect(jsonl<{ call: string; via: string; outcome: string }>(join(dir, "tool-calls.jsonl")).map((c) => [c.via, c.call, c.outcome])).toEqual([["mcp", "test_patch", "passed"]]);
      const ledger = jsonl<LedgerEntry>(join(dir, "model-calls.jsonl"));
      expect(ledger.map((c) => [c.wire, c.status])).toEqual(Array(4).fill([wire, 200]));
      expect(ledger.flatMap((c) => c.stripped)).toEqual([]);
      // pi's four tools and ours; no web tool.
      expect(offeredTools(dir).sort()).toEqual(["bash", "edit", "mcp__ssebench__test_patch", "read", "write"]);
      const summary = readJson<Summary>(join(dir, "summary.json"));
      expect(summary.provenance.agent).toMatchObject({ name: "pi", version: "0.73.1" });
      expect(summary.agent_run).toEqual({ driver: "pi", cli: "@mariozechner/pi-coding-agent@0.73.1", wire, turns: 4, budget_refused_calls: 0 });
    });
  }

  test("pi: a script that gives up → failed", () => givesUp(agentRun, "pi"));

  test("pi: a spent budget stops the agent at once (pi exits 0, the dialog says error) and the run says why", () => stopsOnBudget(agentRun, "pi", "scripted-pi-fix-chat"));
});
