/**
 * Our model of ATIF (Harbor's RFC 0001, v1.7): a valid trajectory passes both the model and ajv over
 * the exported JSON Schema; each rule the RFC states beyond the shapes is caught, one line each.
 */
import { describe, expect, test } from "bun:test";
import Ajv2020 from "ajv/dist/2020.js";
import { atifJsonSchema, atifProblems } from "../../../src/formats/atif/atif.ts";

const valid = () => ({
  schema_version: "ATIF-v1.7",
  session_id: "run-1",
  agent: { name: "claude-code", version: "2.1.332", model_name: "scripted-fix" },
  steps: [
    { step_id: 1, timestamp: "2026-12-01T10:00:00.000Z", source: "user", message: "Fix the overflow." },
    {
      step_id: 2,
      source: "agent",
      message: "Reading it.",
      reasoning_content: "The length ignores quotes.",
      tool_calls: [{ tool_call_id: "t1", function_name: "Read", arguments: { file_path: "a.c" } }],
      observation: { results: [{ source_call_id: "t1", content: "int main;" }, { content: "an action's result", extra: { tool: "x" } }] },
      metrics: { prompt_tokens: 10, completion_tokens: 2, cost_usd: 0.001 },
    },
    { step_id: 3, source: "system", message: [{ type: "text", text: "compacted" }], observation: { results: [{ subagent_trajectory_ref: [{ trajectory_path: "sub.json" }] }] } },
  ],
  final_metrics: { total_prompt_tokens: 10, total_completion_tokens: 2, total_cached_tokens: 0, total_cost_usd: 0.001, total_steps: 3 },
  extra: { ssebench: { grade: "passed" } },
});

describe("ATIF model", () => {
  test("a valid trajectory: no problem, and ajv accepts it against the exported JSON Schema", () => {
    expect(atifProblems(valid())).toEqual([]);
    const ajv = new Ajv2020({ strict: false });
    const check = ajv.compile(atifJsonSchema());
    expect(check(valid())).toBe(true);
    // Optional fields may be null, as in the RFC's models.
    expect(atifProblems({ ...valid(), notes: null, final_metrics: null })).toEqual([]);
    expect(check({ ...valid(), notes: null, final_metrics: null })).toBe(true);
  });

  test("the schema and the model agree on a wrong shape", () => {
    const ajv = new Ajv2020({ strict: false });
    const check = ajv.compile(atifJsonSchema());
    const wrong = { ...valid(), steps: [{ step_id: 1, source: "bot", message: "x" }], surprise: 1 };
    expect(check(wrong)).toBe(false);
    expect(atifProblems(wrong)).toEqual(["steps[0].source: \"bot\" is not valid here (Who the step is from: system, user or agent.)", "surprise: is not an ATIF field"]);
    expect(atifProblems({ ...valid(), agent: { name: "a" } })).toEqual(["agent.version: is required"]);
    expect(atifProblems([])).toEqual(["(document): must be a JSON object"]);
  });

  test("the RFC's rules beyond the shapes", () => {
    const t = valid();
    t.steps[0]!.step_id = 2;
    (t.steps[0] as Record<string, unknown>).timestamp = "yesterday";
    (t.steps[0] as Record<string, unknown>).metrics = { prompt_tokens: 1 };
    const agent = t.steps[1] as { tool_calls: unknown[]; observation: { results: { source_call_id?: string }[] }; llm_call_count?: number };
    agent.tool_calls.push({ tool_call_id: "t1", function_name: "Read", arguments: {} });
    agent.observation.results[0]!.source_call_id = "t9";
    agent.llm_call_count = 0;
    (t.steps[2] as { observation: { results: { subagent_trajectory_ref: unknown[] }[] } }).observation.results[0]!.subagent_trajectory_ref = [{ session_id: "s" }];
    expect(atifProblems({ ...t, subagent_trajectories: [{ ...valid(), trajectory_id: "a" }, { ...valid(), trajectory_id: "a" }, valid()] })).toEqual([
      "steps[0].step_id: must be 1 (numbered from 1 in order), not 2",
      "steps[0].timestamp: must be an ISO 8601 time",
      "steps[0].metrics: only an agent step may have it",
      "steps[1]: a step of no model call (llm_call_count 0) has no metrics or reasoning",
      "steps[1].tool_calls: 't1' twice",
      "steps[1].observation.results[0].source_call_id: 't9' is no tool call of this step",
      "steps[2].observation.results[0].subagent_trajectory_ref: needs trajectory_id or trajectory_path",
      "subagent_trajectories[1].trajectory_id: 'a' twice",
      "subagent_trajectories[2].trajectory_id: an embedded subagent needs one",
    ]);
  });
});
