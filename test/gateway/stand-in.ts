/**
 * A loopback provider stand-in for the gateway's money tests: it speaks the anthropic, chat,
 * responses and gemini wires over real HTTP on 127.0.0.1, streamed (at a configurable pace) and not, honours
 * the request's max-tokens field (refusing one above its output limit, as vendors do) and keeps
 * its own bill at the model's prices. It bills as a provider at its most expensive could:
 *  - input: one token per byte of the request as it arrives, plus OVERHEAD_TOKENS (the vendor's own
 *    framing and tool prompt) and IMAGE_TOKENS per image; `cacheWriteShare` of it as cache writes;
 *  - output: always up to the cap (max tokens, times `n` on chat), and in full even when the client
 *    goes away (`abandoned: "full"`), as a provider that keeps generating would.
 */
import type { ModelPrice, Wire } from "../../src/formats/models/model-types.ts";

type Json = Record<string, unknown>;

export const OVERHEAD_TOKENS = 400;
export const IMAGE_TOKENS = 1600;

export interface StandInOptions {
  price: ModelPrice;
  /** ms between streamed events (and the time a non-streamed answer takes, per event) */
  paceMs?: number;
  /** output tokens per streamed event */
  tokensPerEvent?: number;
  /** the model's own output limit: what it writes when the request sets no cap; a larger cap is a 400 */
  outputLimit?: number;
  /** the share of input billed as cache writes (anthropic only) */
  cacheWriteShare?: number;
  /** "full": an abandoned call is billed as if it finished; "generated": only what was sent */
  abandoned?: "full" | "generated";
  /** report no usage at all (a provider that leaves it out) */
  noUsage?: boolean;
  /** cut the connection after this many events (after billing the call in full) */
  dropAfterEvents?: number;
}

export interface Bill {
  usd: number;
  calls: number;
  input: number;
  cache_write: number;
  output: number;
  /** the caps the requests arrived with, per call (undefined: none) */
  caps: (number | undefined)[];
}

const CAP_FIELDS: Record<Wire, string[]> = { anthropic: ["max_tokens"], chat: ["max_completion_tokens", "max_tokens"], responses: ["max_output_tokens"], gemini: ["maxOutputTokens"] };
const PATHS: [string, Wire][] = [["/messages", "anthropic"], ["/chat/completions", "chat"], ["/responses", "responses"], [":generateContent", "gemini"], [":streamGenerateContent", "gemini"]];

/** The object holding a wire's cap and answer count (gemini: generationConfig). */
const capHolder = (wire: Wire, body: Json): Json => (wire === "gemini" ? ((body.generationConfig as Json | undefined) ?? {}) : body);

export class StandIn {
  readonly bill: Bill = { usd: 0, calls: 0, input: 0, cache_write: 0, output: 0, caps: [] };
  private readonly server: ReturnType<typeof Bun.serve>;
  readonly options: Required<Omit<StandInOptions, "dropAfterEvents">> & Pick<StandInOptions, "dropAfterEvents">;

  constructor(options: StandInOptions) {
    this.options = { paceMs: 0, tokensPerEvent: 50, outputLimit: 8000, cacheWriteShare: 0, abandoned: "full", noUsage: false, ...options };
    this.server = Bun.serve({ hostname: "127.0.0.1", port: 0, idleTimeout: 0, fetch: (req) => this.answer(req) });
  }

  get url(): string {
    return `http://127.0.0.1:${this.server.port}/v1`;
  }

  stop(): void {
    this.server.stop(true);
  }

  private charge(input: number, cacheWrite: number, output: number): void {
    const p = this.options.price;
    this.bill.input += input;
    this.bill.cache_write += cacheWrite;
    this.bill.output += output;
    this.bill.usd += (input * p.input + cacheWrite * p.cache_write + output * p.output) / 1e6;
  }

  private async answer(req: Request): Promise<Response> {
    const path = new URL(req.url).pathname;
    const wire = PATHS.find(([suffix]) => path.endsWith(suffix))?.[1];
    if (!wire) return Response.json({ error: { message: `no route ${path}` } }, { status: 404 });
    const raw = await req.text();
    const body = JSON.parse(raw) as Json;
    const holder = capHolder(wire, body);
    const field = CAP_FIELDS[wire].find((f) => typeof holder[f] === "number");
    const cap = field ? (holder[field] as number) : undefined;
    this.bill.caps.push(cap);
    if (wire === "anthropic" && cap === undefined) return error(wire, "max_tokens: Field required");
    if (cap !== undefined && (cap < 1 || cap > this.options.outputLimit)) return error(wire, `${field}: ${cap} is outside 1..${this.options.outputLimit}`);
    const count = wire === "chat" ? body.n : wire === "gemini" ? holder.candidateCount : undefined;
    const answers = typeof count === "number" ? count : 1;
    const output = (cap ?? this.options.outputLimit) * answers;
    const images = (raw.match(/"type":"(image|image_url|input_image)"|"inlineData":/g) ?? []).length;
    const allInput = new TextEncoder().encode(raw).length + OVERHEAD_TOKENS + images * IMAGE_TOKENS;
    const cacheWrite = wire === "anthropic" ? Math.floor(allInput * this.options.cacheWriteShare) : 0;
    const input = allInput - cacheWrite;
    this.bill.calls++;
    const usage = { input, cacheWrite, output };
    const events = Math.max(1, Math.ceil(output / this.options.tokensPerEvent));
    const streamed = wire === "gemini" ? path.endsWith(":streamGenerateContent") : body.stream === true;
    if (streamed) return this.stream(wire, usage, events, body.stream_options);
    await Bun.sleep(this.options.paceMs * events);
    this.charge(input, cacheWrite, output);
    if (wire === "gemini") return Response.json(this.options.noUsage ? { candidates: [] } : { candidates: [{ finishReason: "MAX_TOKENS" }], ...wireUsage(wire, usage) });
    return Response.json(this.options.noUsage ? { id: "r" } : { id: "r", usage: wireUsage(wire, usage) });
  }

  private stream(wire: Wire, usage: { input: number; cacheWrite: number; output: number }, events: number, options: unknown): Response {
    const { paceMs, tokensPerEvent, abandoned, noUsage, dropAfterEvents } = this.options;
    const encoder = new TextEncoder();
    const includeUsage = !noUsage && (wire !== "chat" || (options as Json | undefined)?.include_usage === true);
    let sent = 0;
    let billed = false;
    const billOnce = (output: number) => {
      if (billed) return;
      billed = true;
      this.charge(usage.input, usage.cacheWrite, output);
    };
    const frames = (i: number): string[] => {
      if (i === 0 && wire === "anthropic") return [sse("message_start", { type: "message_start", message: { id: "m", usage: includeUsage ? { input_tokens: usage.input, cache_creation_input_tokens: usage.cacheWrite, cache_read_input_tokens: 0, output_tokens: 1 } : {} } })];
      if (i === 0 && wire === "responses") return [sse("response.created", { type: "response.created", response: { id: "resp_1" } })];
      if (i === 0 && wire === "gemini") return [`data: ${JSON.stringify({ candidates: [{ content: { role: "model", parts: [{ text: "" }] }, index: 0 }], ...(includeUsage ? { usageMetadata: { promptTokenCount: usage.input } } : {}) })}\n\n`];
      if (i <= events) {
        const text = "tok ".repeat(Math.min(tokensPerEvent, usage.output - (i - 1) * tokensPerEvent));
        if (wire === "anthropic") return [sse("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } })];
        if (wire === "chat") return [`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: text } }] })}\n\n`];
        if (wire === "gemini") return [`data: ${JSON.stringify({ candidates: [{ content: { role: "model", parts: [{ text }] }, index: 0 }], ...(includeUsage ? { usageMetadata: { promptTokenCount: usage.input, candidatesTokenCount: (i - 1) * tokensPerEvent } } : {}) })}\n\n`];
        return [sse("response.output_text.delta", { type: "response.output_text.delta", delta: text })];
      }
      if (wire === "anthropic") return [sse("message_delta", { type: "message_delta", delta: { stop_reason: "max_tokens" }, ...(includeUsage ? { usage: { output_tokens: usage.output } } : {}) }), sse("message_stop", { type: "message_stop" })];
      if (wire === "chat") return [...(includeUsage ? [`data: ${JSON.stringify({ choices: [], usage: wireUsage("chat", usage) })}\n\n`] : []), "data: [DONE]\n\n"];
      if (wire === "gemini") return [`data: ${JSON.stringify({ candidates: [{ content: { role: "model", parts: [{ text: "" }] }, finishReason: "MAX_TOKENS", index: 0 }], ...(includeUsage ? wireUsage("gemini", usage) : {}) })}\n\n`];
      return [sse("response.completed", { type: "response.completed", response: { id: "resp_1", status: "incomplete", ...(includeUsage ? { usage: wireUsage("responses", usage) } : {}) } })];
    };
    const body = new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        if (sent > 0 && paceMs > 0) await Bun.sleep(paceMs);
        if (sent > events + 1) {
          billOnce(usage.output);
          controller.close();
          return;
        }
        if (dropAfterEvents !== undefined && sent >= dropAfterEvents) {
          billOnce(usage.output);
          controller.error(new Error("stand-in dropped the connection"));
          return;
        }
        for (const f of frames(sent)) controller.enqueue(encoder.encode(f));
        sent++;
      },
      cancel: () => billOnce(abandoned === "full" ? usage.output : Math.min(usage.output, Math.max(0, sent - 1) * tokensPerEvent)),
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  }
}

function sse(event: string, data: Json): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function wireUsage(wire: Wire, u: { input: number; cacheWrite: number; output: number }): Json {
  if (wire === "anthropic") return { input_tokens: u.input, cache_creation_input_tokens: u.cacheWrite, cache_read_input_tokens: 0, output_tokens: u.output };
  if (wire === "chat") return { prompt_tokens: u.input, completion_tokens: u.output };
  if (wire === "gemini") return { usageMetadata: { promptTokenCount: u.input, candidatesTokenCount: u.output, totalTokenCount: u.input + u.output } };
  return { input_tokens: u.input, output_tokens: u.output };
}

function error(wire: Wire, message: string): Response {
  if (wire === "gemini") return Response.json({ error: { code: 400, message, status: "INVALID_ARGUMENT" } }, { status: 400 });
  const body = wire === "anthropic" ? { type: "error", error: { type: "invalid_request_error", message } } : { error: { message, type: "invalid_request_error", param: null, code: null } };
  return Response.json(body, { status: 400 });
}
