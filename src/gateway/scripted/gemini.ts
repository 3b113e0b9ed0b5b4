/**
 * The scripted model's answers on the gemini wire: a GenerateContentResponse, and the stream of
 * them streamGenerateContent sends (each chunk a response with the running usage, the last with
 * the finish reason and the whole usage). Function calls carry no id, as the Gemini API's.
 */
import type { ScriptUsage } from "../../formats/models/model-script.ts";
import { type Answer, newId } from "./decide.ts";
import { pieces, type WireEvent } from "./wires.ts";

type Json = Record<string, unknown>;

/** usageMetadata: the prompt count includes the cached tokens; `output` 0 while the answer is under way. */
function usageMetadata(u: ScriptUsage, output: number): Json {
  const prompt = u.input + u.cache_read;
  return {
    promptTokenCount: prompt,
    ...(output > 0 ? { candidatesTokenCount: output } : {}),
    totalTokenCount: prompt + output,
    ...(u.cache_read > 0 ? { cachedContentTokenCount: u.cache_read } : {}),
    promptTokensDetails: [{ modality: "TEXT", tokenCount: prompt }],
  };
}

const functionCalls = (a: Answer): Json[] => a.calls.map((c) => ({ functionCall: { name: c.name, args: JSON.parse(c.arguments) } }));

function response(model: string, id: string, parts: Json[], usage: Json, finish: boolean): Json {
  const candidate: Json = { content: { parts, role: "model" }, index: 0 };
  if (finish) candidate.finishReason = "STOP";
  return { candidates: [candidate], usageMetadata: usage, modelVersion: model, responseId: id };
}

export function geminiBody(model: string, a: Answer): Json {
  const parts = [...(a.text ? [{ text: a.text }] : []), ...functionCalls(a)];
  return response(model, newId(""), parts, usageMetadata(a.usage, a.usage.output), true);
}

export function geminiEvents(model: string, a: Answer): WireEvent[] {
  const id = newId("");
  const running = usageMetadata(a.usage, 0);
  const out: WireEvent[] = (a.text ? pieces(a.text) : []).map((text) => ({ data: response(model, id, [{ text }], running, false) }));
  if (a.calls.length > 0) out.push({ data: response(model, id, functionCalls(a), running, false) });
  out.push({ data: response(model, id, [{ text: "" }], usageMetadata(a.usage, a.usage.output), true) });
  return out;
}
