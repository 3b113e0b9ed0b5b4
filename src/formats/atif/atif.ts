/**
 * Our arktype model of ATIF, the Agent Trajectory Interchange Format of the Harbor project (its RFC
 * 0001, v1.7): one agent run as a trajectory of steps. `ssebench results --atif DIR` writes one per
 * trial that has a dialog (src/results/atif.ts) and checks it with atifProblems() before it is
 * written. The model gives the validator and, through the project's exporter, the JSON Schema
 * (atifJsonSchema). What the RFC requires beyond the shapes — step ids numbered from 1, fields
 * only an agent step may have, observation results naming a tool call of their own step, ISO 8601
 * times, embedded subagents' ids — is checked by atifProblems. Optional fields may be null or
 * absent, as the RFC's models allow. No I/O.
 */
import "../schema/ark-setup.ts";
import { type ArkError, type } from "arktype";
import { exportJsonSchema, type JsonSchema } from "../schema/json-schema.ts";
import { formatLoc, schemaAt } from "../schema/model-errors.ts";
import type { ModelInfo } from "../schema/model-info.ts";
import { ATIF_VERSIONS } from "./atif-version.ts";


const extra = type({ "[string]": "unknown" }).or("null").describe("Custom metadata not covered by the core schema.");
const text = (description: string) => type("string | null").describe(description);
const count = (description: string) => type("number.integer >= 0").or("null").describe(description);

const imageSourceModel = type({
  "+": "reject",
  media_type: type.enumerated("image/jpeg", "image/png", "image/gif", "image/webp").describe("The image's MIME type."),
  path: type("string").describe("Where the image is: a path relative to the trajectory, an absolute path or a URL."),
});

const contentPartModel = type({
  "+": "reject",
  type: type.enumerated("text", "image").describe("text or image."),
  "text?": text("The text of a text part."),
  "source?": imageSourceModel.or("null").describe("The image of an image part."),
});

const content = type("string").or(contentPartModel.array());

const toolCallModel = type({
  "+": "reject",
  tool_call_id: type("string").describe("The call's id, which an observation result names as its source_call_id."),
  function_name: type("string").describe("The tool or function called."),
  arguments: type({ "[string]": "unknown" }).describe("The arguments, a JSON object ({} for none)."),
  "extra?": extra,
});

const subagentRefModel = type({
  "+": "reject",
  "trajectory_id?": text("The embedded subagent trajectory's trajectory_id."),
  "trajectory_path?": text("Where the subagent trajectory is, as a file or URL."),
  "session_id?": text("The subagent's run, for information only."),
  "extra?": extra,
});

const observationResultModel = type({
  "+": "reject",
  "source_call_id?": text("The tool_call_id of the step's call this result answers; absent for an action without a call."),
  "content?": content.or("null").describe("What the call or action gave back."),
  "subagent_trajectory_ref?": subagentRefModel.array().or("null").describe("Subagent trajectories the action delegated to."),
  "extra?": extra,
});

const observationModel = type({
  "+": "reject",
  results: observationResultModel.array().describe("One result per tool call or action."),
});

const metricsModel = type({
  "+": "reject",
  "prompt_tokens?": count("Input tokens of the step's model call, cached ones included."),
  "completion_tokens?": count("Tokens the model generated."),
  "cached_tokens?": count("The part of prompt_tokens read from the prompt cache."),
  "cost_usd?": type("number >= 0").or("null").describe("What the call cost, USD."),
  "prompt_token_ids?": type("number.integer[] | null").describe("The prompt's token ids."),
  "completion_token_ids?": type("number.integer[] | null").describe("The completion's token ids."),
  "logprobs?": type("number[] | null").describe("The completion tokens' log probabilities."),
  "extra?": extra,
});

const stepModel = type({
  "+": "reject",
  step_id: type("number.integer >= 1").describe("The step's number, an integer from 1."),
  "timestamp?": text("When the step happened, ISO 8601."),
  source: type.enumerated("system", "user", "agent").describe("Who the step is from: system, user or agent."),
  "model_name?": text("The model of an agent step, when not the agent's."),
  "reasoning_effort?": type("string | number | null").describe("The effort an agent step was given."),
  message: content.describe("The system prompt, the user's message or the agent's answer (may be empty)."),
  "reasoning_content?": text("The agent's reasoning."),
  "tool_calls?": toolCallModel.array().or("null").describe("The calls the agent made in the step."),
  "observation?": observationModel.or("null").describe("What the calls or the system's action gave back."),
  "metrics?": metricsModel.or("null").describe("The agent step's model call: tokens and cost."),
  "llm_call_count?": count("How many model calls the step stands for (0: no model call)."),
  "is_copied_context?": type("boolean | null").describe("The step was copied from an earlier trajectory for context."),
  "extra?": extra,
});

const agentModel = type({
  "+": "reject",
  name: type("string").describe("The agent system."),
  version: type("string").describe("Its version."),
  "model_name?": text("The model the agent used."),
  "tool_definitions?": type({ "[string]": "unknown" }).array().or("null").describe("The tools offered to the model."),
  "extra?": extra,
});

const finalMetricsModel = type({
  "+": "reject",
  "total_prompt_tokens?": count("Input tokens of every model call, cached ones included."),
  "total_completion_tokens?": count("Tokens generated over the run."),
  "total_cached_tokens?": count("The part of total_prompt_tokens read from the prompt cache."),
  "total_cost_usd?": type("number >= 0").or("null").describe("What the run's model calls cost, USD."),
  "total_steps?": count("Steps of the trajectory."),
  "extra?": extra,
});

export const atifModel = type({
  "+": "reject",
  schema_version: type.enumerated(...ATIF_VERSIONS).describe("The ATIF version the document follows: ATIF-v1.0 to ATIF-v1.7."),
  "session_id?": text("The run the trajectory belongs to."),
  "trajectory_id?": text("This document's own id."),
  agent: agentModel.describe("The agent system."),
  steps: stepModel.array().describe("Every step of the run, in order."),
  "notes?": text("Notes on the document."),
  "final_metrics?": finalMetricsModel.or("null").describe("Totals of the run."),
  "continued_trajectory_ref?": text("The file the trajectory continues in."),
  "extra?": extra,
  "subagent_trajectories?": type({ "[string]": "unknown" }).array().or("null").describe("Embedded subagent trajectories, each a trajectory itself."),
});

export type AtifTrajectory = typeof atifModel.infer;
export type AtifStep = typeof stepModel.infer;
export type AtifToolCall = typeof toolCallModel.infer;
export type AtifObservationResult = typeof observationResultModel.infer;

const info = (name: string, description: string, fields: readonly string[]): ModelInfo => ({ name, title: name, description, fields });
export const atifModels: ModelInfo[] = [
  info("Trajectory", "An ATIF trajectory: one agent run.", ["schema_version", "session_id", "trajectory_id", "agent", "steps", "notes", "final_metrics", "continued_trajectory_ref", "extra", "subagent_trajectories"]),
  info("Agent", "The agent system.", ["name", "version", "model_name", "tool_definitions", "extra"]),
  info("Step", "One step: a system prompt, a user message, or an agent turn with its calls and what they gave back.", ["step_id", "timestamp", "source", "model_name", "reasoning_effort", "message", "reasoning_content", "tool_calls", "observation", "metrics", "llm_call_count", "is_copied_context", "extra"]),
  info("ToolCall", "One call the agent made.", ["tool_call_id", "function_name", "arguments", "extra"]),
  info("Observation", "What the step's calls or action gave back.", ["results"]),
  info("ObservationResult", "One call's or action's result.", ["source_call_id", "content", "subagent_trajectory_ref", "extra"]),
  info("SubagentTrajectoryRef", "A delegated subagent's trajectory.", ["trajectory_id", "trajectory_path", "session_id", "extra"]),
  info("Metrics", "An agent step's model call.", ["prompt_tokens", "completion_tokens", "cached_tokens", "cost_usd", "prompt_token_ids", "completion_token_ids", "logprobs", "extra"]),
  info("FinalMetrics", "Totals of the run.", ["total_prompt_tokens", "total_completion_tokens", "total_cached_tokens", "total_cost_usd", "total_steps", "extra"]),
  info("ContentPart", "A part of a multimodal message.", ["type", "text", "source"]),
  info("ImageSource", "An image stored beside the trajectory.", ["media_type", "path"]),
];

export function atifJsonSchema(): JsonSchema {
  return exportJsonSchema(atifModel, atifModels);
}

const AGENT_ONLY = ["model_name", "reasoning_effort", "reasoning_content", "tool_calls", "metrics"] as const;
const present = (v: unknown) => v !== undefined && v !== null;
const isoTime = (v: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(v) && !Number.isNaN(Date.parse(v));

/** What the RFC requires beyond the shapes, for a document the model accepts. */
function ruleProblems(t: AtifTrajectory, at: string): string[] {
  const problems: string[] = [];
  t.steps.forEach((step, i) => {
    const where = `${at}steps[${i}]`;
    if (step.step_id !== i + 1) problems.push(`${where}.step_id: must be ${i + 1} (numbered from 1 in order), not ${step.step_id}`);
    if (typeof step.timestamp === "string" && !isoTime(step.timestamp)) problems.push(`${where}.timestamp: must be an ISO 8601 time`);
    if (step.source !== "agent") for (const f of AGENT_ONLY) if (present(step[f])) problems.push(`${where}.${f}: only an agent step may have it`);
    if (step.llm_call_count === 0 && (present(step.metrics) || present(step.reasoning_content) || present(step.reasoning_effort))) {
      problems.push(`${where}: a step of no model call (llm_call_count 0) has no metrics or reasoning`);
    }
    const ids = new Set<string>();
    for (const call of step.tool_calls ?? []) {
      if (ids.has(call.tool_call_id)) problems.push(`${where}.tool_calls: '${call.tool_call_id}' twice`);
      ids.add(call.tool_call_id);
    }
    for (const [j, r] of (step.observation?.results ?? []).entries()) {
      if (typeof r.source_call_id === "string" && !ids.has(r.source_call_id)) problems.push(`${where}.observation.results[${j}].source_call_id: '${r.source_call_id}' is no tool call of this step`);
      for (const ref of r.subagent_trajectory_ref ?? []) if (!present(ref.trajectory_id) && !present(ref.trajectory_path)) problems.push(`${where}.observation.results[${j}].subagent_trajectory_ref: needs trajectory_id or trajectory_path`);
    }
  });
  const subIds = new Set<string>();
  (t.subagent_trajectories ?? []).forEach((sub, i) => {
    const where = `${at}subagent_trajectories[${i}]`;
    const id = (sub as { trajectory_id?: unknown }).trajectory_id;
    if (typeof id !== "string") problems.push(`${where}.trajectory_id: an embedded subagent needs one`);
    else if (subIds.has(id)) problems.push(`${where}.trajectory_id: '${id}' twice`);
    else subIds.add(id);
    problems.push(...trajectoryProblems(sub, `${where}.`));
  });
  return problems;
}

let schema: JsonSchema | undefined;

/** One shape problem in words: the field's rule is its description in the schema. */
function shapeProblem(e: ArkError, at: string): string {
  const loc = `${at}${formatLoc(e.path) || "(document)"}`;
  if (e.code === "required") return `${loc}: is required`;
  if (e.code === "predicate" && e.expected === "removed") return `${loc}: is not an ATIF field`;
  const rule = schemaAt((schema ??= atifJsonSchema()), e.path)?.description;
  const was = e.actual.length > 60 ? `${e.actual.slice(0, 59)}…` : e.actual;
  return `${loc}: ${was} is not valid here${typeof rule === "string" ? ` (${rule})` : ""}`;
}

function trajectoryProblems(data: unknown, at: string): string[] {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return [`${at || "(document)"}: must be a JSON object`];
  const out = atifModel(data);
  if (out instanceof type.errors) return [...out].map((e) => shapeProblem(e, at));
  return ruleProblems(out, at);
}

/** The problems of a trajectory, one `path: rule` line each; [] when it is valid ATIF. */
export function atifProblems(data: unknown): string[] {
  return trajectoryProblems(data, "");
}
