/**
 * Provider errors are the harness's (issue 27 item 5), at the gateway: an upstream that cannot be
 * reached, refuses the key, rate-limits or fails is counted as an upstream failure and the first of
 * a run is said at once, in one line; the model's own 4xx for a bad request stays the agent's; a
 * run's gateway that closes settles its calls in flight before it hands over the totals.
 */
import { afterAll, describe, expect, test } from "bun:test";
import type { ModelConfig } from "../../src/formats/models/model-types.ts";
import { msg } from "../../src/gateway/messages.ts";
import { Gateway } from "../../src/gateway/server.ts";
import { tempDir } from "../helpers/cli.ts";
import { pausingUpstream, post, PRICE, requestBody, startGateway } from "./support.ts";

const config = (url: string): ModelConfig => ({ name: "m", provider: "other", upstream_model: "u", base_url: url, key_env: "X", wires: ["chat"], price: PRICE });
const call = (url: string, key: string) => post(`${url}/v1/chat/completions`, key, { ...requestBody("chat", "m", { stream: false }), max_tokens: 10 });

describe("an unreachable upstream", () => {
  const said: string[] = [];
  const gw = startGateway({ config: config("http://127.0.0.1:1/v1"), key: "k", upstream: (r) => fetch(r) }, 10, { upstreamError: (_run, line) => said.push(line) });
  afterAll(() => gw.stop());

  test("the first failure is said at once in one line, later ones only in the ledger; nothing charged", async () => {
    expect((await call(gw.url, gw.run.key)).status).toBe(502);
    expect(said).toHaveLength(1);
    expect(said[0]).toStartWith("Run run-1: the upstream of model m failed a call: ");
    expect(said[0]).toContain("ECONNREFUSED");
    expect((await call(gw.url, gw.run.key)).status).toBe(502);
    expect(said).toHaveLength(1);
    expect(gw.run.totals).toMatchObject({ upstream_failures: 2, agent_last_failed_upstream: true, spend: 0 });
    expect(gw.run.totals.first_upstream_error).toContain("ECONNREFUSED");
    expect(said[0]).toBe(msg.upstreamError("run-1", "m", gw.run.totals.first_upstream_error as string));
  });
});

describe("the upstream's statuses", () => {
  let status = 200;
  const upstream = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () =>
      status === 200
        ? Response.json({ id: "x", usage: { prompt_tokens: 1, completion_tokens: 1 } })
        : Response.json({ error: { message: `upstream says ${status}`, type: "x" } }, { status }),
  });
  const said: string[] = [];
  const gw = startGateway({ config: config(`http://127.0.0.1:${upstream.port}/v1`), key: "k", upstream: (r) => fetch(r) }, 10, { upstreamError: (_run, line) => said.push(line) });
  afterAll(() => {
    gw.stop();
    upstream.stop(true);
  });

  test("a 400 or 422 answers the agent's request: not an upstream failure", async () => {
    for (status of [400, 422, 413]) expect((await call(gw.url, gw.run.key)).status).toBe(status);
    expect(gw.run.totals.upstream_failures).toBe(0);
    expect(said).toEqual([]);
  });

  test("its key refused, rate limits, its own errors: upstream failures; an answered call after them clears the last", async () => {
    for (status of [401, 429, 500, 529]) expect((await call(gw.url, gw.run.key)).status).toBe(status);
    expect(gw.run.totals).toMatchObject({ upstream_failures: 4, first_upstream_error: "401: upstream says 401", agent_last_failed_upstream: true });
    expect(said).toEqual([msg.upstreamError("run-1", "m", "401: upstream says 401")]);
    status = 200;
    expect((await call(gw.url, gw.run.key)).status).toBe(200);
    expect(gw.run.totals.agent_last_failed_upstream).toBe(false);
  });
});

test("a run's gateway that closes settles its calls in flight (after a grace) before it returns the totals", async () => {
  // An upstream that sends one chunk and then nothing, so a call whose client left is never metered.
  const upstream = pausingUpstream(Number.POSITIVE_INFINITY);
  const dir = tempDir("ssebench-gw-close-");
  const gateway = new Gateway({ limits: { closeGraceMs: 200 } });
  const run = gateway.issue("r", { config: config(`http://127.0.0.1:${upstream.port}/v1`), key: "k", upstream: (r) => fetch(r) }, 10, dir.path);
  const access = gateway.serveRun(run, `${dir.path}/model.sock`);
  try {
    const abort = new AbortController();
    const r = await fetch("http://localhost/v1/chat/completions", { unix: `${dir.path}/model.sock`, method: "POST", headers: { authorization: `Bearer ${run.key}` }, body: JSON.stringify({ ...requestBody("chat", "m", { stream: true }), max_tokens: 10 }), signal: abort.signal } as RequestInit);
    await (r.body as ReadableStream<Uint8Array>).getReader().read();
    abort.abort();
    const totals = await access.close();
    expect(totals.calls).toBe(1);
    expect(totals.spend).toBeGreaterThan(0);
    expect(run.reserved).toBe(0);
    expect(run.active.size).toBe(0);
    const entry = JSON.parse((await Bun.file(`${dir.path}/model-calls.jsonl`).text()).trim());
    expect(entry).toMatchObject({ status: 200, aborted: true, estimated: true, error: msg.runEnded() });
    // The gateway stopped it: not the upstream's failure.
    expect(totals.upstream_failures).toBe(0);
  } finally {
    upstream.stop(true);
    dir.cleanup();
  }
});
