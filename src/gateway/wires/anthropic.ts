/** The anthropic wire (Messages): max_tokens (thinking included), no stored content, tool search loops. */
import { StreamMeter, usageOfBody } from "../../formats/models/model-usage.ts";
import { bodyUsage, type Json, tokens, type WireAdapter } from "./wire-adapter.ts";

/** Anthropic runs a server tool's loop up to 10 times in one call before it pauses the turn. */
const SERVER_TOOL_ITERATIONS = 10;

export const anthropicAdapter: WireAdapter = {
  outputCap: (body) => ({ max: tokens(body.max_tokens), answers: 1, extra: 0 }),
  setOutputCap(body, max) {
    body.max_tokens = max;
    // Thinking's budget must stay under max_tokens (it is counted in it).
    const thinking = body.thinking as Json | undefined;
    const budget = tokens(thinking?.budget_tokens);
    if (thinking && budget !== undefined && budget >= max) thinking.budget_tokens = Math.max(1, max - 1);
  },
  storedContent: () => undefined,
  inputReads(body) {
    const tools = Array.isArray(body.tools) ? body.tools : [];
    const loops = tools.some((t) => typeof (t as Json)?.type === "string" && ((t as Json).type as string).toLowerCase().startsWith("tool_search_tool"));
    return loops ? 1 + SERVER_TOOL_ITERATIONS : 1;
  },
  meter: () => new StreamMeter("anthropic"),
  usageOfBody: (body) => bodyUsage("anthropic", body, usageOfBody),
};
