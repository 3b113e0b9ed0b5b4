/** The chat wire (Chat Completions): max_completion_tokens or max_tokens, times n answers. */
import { StreamMeter, usageOfBody } from "../../formats/models/model-usage.ts";
import { bodyUsage, tokens, type WireAdapter } from "./wire-adapter.ts";

const FIELDS = ["max_completion_tokens", "max_tokens"] as const;

export const chatAdapter: WireAdapter = {
  outputCap(body) {
    const given = FIELDS.map((f) => tokens(body[f])).filter((v) => v !== undefined);
    // Predicted output the model rejects is billed as output too: at most one token per byte of it.
    const extra = body.prediction === undefined ? 0 : new TextEncoder().encode(JSON.stringify(body.prediction)).length;
    return { max: given.length > 0 ? Math.min(...given) : undefined, answers: Math.max(1, tokens(body.n) ?? 1), extra };
  },
  setOutputCap(body, max, provider) {
    const used = FIELDS.filter((f) => f in body);
    // OpenAI's reasoning models take max_completion_tokens only; other servers know max_tokens best.
    for (const f of used.length > 0 ? used : [provider === "openai" ? "max_completion_tokens" : "max_tokens"]) body[f] = max;
  },
  storedContent: () => undefined,
  inputReads: () => 1,
  meter: () => new StreamMeter("chat"),
  usageOfBody: (body) => bodyUsage("chat", body, usageOfBody),
};
