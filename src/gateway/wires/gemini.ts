/**
 * The gemini wire (Gemini API generateContent): the model and the method are in the path
 * (`/v1beta/models/{model}:{method}`), the output cap is generationConfig.maxOutputTokens (thinking
 * included) times candidateCount; `cachedContent` names content stored at the vendor. The API
 * takes its fields in camelCase or snake_case, so both are read and the one a request used is set.
 */
import { StreamMeter, usageOfBody } from "../../formats/models/model-usage.ts";
import { type Json, tokens, type WireAdapter } from "./wire-adapter.ts";

export type GeminiMethod = "generateContent" | "streamGenerateContent" | "countTokens";
const METHODS: readonly string[] = ["generateContent", "streamGenerateContent", "countTokens"];

/** `{model}:{method}` of a request path's last segment (decoded), when it names a method the gateway serves. */
export function geminiTarget(segment: string): { model: string; method: GeminiMethod } | undefined {
  const at = segment.lastIndexOf(":");
  if (at <= 0) return undefined;
  const method = segment.slice(at + 1);
  return METHODS.includes(method) ? { model: segment.slice(0, at), method: method as GeminiMethod } : undefined;
}

/** The value of a field given in either spelling (camelCase first). */
function field(body: Json | undefined, camel: string, snake: string): unknown {
  return body?.[camel] ?? body?.[snake];
}

const CONFIGS = ["generationConfig", "generation_config"];
const CAPS = ["maxOutputTokens", "max_output_tokens"];
const COUNTS = ["candidateCount", "candidate_count"];

/** The request's generation configs (a request may spell it both ways; each spelling is read and set). */
function configs(body: Json): Json[] {
  return CONFIGS.map((k) => body[k]).filter((c): c is Json => c !== null && typeof c === "object" && !Array.isArray(c));
}

/** The whole numbers a request gives for a field, in any config and spelling. */
function given(body: Json, names: string[]): number[] {
  return configs(body).flatMap((c) => names.map((n) => tokens(c[n]))).filter((v): v is number => v !== undefined);
}

/** Answers of a stream's JSON array (a stream without alt=sse) or of one JSON object. */
function lastUsage(body: unknown): unknown {
  if (!Array.isArray(body)) return body;
  return [...body].reverse().find((chunk) => (chunk as Json | null)?.usageMetadata !== undefined);
}

export const geminiAdapter: WireAdapter = {
  outputCap(body) {
    const caps = given(body, CAPS);
    return { max: caps.length > 0 ? Math.min(...caps) : undefined, answers: Math.max(1, ...given(body, COUNTS)), extra: 0 };
  },
  setOutputCap(body, max) {
    const found = configs(body);
    let set = false;
    for (const config of found) {
      for (const f of CAPS.filter((n) => n in config)) {
        config[f] = max;
        set = true;
      }
    }
    if (set) return;
    const config = found[0] ?? (body.generationConfig = {} as Json);
    config[config === body.generation_config ? "max_output_tokens" : "maxOutputTokens"] = max;
  },
  storedContent: (body) => (field(body, "cachedContent", "cached_content") ? "cachedContent" : undefined),
  // Hosted tools (search, code execution, URL context) are stripped: nothing loops at the vendor.
  inputReads: () => 1,
  meter: () => new StreamMeter("gemini"),
  usageOfBody(body) {
    const answer = lastUsage(body) as Json | undefined;
    return answer?.usageMetadata !== null && typeof answer?.usageMetadata === "object" ? usageOfBody("gemini", answer) : undefined;
  },
};
