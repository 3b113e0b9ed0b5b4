/** The stream meter reads each wire's usage events whatever the chunking (lines split anywhere, CRLF). */
import { describe, expect, test } from "bun:test";
import type { Wire } from "../../src/formats/models/model-types.ts";
import { scriptedUpstream } from "../../src/gateway/scripted/provider.ts";
import { costOf, StreamMeter, usageOfBody } from "../../src/formats/models/model-usage.ts";
import { PRICE, requestBody, SCRIPT, USAGE } from "../gateway/support.ts";

const upstream = scriptedUpstream({ ...SCRIPT, turns: [{ text: "Grüße — ünïcödé text, long enough for several deltas.", calls: [] }] }, "m");
const paths: Record<Wire, string> = { anthropic: "/v1/messages", chat: "/v1/chat/completions", responses: "/v1/responses", gemini: "/v1beta/models/m:streamGenerateContent?alt=sse" };

async function streamBytes(wire: Wire): Promise<Uint8Array> {
  const r = await upstream(new Request(`http://x${paths[wire]}`, { method: "POST", body: JSON.stringify({ ...requestBody(wire, "m", { stream: true, tools: ["x"] }), stream_options: { include_usage: true } }) }));
  return new Uint8Array(await r.arrayBuffer());
}

describe("stream meter", () => {
  for (const wire of ["anthropic", "chat", "responses", "gemini"] as const) {
    test(`${wire}: the same usage for 1-, 7- and 4096-byte chunks, and with CRLF line ends`, async () => {
      const bytes = await streamBytes(wire);
      const expected = wire === "anthropic" ? USAGE : { ...USAGE, cache_write: 0 };
      for (const size of [1, 7, 4096]) {
        const meter = new StreamMeter(wire);
        const decoder = new TextDecoder();
        for (let i = 0; i < bytes.length; i += size) meter.push(decoder.decode(bytes.subarray(i, i + size), { stream: true }));
        meter.end();
        expect(meter.usage).toEqual(expected);
      }
      const crlf = new StreamMeter(wire);
      crlf.push(new TextDecoder().decode(bytes).replaceAll("\n", "\r\n"));
      crlf.end();
      expect(crlf.usage).toEqual(expected);
    });
  }

  test("gemini: cached tokens out of the prompt count, the tool-use prompt as input, thoughts as output; the last running total is the call's", () => {
    const usage = { promptTokenCount: 1000, cachedContentTokenCount: 400, toolUsePromptTokenCount: 50, candidatesTokenCount: 30, thoughtsTokenCount: 70 };
    expect(usageOfBody("gemini", { usageMetadata: usage })).toEqual({ input: 650, output: 100, cache_read: 400, cache_write: 0 });
    const meter = new StreamMeter("gemini");
    meter.push(`data: ${JSON.stringify({ candidates: [{ content: { parts: [{ text: "a" }] } }], usageMetadata: { promptTokenCount: 1000 } })}\n\n`);
    expect(meter.final).toBe(false);
    meter.push(`data: ${JSON.stringify({ candidates: [{ content: { parts: [{ text: "b" }] }, finishReason: "STOP" }], usageMetadata: usage })}\n\n`);
    expect(meter.final).toBe(true);
    expect(meter.usage).toEqual({ input: 650, output: 100, cache_read: 400, cache_write: 0 });
    // A blocked prompt ends the answer without candidates.
    const blocked = new StreamMeter("gemini");
    blocked.push(`data: ${JSON.stringify({ promptFeedback: { blockReason: "SAFETY" }, usageMetadata: { promptTokenCount: 9 } })}\n\n`);
    expect([blocked.final, blocked.usage.input]).toEqual([true, 9]);
  });

  test("cost: per million tokens, each kind at its price", () => {
    expect(costOf({ input: 1e6, output: 1e6, cache_read: 1e6, cache_write: 1e6 }, PRICE)).toBe(3 + 15 + 0.3 + 3.75);
    expect(costOf({ input: 0, output: 0, cache_read: 0, cache_write: 0 }, PRICE)).toBe(0);
  });
});
