/**
 * The gateway over real HTTP on 127.0.0.1 in front of the scripted model: each wire, streamed and
 * not, answered in the wire's own shape and metered from the wire's own usage fields; the ledger,
 * the transcript and the run's totals agree with the script's usage.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Wire } from "../../src/formats/models/model-types.ts";
import { costOf } from "../../src/formats/models/model-usage.ts";
import { msg } from "../../src/gateway/messages.ts";
import { post, PRICE, requestBody, scriptedModel, startGateway, USAGE, wirePath } from "./support.ts";

const gw = startGateway(scriptedModel());
afterAll(() => gw.stop());
const MODEL = "scripted-test";
const ANTHROPIC_USAGE = USAGE;
// The OpenAI wires report no cache writes.
const OPENAI_USAGE = { ...USAGE, cache_write: 0 };
const OFFERED: Record<Wire, string[]> = { anthropic: ["Read", "Bash"], chat: ["read", "bash"], responses: ["view_image", "exec_command"], gemini: ["read_file", "bash"] };
// The OpenAI and gemini wires report no cache writes.
const expected = (wire: Wire) => (wire === "anthropic" ? ANTHROPIC_USAGE : OPENAI_USAGE);

function events(text: string): Record<string, unknown>[] {
  return text
    .split("\n")
    .filter((l) => l.startsWith("data: ") && l !== "data: [DONE]")
    .map((l) => JSON.parse(l.slice(6)) as Record<string, unknown>);
}

describe("each wire through the gateway", () => {
  for (const wire of ["anthropic", "chat", "responses", "gemini"] as const) {
    test(`${wire}, not streamed: the first turn's tool call, metered`, async () => {
      const before = gw.run.totals.spend;
      const r = await post(`${gw.url}${wirePath(wire, MODEL, false)}`, gw.run.key, requestBody(wire, MODEL, { stream: false, tools: OFFERED[wire] }));
      expect(r.status).toBe(200);
      const body = (await r.json()) as Record<string, any>;
      if (wire === "anthropic") {
        expect(body.content).toEqual([{ type: "text", text: "Let me look." }, { type: "tool_use", id: expect.any(String), name: "Bash", input: { command: "ls" } }]);
        expect(body.stop_reason).toBe("tool_use");
      } else if (wire === "chat") {
        expect(body.choices[0].message.tool_calls[0].function).toEqual({ name: "bash", arguments: '{"command":"ls"}' });
        expect(body.choices[0].finish_reason).toBe("tool_calls");
      } else if (wire === "gemini") {
        expect(body.candidates[0].content).toEqual({ role: "model", parts: [{ text: "Let me look." }, { functionCall: { name: "bash", args: { command: "ls" } } }] });
        expect(body.candidates[0].finishReason).toBe("STOP");
      } else {
        expect(body.output.map((o: any) => o.type)).toEqual(["message", "function_call"]);
        expect(body.output[1].name).toBe("exec_command");
      }
      const entry = (await gw.ledger()).at(-1);
      expect(entry).toMatchObject({ wire, stream: false, status: 200, usage: expected(wire), cost: costOf(expected(wire), PRICE), aborted: false, error: null });
      expect(gw.run.totals.spend).toBeCloseTo(before + costOf(expected(wire), PRICE), 10);
    });

    test(`${wire}, streamed: the wire's event sequence passes through, metered from its usage events`, async () => {
      const r = await post(`${gw.url}${wirePath(wire, MODEL, true)}`, gw.run.key, requestBody(wire, MODEL, { stream: true, tools: ["Bash", "bash", "exec_command"], results: 2 }));
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toStartWith("text/event-stream");
      const text = await r.text();
      const evs = events(text);
      if (wire === "anthropic") {
        expect(evs.map((e) => e.type)).toEqual(["message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop"]);
        expect(text).toContain("event: message_start\n");
      } else if (wire === "gemini") {
        // Every chunk is a response with the running usage; the last has the finish reason and the whole usage.
        expect(evs.every((e: any) => e.usageMetadata.promptTokenCount === USAGE.input + USAGE.cache_read)).toBe(true);
        expect((evs.at(-1) as any).candidates[0].finishReason).toBe("STOP");
        expect((evs.at(-1) as any).usageMetadata.candidatesTokenCount).toBe(USAGE.output);
        expect(evs.slice(0, -1).every((e: any) => e.candidates[0].finishReason === undefined)).toBe(true);
      } else if (wire === "chat") {
        // The gateway asked for the usage chunk (stream_options.include_usage) although the client did not.
        expect((evs.at(-1) as any).usage.completion_tokens).toBe(USAGE.output);
        expect(text.trimEnd().endsWith("data: [DONE]")).toBe(true);
      } else {
        const types = evs.map((e) => e.type);
        expect(types.slice(0, 2)).toEqual(["response.created", "response.in_progress"]);
        expect(types.at(-1)).toBe("response.completed");
        expect(evs.map((e) => e.sequence_number)).toEqual(evs.map((_, i) => i));
      }
      const entry = (await gw.ledger()).at(-1);
      expect(entry).toMatchObject({ wire, stream: true, status: 200, usage: expected(wire), cost: costOf(expected(wire), PRICE) });
      expect(entry?.first_byte_ms).toBeNumber();
      // The transcript holds the bytes exactly as the client got them.
      const saved = Bun.gunzipSync(await Bun.file(join(gw.dir, "model-calls", `${entry?.seq}.response.gz`)).bytes());
      expect(new TextDecoder().decode(saved)).toBe(text);
      expect(existsSync(join(gw.dir, "model-calls", `${entry?.seq}.request.json.gz`))).toBe(true);
    });
  }

  test("paths without /v1 work too; count_tokens is free", async () => {
    const r = await post(`${gw.url}/chat/completions`, gw.run.key, requestBody("chat", MODEL, { stream: false }));
    expect(r.status).toBe(200);
    expect(((await r.json()) as any).choices[0].message.content).toBe("A title");
    const spent = gw.run.totals.spend;
    const c = await post(`${gw.url}/v1/messages/count_tokens?beta=true`, gw.run.key, { model: MODEL, messages: [] }, { "x-api-key": gw.run.key });
    expect(await c.json()).toEqual({ input_tokens: USAGE.input });
    expect(gw.run.totals.spend).toBe(spent);
  });

  test("gemini: the model and method in the path, under /v1beta, /v1 or no version; its key headers; countTokens is free", async () => {
    const body = requestBody("gemini", MODEL, { stream: false, tools: ["bash"] });
    for (const prefix of ["/v1beta", "/v1", ""]) {
      const r = await post(`${gw.url}${prefix}/models/${MODEL}:generateContent`, undefined, body, { "x-goog-api-key": gw.run.key });
      expect(r.status).toBe(200);
    }
    expect((await post(`${gw.url}/v1beta/models/${MODEL}:generateContent?key=${gw.run.key}`, undefined, body)).status).toBe(200);
    const spent = gw.run.totals.spend;
    const count = await post(`${gw.url}/v1beta/models/${MODEL}:countTokens`, undefined, { contents: [] }, { "x-goog-api-key": gw.run.key });
    expect(await count.json()).toEqual({ totalTokens: USAGE.input + USAGE.cache_read });
    expect(gw.run.totals.spend).toBe(spent);
    expect((await gw.ledger()).at(-1)).toMatchObject({ wire: "gemini_count_tokens", status: 200, cost: 0 });
  });

  test("gemini: another model in the path is 403, an unknown method 404, both in Google's error shape", async () => {
    const other = await post(`${gw.url}/v1beta/models/gemini-2.5-flash-lite:generateContent`, gw.run.key, requestBody("gemini", MODEL, { stream: false }));
    expect(other.status).toBe(403);
    expect(await other.json()).toEqual({ error: { code: 403, message: msg.otherModel("gemini-2.5-flash-lite", MODEL), status: "PERMISSION_DENIED" } });
    const unknown = await post(`${gw.url}/v1beta/models/${MODEL}:embedContent`, gw.run.key, {});
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as any).error.status).toBe("NOT_FOUND");
  });

  test("gemini: a stream without alt=sse (one JSON array) is passed on as it is and metered from its last usage", async () => {
    const r = await post(`${gw.url}/v1beta/models/${MODEL}:streamGenerateContent`, gw.run.key, requestBody("gemini", MODEL, { stream: true, tools: ["bash"], results: 2 }));
    expect(r.status).toBe(200);
    const chunks = (await r.json()) as any[];
    expect(chunks.at(-1).candidates[0].finishReason).toBe("STOP");
    expect((await gw.ledger()).at(-1)).toMatchObject({ wire: "gemini", stream: true, status: 200, usage: OPENAI_USAGE, estimated: false });
  });

  test("GET /v1/models lists the run's model only", async () => {
    const r = await fetch(`${gw.url}/v1/models`, { headers: { "x-api-key": gw.run.key } });
    expect(((await r.json()) as any).data.map((m: any) => m.id)).toEqual([MODEL]);
    expect((await fetch(`${gw.url}/models`, { headers: { "api-key": gw.run.key } })).status).toBe(200);
    const one = await fetch(`${gw.url}/v1/models/${MODEL}`, { headers: { "x-api-key": gw.run.key } });
    expect(((await one.json()) as any).id).toBe(MODEL);
    expect((await fetch(`${gw.url}/v1/models/gpt-5`, { headers: { "x-api-key": gw.run.key } })).status).toBe(404);
  });

  test("codex's namespaced MCP tool is called with its namespace", async () => {
    const body = requestBody("responses", MODEL, { stream: false, tools: ["test_patch"], namespace: "mcp__ssebench", results: 1 });
    const r = await post(`${gw.url}/v1/responses`, gw.run.key, body);
    const out = ((await r.json()) as any).output;
    expect(out).toEqual([{ type: "function_call", id: expect.any(String), call_id: expect.any(String), name: "test_patch", namespace: "mcp__ssebench", arguments: "{}", status: "completed" }]);
  });

  test("the ledger's running spend and the run's totals agree with the calls' costs", async () => {
    const entries = (await gw.ledger());
    const sum = entries.reduce((s, e) => s + e.cost, 0);
    expect(gw.run.totals.spend).toBeCloseTo(sum, 9);
    expect(entries.at(-1)?.spent).toBe(gw.run.totals.spend);
    expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i + 1));
    expect(gw.run.totals.calls).toBe(entries.length);
    expect(gw.run.totals.tokens.output).toBe(entries.reduce((s, e) => s + e.usage.output, 0));
  });
});
