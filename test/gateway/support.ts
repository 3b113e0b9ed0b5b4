/** A gateway on 127.0.0.1 in front of a scripted model, with its ledger in a temp folder. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ModelConfig, Wire } from "../../src/formats/models/model-types.ts";
import type { ModelScript } from "../../src/formats/models/model-script.ts";
import type { ServedModel } from "../../src/gateway/keys.ts";
import type { LedgerEntry } from "../../src/gateway/ledger.ts";
import { type ScriptedStats, scriptedUpstream } from "../../src/gateway/scripted/provider.ts";
import { Gateway, type GatewayOptions } from "../../src/gateway/server.ts";
import { tempDir } from "../helpers/cli.ts";

export const USAGE = { input: 1000, output: 200, cache_read: 400, cache_write: 100 };
export const PRICE = { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 };

export const SCRIPT: ModelScript = {
  turns: [
    { text: "Let me look.", calls: [{ tool: ["Bash", "exec_command", "bash"], arguments: { command: "ls" } }] },
    { calls: [{ tool: ["mcp__ssebench__test_patch", "test_patch", "ssebench_test_patch"], arguments: {} }] },
    { text: "All done.", calls: [] },
  ],
  no_tools: "A title",
  usage: USAGE,
  delay_ms: 0,
};

export function scriptedConfig(name = "scripted-test", wires: Wire[] = ["anthropic", "chat", "responses", "gemini"]): ModelConfig {
  return { name, provider: "scripted", wires, price: PRICE, script: "x.yaml" };
}

export function scriptedModel(script = SCRIPT, stats?: ScriptedStats, config = scriptedConfig()): ServedModel {
  return { config, key: undefined, upstream: scriptedUpstream(script, config.name, stats) };
}

export function startGateway(model: ServedModel, budget?: number, options?: GatewayOptions) {
  const dir = tempDir("ssebench-gw-");
  const gateway = new Gateway(options);
  const run = gateway.issue("run-1", model, budget, dir.path);
  const server = gateway.serveTcp("127.0.0.1", 0);
  const url = `http://127.0.0.1:${server.port}`;
  return {
    gateway,
    run,
    url,
    dir: dir.path,
    ledger: async (): Promise<LedgerEntry[]> => {
      await run.ledger?.flush();
      return readFileSync(join(dir.path, "model-calls.jsonl"), "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as LedgerEntry);
    },
    stop: () => {
      server.stop(true);
      dir.cleanup();
    },
  };
}

/** The request body an agent of each wire sends, offering `tools` (names) after `results` tool results. */
export function requestBody(wire: Wire, model: string, opts: { stream: boolean; tools?: string[]; results?: number; namespace?: string }): Record<string, unknown> {
  const tools = opts.tools ?? [];
  const results = opts.results ?? 0;
  if (wire === "anthropic") {
    const messages: unknown[] = [{ role: "user", content: "fix it" }];
    for (let i = 0; i < results; i++) {
      messages.push({ role: "assistant", content: [{ type: "tool_use", id: `t${i}`, name: "Bash", input: {} }] });
      messages.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: "ok" }] });
    }
    return { model, max_tokens: 100, stream: opts.stream, messages, tools: tools.map((name) => ({ name, input_schema: { type: "object" } })) };
  }
  if (wire === "gemini") {
    const contents: unknown[] = [{ role: "user", parts: [{ text: "fix it" }] }];
    for (let i = 0; i < results; i++) {
      contents.push({ role: "model", parts: [{ functionCall: { name: "bash", args: {} } }] });
      contents.push({ role: "user", parts: [{ functionResponse: { name: "bash", response: { output: "ok" } } }] });
    }
    return { contents, tools: [{ functionDeclarations: tools.map((name) => ({ name, parameters: { type: "OBJECT" } })) }], generationConfig: { maxOutputTokens: 100 } };
  }
  if (wire === "chat") {
    const messages: unknown[] = [{ role: "user", content: "fix it" }];
    for (let i = 0; i < results; i++) messages.push({ role: "tool", tool_call_id: `c${i}`, content: "ok" });
    return { model, stream: opts.stream, messages, tools: tools.map((name) => ({ type: "function", function: { name, parameters: { type: "object" } } })) };
  }
  const input: unknown[] = [{ role: "user", content: "fix it" }];
  for (let i = 0; i < results; i++) input.push({ type: "function_call_output", call_id: `c${i}`, output: "ok" });
  const flat = tools.map((name) => ({ type: "function", name, parameters: { type: "object" } }));
  const list = opts.namespace ? [{ type: "namespace", name: opts.namespace, tools: flat }] : flat;
  return { model, stream: opts.stream, input, tools: list };
}

export const WIRE_PATHS: Record<Exclude<Wire, "gemini">, string> = { anthropic: "/v1/messages", chat: "/v1/chat/completions", responses: "/v1/responses" };

/** The path of a call on a wire: gemini's names the model and whether it streams (as server-sent events). */
export function wirePath(wire: Wire, model: string, stream: boolean): string {
  if (wire !== "gemini") return WIRE_PATHS[wire];
  return `/v1beta/models/${model}:${stream ? "streamGenerateContent?alt=sse" : "generateContent"}`;
}

export async function post(url: string, key: string | undefined, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
    body: JSON.stringify(body),
  });
}

/**
 * A chat upstream on 127.0.0.1 that pauses: a streamed call gets one chunk, then after `pauseMs`
 * its usage and [DONE] (never, with Infinity); a non-streamed call is never answered.
 */
export function pausingUpstream(pauseMs: number): ReturnType<typeof Bun.serve> {
  const chunk = (data: unknown) => new TextEncoder().encode(`data: ${JSON.stringify(data)}\n\n`);
  return Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      const body = (await req.json()) as { stream?: boolean };
      if (!body.stream) return new Promise<Response>(() => {});
      const stream = new ReadableStream({
        async start(c) {
          c.enqueue(chunk({ choices: [{ index: 0, delta: { content: "paused" } }] }));
          if (pauseMs === Number.POSITIVE_INFINITY) return;
          await Bun.sleep(pauseMs);
          c.enqueue(chunk({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 1 } }));
          c.enqueue(new TextEncoder().encode("data: [DONE]\n\n"));
          c.close();
        },
      });
      return new Response(stream, { headers: { "content-type": "text/event-stream" } });
    },
  });
}

