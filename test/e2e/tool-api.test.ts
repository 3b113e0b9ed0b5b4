/**
 * The agent's tool API in a real run container: a bash test agent (test/e2e/fixtures/tool-agent)
 * speaks MCP Streamable HTTP to 127.0.0.1:3000 and calls test_patch, uses the plain HTTP routes and
 * `ssebench-entrypoint check`; the run records every call in tool-calls.jsonl and summary.json.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import type { Summary } from "../../src/formats/run/summary.ts";
import { ssebench, tempDir } from "../helpers/cli.ts";
import { DEMO_TASK, demoDir, E2E, homeWithAgents, readJson, SKIP_REASON } from "./helpers.ts";

setDefaultTimeout(900_000);
const results = tempDir("ssebench-e2e-tools-");
const home = homeWithAgents({});
symlinkSync(join(import.meta.dir, "fixtures", "tool-agent"), join(home.path, "agents", "tool-agent"));
afterAll(() => {
  results.cleanup();
  home.cleanup();
});
const env = { DOCKER_HOST: process.env.DOCKER_HOST, SSEBENCH_HOME: home.path };
const base = ["run", "--local", demoDir, "--task", DEMO_TASK, "--results", results.path, "--timeout", "600", "--agent", "tool-agent"];

function replies(runDir: string): Record<string, { status: string; body: string }> {
  const dir = join(runDir, "archive", "tool-agent");
  const out: Record<string, { status: string; body: string }> = {};
  for (const f of readdirSync(dir).sort()) {
    const text = readFileSync(join(dir, f), "utf8");
    const nl = text.indexOf("\n");
    out[f.slice(3)] = { status: text.slice(0, nl), body: text.slice(nl + 1) };
  }
  return out;
}

const calls = (runDir: string) =>
  readFileSync(join(runDir, "tool-calls.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { via: string; call: string; level: number; checks: string[]; outcome: string });

describe.skipIf(!E2E)(`the agent's tool API on a real engine${SKIP_REASON}`, () => {
  for (const level of [2, 0]) {
    test(`difficulty ${level}: test_patch over MCP, HTTP checks and the check command are answered and recorded`, async () => {
      const r = await ssebench([...base, "--difficulty", String(level), "--run-id", `tools-${level}`], { env });
      expect(r.exitCode).toBe(0);
      const runDir = join(results.path, DEMO_TASK, "none", "tool-agent", `tools-${level}`);
      const got = replies(runDir);
      expect(JSON.parse(got["mcp-initialize"]!.body).result.serverInfo.name).toBe("ssebench");
      expect(JSON.parse(got["mcp-tools-list"]!.body).result.tools.map((t: { name: string }) => t.name)).toEqual(["test_patch"]);
      const text: string = JSON.parse(got["mcp-test_patch"]!.body).result.content[0].text;
      if (level === 2) {
        expect(text).toBe(
          "test_patch result: every check that ran passed.\n\nChecks:\n- build: passed\n- functional tests: passed\n\nNot available at difficulty level 2 (NO_FUTURE_TEST): PoCs, intent tests. Nothing is reported about them. Without the PoCs, this result does not show whether the vulnerability is fixed.",
        );
        expect(got["POST_sse_v1_check_poc"]).toEqual({ status: "403", body: '{"error":"Not available at difficulty level 2 (NO_FUTURE_TEST): PoCs."}' });
      } else {
        expect(text).toStartWith(
          "test_patch result: FAILED. At least one proof-of-concept (PoC) still triggers the vulnerability. Please reassess your patch and make sure it fixes the root cause of the vulnerability.\n\nChecks:\n- build: passed\n- PoCs: FAILED (passed 0 of 1; stopped at the first that still triggers the bug)\n- intent tests: FAILED\n- functional tests: passed\n\nFull log (PoCs):\n",
        );
        expect(text).toContain("AddressSanitizer");
        expect(got["POST_sse_v1_check_poc"]!.status).toBe("200");
      }
      expect(got["POST_sse_v1_check_build"]!.status).toBe("200");
      expect(JSON.parse(got["POST_sse_v1_check_build"]!.body).code).toBe(0);
      // The same report (ASan's addresses in a failing log differ from run to run).
      const head = (t: string) => t.split("\n\nFull log")[0];
      expect(head(got["check-all"]!.body)).toBe(head(text));
      expect(got["check-all"]!.status).toBe(level === 2 ? "0" : "1");

      const lines = calls(runDir);
      expect(lines.map((c) => `${c.via} ${c.call} ${c.outcome}`)).toEqual([
        `mcp test_patch ${level === 2 ? "passed" : "failed"}`,
        "http GET /sse/v1/capabilities ok",
        "http POST /sse/v1/check/build passed",
        `http POST /sse/v1/check/poc ${level === 2 ? "refused" : "failed"}`,
        `http POST /sse/v1/test_patch ${level === 2 ? "passed" : "failed"}`,
      ]);
      expect(lines.every((c) => c.level === level)).toBe(true);
      expect(lines[0]!.checks).toEqual(level === 2 ? ["build", "function_test"] : ["build", "poc-1", "intent_test", "function_test"]);
      const summary = readJson<Summary>(join(runDir, "summary.json"));
      expect(summary.tool_calls).toBe(5);
      expect(summary.config.difficulty).toBe(level);
      // Final grading runs every check whatever the level.
      expect(summary.patch_result.checks.map((c) => c.check)).toEqual(["build", "poc", "function_test", "intent_test"]);
      expect(summary.patch_result.status).toBe("failed");
    });
  }
});
