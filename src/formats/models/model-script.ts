/**
 * arktype model of a scripted model's script file (`provider: scripted`): the turns it answers
 * with, picked by the number of tool results in the request and the tools it offers. The exported
 * JSON Schema is `model-script.schema.json`.
 */
import "../schema/ark-setup.ts";
import { type } from "arktype";
import type { ModelInfo } from "../schema/model-info.ts";

const count = (what: string) => type("number.integer >= 0").describe(what);

export const scriptUsageModel = type({
  "+": "reject",
  input: count("Input tokens reported (not cached)."),
  output: count("Output tokens reported."),
  cache_read: count("Input tokens reported as read from the cache.").default(0),
  cache_write: count("Input tokens reported as written to the cache (the anthropic wire only).").default(0),
});

export const scriptCallModel = type({
  "+": "reject",
  tool: type("string >= 1")
    .or(type("string >= 1").array().atLeastLength(1))
    .describe("The tool to call: a name, or names to try in order (the first the request offers is called)."),
  arguments: type({ "[string]": "unknown" }).describe("The call's arguments (a JSON object).").default(() => ({})),
});

export const scriptTurnModel = type({
  "+": "reject",
  "text?": type("string").describe("Text the model says in this turn."),
  calls: scriptCallModel.array().describe("Tool calls of this turn; each needs one tool result before the next turn.").default(() => []),
  "usage?": scriptUsageModel.describe("Token counts reported for this turn (default: the script's usage)."),
});

export const modelScriptModel = type({
  "+": "reject",
  turns: scriptTurnModel.array().atLeastLength(1).describe("The turns, in order; the last one answers every later request."),
  no_tools: type("string").describe("Text answered to a request that offers no tools (titles, side calls).").default("OK"),
  usage: scriptUsageModel.describe("Token counts reported per turn."),
  delay_ms: type("number.integer >= 0").describe("Pause between streamed events, in milliseconds.").default(0),
});

export interface ScriptUsage {
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
}
export interface ScriptCall {
  tool: string | string[];
  arguments: Record<string, unknown>;
}
export interface ScriptTurn {
  text?: string;
  calls: ScriptCall[];
  usage?: ScriptUsage;
}
export interface ModelScript {
  turns: ScriptTurn[];
  no_tools: string;
  usage: ScriptUsage;
  delay_ms: number;
}

export const modelScriptModels: ModelInfo[] = [
  { name: "ModelScript", title: "SSEBench model script", description: "The script of a scripted model.", fields: ["turns", "no_tools", "usage", "delay_ms"] },
  { name: "Turn", title: "Turn", description: "One answer of the model.", fields: ["text", "calls", "usage"] },
  { name: "Call", title: "Call", description: "One tool call.", fields: ["tool", "arguments"] },
  { name: "Usage", title: "Usage", description: "Token counts.", fields: ["input", "output", "cache_read", "cache_write"] },
];
