/**
 * What one run's agent may hold of the gateway (issue 27 item 3), over real HTTP on 127.0.0.1:
 * bodies are capped before they are buffered (413), read against a deadline (408), a run's calls
 * in flight are capped (429, the connection closed), a silent upstream is given up (504, or a cut
 * stream charged its reservation), a non-streamed answer is capped; a dropped connection is one
 * log line.
 */
import { afterAll, describe, expect, test } from "bun:test";
import type { ModelConfig } from "../../src/formats/models/model-types.ts";
import { msg } from "../../src/gateway/messages.ts";
import { StandIn } from "./stand-in.ts";
import { pausingUpstream, post, PRICE, requestBody, startGateway } from "./support.ts";

const MODEL = "m";
const config = (url: string): ModelConfig => ({ name: MODEL, provider: "other", upstream_model: "u", base_url: url, key_env: "X", wires: ["chat", "anthropic", "responses"], price: PRICE });

/** A raw HTTP/1.1 request: headers and `sent` of the body, then the socket stays open. */
async function rawRequest(port: number, key: string, declared: number | "chunked", sent: string) {
  let answer = "";
  let closed = false;
  const socket = await Bun.connect({
    hostname: "127.0.0.1",
    port,
    socket: {
      data: (_s, d) => {
        answer += d.toString();
      },
      close: () => {
        closed = true;
      },
      error: () => {},
    },
  });
  const length = declared === "chunked" ? "Transfer-Encoding: chunked" : `Content-Length: ${declared}`;
  socket.write(`POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n${length}\r\n\r\n${sent}`);
  return { socket, answer: () => answer, closed: () => closed };
}

async function until(done: () => boolean, ms = 5000): Promise<void> {
  for (let waited = 0; !done() && waited < ms; waited += 10) await Bun.sleep(10);
}

describe("request bodies", () => {
  const standIn = new StandIn({ price: PRICE });
  const lines: string[] = [];
  const gw = startGateway({ config: config(standIn.url), key: "k", upstream: (r) => fetch(r) }, 10, { limits: { maxBodyBytes: 4096, bodyMs: 300 }, log: (l) => lines.push(l) });
  const port = Number(new URL(gw.url).port);
  afterAll(() => {
    gw.stop();
    standIn.stop();
  });

  test("a declared length over the cap: 413 at once, before the body is sent, and the connection closed", async () => {
    const r = await rawRequest(port, gw.run.key, 120_000_000, "{");
    await until(r.closed);
    expect(r.answer()).toStartWith("HTTP/1.1 413");
    expect(r.answer()).toContain(msg.bodyTooLarge(4096));
    expect(r.closed()).toBe(true);
    expect((await gw.ledger()).at(-1)).toMatchObject({ status: 413, error: msg.bodyTooLarge(4096), cost: 0 });
  });

  test("a chunked body that grows over the cap: 413 once the cap is passed", async () => {
    const chunk = "x".repeat(3000);
    const r = await rawRequest(port, gw.run.key, "chunked", `${chunk.length.toString(16)}\r\n${chunk}\r\n${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    await until(r.closed);
    expect(r.answer()).toStartWith("HTTP/1.1 413");
  });

  test("a body that stalls: 408 after the deadline, the connection closed, one log line", async () => {
    const before = lines.length;
    const r = await rawRequest(port, gw.run.key, 1000, '{"model":');
    await until(r.closed);
    expect(r.answer()).toStartWith("HTTP/1.1 408");
    expect(lines.slice(before)).toEqual([msg.bodyDropped("run-1", msg.bodyTooSlow(0.3))]);
  });

  test("a client that leaves in the middle of its body: one log line, no stack", async () => {
    const before = lines.length;
    const r = await rawRequest(port, gw.run.key, 1000, '{"model":"m"');
    await Bun.sleep(50);
    r.socket.end();
    await until(() => lines.length > before);
    expect(lines.slice(before)).toEqual([msg.clientLeft("run-1", 12)]);
    expect((await gw.ledger()).at(-1)).toMatchObject({ status: 499, error: msg.clientLeft("run-1", 12) });
  });

  test("under the cap: answered", async () => {
    expect((await post(`${gw.url}/v1/chat/completions`, gw.run.key, { ...requestBody("chat", MODEL, { stream: false }), max_tokens: 10 })).status).toBe(200);
  });
});

describe("calls in flight", () => {
  const standIn = new StandIn({ price: PRICE, paceMs: 20, tokensPerEvent: 10 });
  const gw = startGateway({ config: config(standIn.url), key: "k", upstream: (r) => fetch(r) }, 10, { limits: { maxCalls: 2 } });
  afterAll(() => {
    gw.stop();
    standIn.stop();
  });

  test("past the run's cap: 429 with the connection closed; a slot frees when a call is settled", async () => {
    const body = { ...requestBody("chat", MODEL, { stream: true }), max_tokens: 200 };
    const [a, b] = await Promise.all([post(`${gw.url}/v1/chat/completions`, gw.run.key, body), post(`${gw.url}/v1/chat/completions`, gw.run.key, body)]);
    const third = await post(`${gw.url}/v1/chat/completions`, gw.run.key, body);
    expect(third.status).toBe(429);
    expect(third.headers.get("connection")).toBe("close");
    expect(third.headers.get("retry-after")).toBe("1");
    expect(((await third.json()) as any).error.message).toBe(msg.tooManyCalls(2));
    await Promise.all([a.text(), b.text()]);
    await until(() => gw.run.inFlight === 0);
    const fourth = await post(`${gw.url}/v1/chat/completions`, gw.run.key, body);
    expect(fourth.status).toBe(200);
    await fourth.text();
  });
});

describe("a silent upstream", () => {
  const silent = pausingUpstream(Number.POSITIVE_INFINITY);
  const gw = startGateway({ config: config(`http://127.0.0.1:${silent.port}/v1`), key: "k", upstream: (r) => fetch(r) }, 10, { limits: { upstreamIdleMs: 300 } });
  afterAll(() => {
    gw.stop();
    silent.stop(true);
  });

  test("no answer: 504 in the wire's shape after the idle bound, charged its reservation (the request went out)", async () => {
    const r = await post(`${gw.url}/v1/chat/completions`, gw.run.key, { ...requestBody("chat", MODEL, { stream: false }), max_tokens: 10 });
    expect(r.status).toBe(504);
    expect(((await r.json()) as any).error.message).toBe(msg.upstreamSilent(0.3));
    expect((await gw.ledger()).at(-1)).toMatchObject({ status: 504, error: msg.upstreamSilent(0.3), estimated: true });
  });

  test("a stream that goes silent is cut after the idle bound and charged its reservation", async () => {
    const r = await post(`${gw.url}/v1/chat/completions`, gw.run.key, { ...requestBody("chat", MODEL, { stream: true }), max_tokens: 10 });
    expect(r.status).toBe(200);
    await r.text().catch(() => "cut");
    await until(() => gw.run.inFlight === 0);
    expect((await gw.ledger()).at(-1)).toMatchObject({ status: 200, error: msg.upstreamSilent(0.3), estimated: true });
    expect(gw.run.reserved).toBe(0);
  });
});

test("a non-streamed answer over the cap: 502, charged its reservation", async () => {
  const big = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => Response.json({ text: "x".repeat(10_000), usage: { prompt_tokens: 1, completion_tokens: 1 } }) });
  const gw = startGateway({ config: config(`http://127.0.0.1:${big.port}/v1`), key: "k", upstream: (r) => fetch(r) }, 10, { limits: { answerBytes: 1000 } });
  try {
    const r = await post(`${gw.url}/v1/chat/completions`, gw.run.key, { ...requestBody("chat", MODEL, { stream: false }), max_tokens: 10 });
    expect(r.status).toBe(502);
    expect(((await r.json()) as any).error.message).toBe(msg.upstreamFailed(msg.answerTooLarge(1000)));
    expect((await gw.ledger()).at(-1)).toMatchObject({ status: 502, estimated: true });
  } finally {
    gw.stop();
    big.stop(true);
  }
});
