/**
 * Token usage as each wire reports it, normalised to {input (not cached), output, cache_read,
 * cache_write}, and its cost at a model's prices. The stream meter reads each wire's own usage
 * events from the bytes the client receives (spec agents-models §3.3 item 5). No I/O: the gateway
 * meters its calls with it and the entrypoint's oracle plugin its own.
 */
import type { ModelPrice, Wire } from "./model-types.ts";

export interface Usage {
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
}

export const noUsage = (): Usage => ({ input: 0, output: 0, cache_read: 0, cache_write: 0 });

const n = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : 0);
type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v !== null && typeof v === "object" ? (v as Json) : {});

/** Anthropic `usage`: input_tokens excludes the cache's tokens. */
function anthropicUsage(u: Json, into: Usage): void {
  if ("input_tokens" in u) into.input = n(u.input_tokens);
  if ("cache_read_input_tokens" in u) into.cache_read = n(u.cache_read_input_tokens);
  if ("cache_creation_input_tokens" in u) into.cache_write = n(u.cache_creation_input_tokens);
  if ("output_tokens" in u) into.output = n(u.output_tokens);
}

/** OpenAI usage: the prompt count includes the cached tokens. */
function openaiUsage(u: Json, into: Usage, inputKey: string, outputKey: string, detailsKey: string): void {
  const cached = n(obj(u[detailsKey]).cached_tokens);
  into.input = Math.max(0, n(u[inputKey]) - cached);
  into.cache_read = cached;
  into.output = n(u[outputKey]);
}

/**
 * Gemini `usageMetadata`: the prompt count includes the cached tokens, the tool-use prompt is more
 * input, thoughts are output. Streamed chunks carry running totals: the last one is the call's.
 */
function geminiUsage(u: Json, into: Usage): void {
  const cached = n(u.cachedContentTokenCount);
  into.input = Math.max(0, n(u.promptTokenCount) - cached) + n(u.toolUsePromptTokenCount);
  into.cache_read = cached;
  into.output = n(u.candidatesTokenCount) + n(u.thoughtsTokenCount);
}

/** A Gemini answer (or stream chunk) is whole once a candidate has its finish reason, or the prompt was blocked. */
function geminiFinal(event: Json): boolean {
  const candidates = Array.isArray(event.candidates) ? event.candidates : [];
  return candidates.some((c) => typeof obj(c).finishReason === "string") || typeof obj(event.promptFeedback).blockReason === "string";
}

/** Usage of a non-streamed JSON answer. */
export function usageOfBody(wire: Wire, body: unknown): Usage {
  const usage = noUsage();
  if (wire === "gemini") {
    geminiUsage(obj(obj(body).usageMetadata), usage);
    return usage;
  }
  const u = obj(obj(body).usage);
  if (wire === "anthropic") anthropicUsage(u, usage);
  else if (wire === "chat") openaiUsage(u, usage, "prompt_tokens", "completion_tokens", "prompt_tokens_details");
  else openaiUsage(u, usage, "input_tokens", "output_tokens", "input_tokens_details");
  return usage;
}

/**
 * Folds one streamed event (the JSON of a `data:` line) into the usage so far; true when it was the
 * call's last usage event (what the call cost is then known, not only its start).
 */
export function meterEvent(wire: Wire, event: Json, usage: Usage): boolean {
  if (wire === "anthropic") {
    // message_start carries the input side; message_delta the cumulative output count.
    if (event.type === "message_start") anthropicUsage(obj(obj(event.message).usage), usage);
    else if (event.type === "message_delta" && Object.keys(obj(event.usage)).length > 0) {
      anthropicUsage(obj(event.usage), usage);
      return true;
    }
  } else if (wire === "chat") {
    if (event.usage && typeof event.usage === "object") {
      openaiUsage(obj(event.usage), usage, "prompt_tokens", "completion_tokens", "prompt_tokens_details");
      return true;
    }
  } else if (wire === "gemini") {
    if (!event.usageMetadata || typeof event.usageMetadata !== "object") return false;
    geminiUsage(obj(event.usageMetadata), usage);
    return geminiFinal(event);
  } else if (event.type === "response.completed" || event.type === "response.incomplete" || event.type === "response.failed") {
    const u = obj(obj(event.response).usage);
    if (Object.keys(u).length > 0) {
      openaiUsage(u, usage, "input_tokens", "output_tokens", "input_tokens_details");
      return true;
    }
  }
  return false;
}

/**
 * The model an answer (a JSON body, or one streamed event) says it came from: `model` (chat,
 * responses and anthropic bodies, chat chunks), `message.model` (anthropic's message_start),
 * `response.model` (responses events), `modelVersion` (gemini; the last of an array answer).
 * Undefined when it names none (or something that is no name: a string of 1 to 256 characters).
 */
export function answeredModel(answer: unknown): string | undefined {
  const a = obj(Array.isArray(answer) ? answer.at(-1) : answer);
  for (const name of [a.model, obj(a.message).model, obj(a.response).model, a.modelVersion]) {
    if (typeof name === "string" && name.length > 0 && name.length <= 256) return name;
  }
  return undefined;
}

/** Reads SSE text chunk by chunk and meters each complete `data:` line. */
export class StreamMeter {
  readonly usage = noUsage();
  /** the call's last usage event went by */
  final = false;
  /** the model the first usage event names (answeredModel) */
  model: string | undefined;
  private rest = "";
  constructor(private readonly wire: Wire) {}
  push(text: string): void {
    const lines = (this.rest + text).split("\n");
    this.rest = lines.pop() ?? "";
    for (const line of lines) this.line(line);
  }
  end(): void {
    if (this.rest) this.line(this.rest);
    this.rest = "";
  }
  private line(raw: string): void {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (!line.startsWith("data:")) return;
    const data = line.slice(5).trim();
    // Every event that carries usage has a "usage" key (gemini: "usageMetadata"): skip parsing the (many) others.
    if (!data.startsWith("{") || !data.includes(this.wire === "gemini" ? '"usageMetadata"' : '"usage"')) return;
    try {
      const event = JSON.parse(data) as Json;
      this.model ??= answeredModel(event);
      if (meterEvent(this.wire, event, this.usage)) this.final = true;
    } catch {
      // not JSON: nothing to meter
    }
  }
}

/** USD for `usage` at per-million-token prices. */
export function costOf(usage: Usage, price: ModelPrice): number {
  const usd =
    (usage.input * price.input + usage.output * price.output + usage.cache_read * price.cache_read + usage.cache_write * price.cache_write) / 1e6;
  return Math.round(usd * 1e10) / 1e10;
}
