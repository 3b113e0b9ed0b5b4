/**
 * `ssebench results --atif` on a real agent's trial: the real claude-code CLI works the demo task
 * against the scripted model behind the run's real gateway; its dialog becomes a trajectory that
 * our ATIF model and ajv over the exported JSON Schema accept, with the prompt, the agent's turns,
 * its Read/Edit/test_patch calls each answered under its own call, and the gateway's totals.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import { atifJsonSchema, atifProblems, type AtifTrajectory } from "../../src/formats/atif/atif.ts";
import type { Summary } from "../../src/formats/run/summary.ts";
import { ssebench, tempDir } from "../helpers/cli.ts";
import { agentModelsHome, agentRunner, E2E, readJson, SKIP_REASON } from "./helpers.ts";

setDefaultTimeout(900_000);
const results = tempDir("ssebench-e2e-atif-");
const home = agentModelsHome();
afterAll(() => {
  results.cleanup();
  home.cleanup();
});
const { run, runDir } = agentRunner(join(results.path, "runs"), home.path);

describe.skipIf(!E2E)(`ATIF trajectories of a real agent's trial${SKIP_REASON}`, () => {
  test("claude-code's dialog: a valid trajectory with its calls, results and the run's totals", async () => {
    const r = await run("claude-code", "scripted-fix", "atif-cc");
    if (r.exitCode !== 0) console.error(r.stdout, r.stderr);
    expect(r.stdout).toContain("Grade: passed");
    const out = join(results.path, "atif");
    const x = await ssebench(["results", join(results.path, "runs"), "--atif", out]);
    expect([x.exitCode, x.stderr]).toEqual([0, `Wrote 1 ATIF trajectory to ${out}\n`]);
    const files = readdirSync(out);
    expect(files).toEqual(["htmlesc-quote-overflow.claude-code.scripted-fix.atif-cc.json"]);
    const t = JSON.parse(readFileSync(join(out, files[0] as string), "utf8")) as AtifTrajectory;
    expect(atifProblems(t)).toEqual([]);
    expect(new Ajv2020({ strict: false }).compile(atifJsonSchema())(t)).toBe(true);
    const summary = readJson<Summary>(join(runDir("claude-code", "scripted-fix", "atif-cc"), "summary.json"));
    expect(t).toMatchObject({ schema_version: "ATIF-v1.7", session_id: "atif-cc", agent: { name: "claude-code", version: "2.1.332", model_name: "scripted-fix", extra: { cli: "@anthropic-ai/claude-code@2.1.332", driver: "claude-code" } } });
    expect(t.final_metrics).toMatchObject({
      total_prompt_tokens: summary.tokens.input + summary.tokens.cache_read + summary.tokens.cache_write,
      total_completion_tokens: summary.tokens.output,
      total_cost_usd: summary.spend,
      total_steps: t.steps.length,
    });
    expect(t.steps[0]).toMatchObject({ step_id: 1, source: "user" });
    expect((t.steps[0]?.message as string).length).toBeGreaterThan(100);
    const calls = t.steps.flatMap((s) => s.tool_calls ?? []);
    const names = calls.map((c) => c.function_name);
    for (const name of ["Read", "Edit", "mcp__ssebench__test_patch"]) expect(names).toContain(name);
    // Each call is answered in its own step, naming it.
    for (const s of t.steps) for (const call of s.tool_calls ?? []) expect(s.observation?.results.some((r) => r.source_call_id === call.tool_call_id)).toBe(true);
    expect(t.steps.filter((s) => s.source === "agent").every((s, i) => s.step_id === i + 2)).toBe(true);
    expect(t.extra).toMatchObject({ ssebench: { task: "htmlesc-quote-overflow", grade: "passed", end: { status: "success" } } });
  });
});
