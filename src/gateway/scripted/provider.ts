/**
 * The scripted model as an upstream: a fetch-shaped handler speaking the four wires (streamed and
 * not) at `<any prefix>/messages`, `/messages/count_tokens`, `/chat/completions`, `/responses`,
 * `/models/{model}:generateContent|streamGenerateContent|countTokens` and `/models`. The gateway calls it in-process for `provider: scripted`; `serveScripted` puts it on a
 * socket (benchmarks, and tests of forwarding to a real HTTP upstream). A stream makes its events
 * only as the reader pulls them, so a reader that cancels stops it at once.
 */
import type { Wire } from "../../formats/models/model-types.ts";
import type { ModelScript } from "../../formats/models/model-script.ts";
import { geminiTarget } from "../wires/gemini.ts";
import { decide } from "./decide.ts";
import { geminiBody, geminiEvents } from "./gemini.ts";
import { anthropicBody, anthropicEvents, chatBody, chatEvents, responsesBody, responsesEvents, type WireEvent } from "./wires.ts";

type Json = Record<string, unknown>;

/** Counters a test or benchmark can read. */
export interface ScriptedStats {
  calls: number;
  streams: number;
  completed: number;
  cancelled: number;
}

export type Upstream = (request: Request) => Promise<Response>;

type ScriptedRoute = Wire | "count_tokens" | "gemini_count_tokens";

const ROUTES: [string, ScriptedRoute][] = [
  ["/messages/count_tokens", "count_tokens"],
  ["/messages", "anthropic"],
  ["/chat/completions", "chat"],
  ["/responses", "responses"],
];

/** A path segment decoded, or as it is when it is not valid percent-encoding. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

function encode(wire: Wire, e: WireEvent): string {
  const data = e.data === "[DONE]" ? "[DONE]" : JSON.stringify(e.data);
  return wire === "chat" || !e.event ? `data: ${data}\n\n` : `event: ${e.event}\ndata: ${data}\n\n`;
}

function stream(wire: Wire, events: WireEvent[], delayMs: number, stats: ScriptedStats, signal: AbortSignal): Response {
  const encoder = new TextEncoder();
  let i = 0;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    stats.cancelled++;
  };
  signal.addEventListener("abort", stop, { once: true });
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (i > 0 && delayMs > 0) await Bun.sleep(delayMs);
      if (stopped) return;
      if (i >= events.length) {
        stats.completed++;
        stopped = true;
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(encode(wire, events[i++] as WireEvent)));
    },
    cancel: stop,
  });
  return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
}

export function scriptedUpstream(script: ModelScript, model: string, stats: ScriptedStats = { calls: 0, streams: 0, completed: 0, cancelled: 0 }): Upstream {
  return async (request) => {
    const path = new URL(request.url).pathname;
    if (request.method === "GET" && path.endsWith("/models")) {
      return json({ object: "list", data: [{ id: model, object: "model", created: 0, owned_by: "scripted" }] });
    }
    const gemini = geminiTarget(decoded(path.slice(path.lastIndexOf("/") + 1)));
    const route: [string, ScriptedRoute] | undefined = gemini ? [path, gemini.method === "countTokens" ? "gemini_count_tokens" : "gemini"] : ROUTES.find(([suffix]) => path.endsWith(suffix));
    if (!route || request.method !== "POST") return json({ error: { message: `no route ${path}`, type: "not_found" } }, 404);
    let body: Json;
    try {
      body = (await request.json()) as Json;
    } catch {
      return json({ error: { message: "body is not JSON", type: "invalid_request_error" } }, 400);
    }
    stats.calls++;
    const [, wire] = route;
    if (wire === "count_tokens") return json({ input_tokens: script.usage.input });
    if (wire === "gemini_count_tokens") return json({ totalTokens: script.usage.input + script.usage.cache_read });
    const answer = decide(script, wire, body);
    const name = gemini?.model ?? (typeof body.model === "string" ? body.model : model);
    const streamed = gemini ? gemini.method === "streamGenerateContent" : body.stream === true;
    if (!streamed) {
      stats.completed++;
      return json(wire === "anthropic" ? anthropicBody(name, answer) : wire === "chat" ? chatBody(name, answer) : wire === "gemini" ? geminiBody(name, answer) : responsesBody(name, answer));
    }
    stats.streams++;
    // A gemini stream without alt=sse is one JSON array of the responses.
    if (wire === "gemini" && new URL(request.url).searchParams.get("alt") !== "sse") {
      stats.completed++;
      return json(geminiEvents(name, answer).map((e) => e.data));
    }
    const includeUsage = (body.stream_options as Json | undefined)?.include_usage === true;
    const events = wire === "anthropic" ? anthropicEvents(name, answer) : wire === "chat" ? chatEvents(name, answer, includeUsage) : wire === "gemini" ? geminiEvents(name, answer) : responsesEvents(name, answer);
    return stream(wire, events, script.delay_ms, stats, request.signal);
  };
}

/** Serves a scripted model over HTTP on 127.0.0.1 (port 0: any free port). */
export function serveScripted(upstream: Upstream, port = 0): { url: string; stop: () => void } {
  const server = Bun.serve({ hostname: "127.0.0.1", port, idleTimeout: 0, fetch: upstream });
  return { url: `http://127.0.0.1:${server.port}/v1`, stop: () => server.stop(true) };
}
