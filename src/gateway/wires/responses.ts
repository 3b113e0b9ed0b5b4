/**
 * The responses wire (Responses): max_output_tokens (reasoning included); stored responses, prompts
 * and conversations are content the request does not carry, so they are refused; a kept hosted tool
 * (OpenAI's tool_search) may read the input again per call, so their number is capped.
 */
import { StreamMeter, usageOfBody } from "../../formats/models/model-usage.ts";
import { bodyUsage, type Json, tokens, type WireAdapter } from "./wire-adapter.ts";

/** Hosted tool calls one response may make when a hosted tool is kept (each may read the input again). */
export const MAX_HOSTED_CALLS = 4;
const STORED = ["previous_response_id", "conversation", "prompt"];

const hostedTools = (body: Json) => (Array.isArray(body.tools) ? body.tools : []).some((t) => typeof (t as Json)?.type === "string" && !["function", "custom", "namespace"].includes(((t as Json).type as string).toLowerCase()));

export const responsesAdapter: WireAdapter = {
  outputCap: (body) => ({ max: tokens(body.max_output_tokens), answers: 1, extra: 0 }),
  setOutputCap(body, max) {
    body.max_output_tokens = max;
  },
  storedContent(body) {
    const param = STORED.find((p) => body[p] !== undefined && body[p] !== null);
    if (param) return param;
    const input = Array.isArray(body.input) ? body.input : [];
    return input.some((item) => (item as Json)?.type === "item_reference") ? "input item_reference" : undefined;
  },
  inputReads(body) {
    if (!hostedTools(body)) return 1;
    const calls = Math.min(tokens(body.max_tool_calls) ?? MAX_HOSTED_CALLS, MAX_HOSTED_CALLS);
    body.max_tool_calls = calls;
    return 1 + calls;
  },
  meter: () => new StreamMeter("responses"),
  usageOfBody: (body) => bodyUsage("responses", body, usageOfBody),
};
