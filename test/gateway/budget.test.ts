/**
 * The budget is a hard cap on what the provider can bill (issue 27 items 1 and 2), against the
 * loopback stand-in (stand-in.ts) that bills as much as a provider could and honours max tokens:
 * the sum it bills never exceeds the run's budget with parallel, streamed, non-streamed and
 * abandoned calls, and what the gateway charges is never less than what it billed.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { ModelConfig, Wire } from "../../src/formats/models/model-types.ts";
import { msg } from "../../src/gateway/messages.ts";
import { StandIn, type StandInOptions } from "./stand-in.ts";
import { requestBody, startGateway, wirePath } from "./support.ts";

setDefaultTimeout(60_000);
const PRICE = { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 };
const WIRES: Wire[] = ["anthropic", "chat", "responses", "gemini"];
const OUTPUT_LIMIT = 8000;

function setUp(budget: number, options: Partial<StandInOptions> = {}) {
  const standIn = new StandIn({ price: PRICE, outputLimit: OUTPUT_LIMIT, tokensPerEvent: 400, cacheWriteShare: 0.5, ...options });
  const config: ModelConfig = { name: "m", provider: "other", upstream_model: "stand-in", base_url: standIn.url, key_env: "X", wires: WIRES, price: PRICE, max_output_tokens: OUTPUT_LIMIT };
  const gw = startGateway({ config, key: "k", upstream: (r) => fetch(r) }, budget);
  /** Waits until every call the gateway took has been settled (abandoned ones settle after their client left). */
  const settled = async (calls: number) => {
    for (let i = 0; i < 500 && (gw.run.totals.calls < calls || (gw.run.reserved ?? 0) > 0); i++) await Bun.sleep(20);
    expect(gw.run.totals.calls).toBe(calls);
    expect(gw.run.reserved ?? 0).toBe(0);
  };
  return { standIn, gw, settled, stop: () => (gw.stop(), standIn.stop()) };
}

function body(wire: Wire, stream: boolean, cap: number | undefined): Record<string, unknown> {
  const b = requestBody(wire, "m", { stream, tools: ["bash"] });
  delete b.max_tokens;
  delete b.generationConfig;
  if (cap !== undefined && wire === "gemini") b.generationConfig = { maxOutputTokens: cap };
  else if (cap !== undefined) b[wire === "anthropic" ? "max_tokens" : wire === "chat" ? "max_completion_tokens" : "max_output_tokens"] = cap;
  else if (wire === "anthropic") b.max_tokens = OUTPUT_LIMIT;
  return b;
}

/** One call; `abandon`: read the first chunk of the answer, then hang up. Returns the status. */
async function call(url: string, key: string, wire: Wire, opts: { stream: boolean; cap?: number; abandon?: boolean }): Promise<number> {
  const abort = new AbortController();
  const r = await fetch(`${url}${wirePath(wire, "m", opts.stream)}`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: JSON.stringify(body(wire, opts.stream, opts.cap)), signal: abort.signal });
  if (opts.abandon && r.ok) {
    await (r.body as ReadableStream<Uint8Array>).getReader().read();
    abort.abort();
    return r.status;
  }
  await r.arrayBuffer();
  return r.status;
}

describe("parallel calls", () => {
  test("8 parallel streamed calls of up to $0.12 each bill no more than a $0.30 budget", async () => {
    const s = setUp(0.3, { paceMs: 5 });
    afterAll(s.stop);
    const statuses = await Promise.all(Array.from({ length: 8 }, (_, i) => call(s.gw.url, s.gw.run.key, WIRES[i % WIRES.length] as Wire, { stream: true, cap: OUTPUT_LIMIT })));
    await s.settled(8);
    expect(statuses.filter((x) => x === 200).length).toBeGreaterThan(0);
    expect(s.standIn.bill.usd).toBeLessThanOrEqual(0.3);
    expect(s.gw.run.totals.spend).toBeGreaterThanOrEqual(s.standIn.bill.usd - 1e-9);
    expect(s.gw.run.totals.spend).toBeLessThanOrEqual(0.3);
  });

  test("rounds of mixed calls (wires, streamed or not, abandoned, with and without a cap) until every call is refused", async () => {
    const budget = 0.5;
    const s = setUp(budget, { paceMs: 2 });
    afterAll(s.stop);
    let seed = 27;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    let calls = 0;
    for (let round = 0; round < 40; round++) {
      const batch = Array.from({ length: 6 }, () => {
        const wire = WIRES[Math.floor(random() * WIRES.length)] as Wire;
        const stream = random() < 0.7;
        const cap = random() < 0.3 ? undefined : 1 + Math.floor(random() * OUTPUT_LIMIT);
        return call(s.gw.url, s.gw.run.key, wire, { stream, cap, abandon: stream && random() < 0.3 });
      });
      const statuses = await Promise.all(batch);
      calls += statuses.length;
      expect(statuses.every((x) => x === 200 || x === 400)).toBe(true);
      if (statuses.every((x) => x === 400)) break;
    }
    await s.settled(calls);
    expect(s.standIn.bill.usd).toBeGreaterThan(budget * 0.5);
    expect(s.standIn.bill.usd).toBeLessThanOrEqual(budget);
    expect(s.gw.run.totals.spend).toBeGreaterThanOrEqual(s.standIn.bill.usd - 1e-9);
    expect(s.gw.run.totals.spend).toBeLessThanOrEqual(budget);
  });
});

describe("one call", () => {
  test("a cap larger than what is left is lowered so the call fits; the answer is whole", async () => {
    const s = setUp(0.05);
    afterAll(s.stop);
    expect(await call(s.gw.url, s.gw.run.key, "anthropic", { stream: true, cap: OUTPUT_LIMIT })).toBe(200);
    const cap = s.standIn.bill.caps.at(-1) as number;
    expect(cap).toBeLessThan(OUTPUT_LIMIT);
    expect(cap).toBeGreaterThan(1000);
    await s.settled(1);
    expect(s.standIn.bill.usd).toBeLessThanOrEqual(0.05);
  });

  test("a call without a cap gets one: at most the model's output limit, less when that does not fit", async () => {
    const s = setUp(1);
    afterAll(s.stop);
    expect(await call(s.gw.url, s.gw.run.key, "chat", { stream: false })).toBe(200);
    expect(s.standIn.bill.caps.at(-1)).toBe(OUTPUT_LIMIT);
    expect(await call(s.gw.url, s.gw.run.key, "responses", { stream: true })).toBe(200);
    expect(s.standIn.bill.caps.at(-1)).toBe(OUTPUT_LIMIT);
    expect(await call(s.gw.url, s.gw.run.key, "gemini", { stream: true })).toBe(200);
    expect(s.standIn.bill.caps.at(-1)).toBe(OUTPUT_LIMIT);
    await s.settled(3);
  });

  test("gemini: candidateCount answers are reserved each, the cap lowered to fit them", async () => {
    const s = setUp(0.1);
    afterAll(s.stop);
    const r = await fetch(`${s.gw.url}${wirePath("gemini", "m", false)}`, { method: "POST", headers: { "x-goog-api-key": s.gw.run.key }, body: JSON.stringify({ ...body("gemini", false, OUTPUT_LIMIT), generationConfig: { maxOutputTokens: OUTPUT_LIMIT, candidateCount: 4 } }) });
    expect(r.status).toBe(200);
    expect(s.standIn.bill.caps.at(-1)).toBeLessThan(OUTPUT_LIMIT / 4);
    await s.settled(1);
    expect(s.standIn.bill.usd).toBeLessThanOrEqual(0.1);
  });

  test("when not even the input fits: today's 400 and message, nothing forwarded", async () => {
    const s = setUp(0.001);
    afterAll(s.stop);
    const r = await fetch(`${s.gw.url}/v1/messages`, { method: "POST", headers: { authorization: `Bearer ${s.gw.run.key}` }, body: JSON.stringify(body("anthropic", false, 100)) });
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual({ type: "error", error: { type: "invalid_request_error", message: msg.budgetSpent(0, 0.001) } });
    expect(s.standIn.bill.calls).toBe(0);
  });
});

describe("hang-ups never escape metering", () => {
  for (const wire of WIRES) {
    test(`${wire}: a client that reads the first chunk and leaves is charged at least what the provider bills`, async () => {
      const s = setUp(10, { paceMs: 5 });
      afterAll(s.stop);
      expect(await call(s.gw.url, s.gw.run.key, wire, { stream: true, cap: 4000, abandon: true })).toBe(200);
      await s.settled(1);
      expect(s.standIn.bill.calls).toBe(1);
      expect(s.gw.run.totals.spend).toBeGreaterThanOrEqual(s.standIn.bill.usd - 1e-9);
      // Read on to its usage within the drain bounds: metered, not estimated.
      expect((await s.gw.ledger()).at(-1)).toMatchObject({ status: 200, aborted: true, estimated: false });
    });
  }

  test("an upstream that reports no usage is charged the call's upper bound", async () => {
    const s = setUp(10, { noUsage: true });
    afterAll(s.stop);
    for (const stream of [true, false]) expect(await call(s.gw.url, s.gw.run.key, "chat", { stream, cap: 2000 })).toBe(200);
    await s.settled(2);
    expect(s.gw.run.totals.spend).toBeGreaterThanOrEqual(s.standIn.bill.usd - 1e-9);
  });

  test("a stream the upstream cuts before its usage is charged the call's upper bound", async () => {
    const s = setUp(10, { dropAfterEvents: 3 });
    afterAll(s.stop);
    await call(s.gw.url, s.gw.run.key, "anthropic", { stream: true, cap: 4000 }).catch(() => 0);
    await s.settled(1);
    expect(s.standIn.bill.calls).toBe(1);
    expect(s.gw.run.totals.spend).toBeGreaterThanOrEqual(s.standIn.bill.usd - 1e-9);
  });
});
