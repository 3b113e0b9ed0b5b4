/**
 * Keys, budgets, hosted tools and forwarding over real HTTP on 127.0.0.1: the budget cut-off is a
 * provider-shaped 400 (never 429), unknown keys 401, another model 403; a real HTTP upstream gets
 * the upstream's key (never the client's), the upstream model name and no hosted tools; a client
 * that goes away mid-stream stops the upstream's stream.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { ModelConfig } from "../../src/formats/models/model-types.ts";
import { msg } from "../../src/gateway/messages.ts";
import { type ScriptedStats, scriptedUpstream, serveScripted } from "../../src/gateway/scripted/provider.ts";
import { post, PRICE, requestBody, SCRIPT, scriptedModel, startGateway } from "./support.ts";

const MODEL = "scripted-test";

describe("keys and budgets", () => {
  // One anthropic call costs $0.006495 and reserves about $0.019 (its worst case, budget.ts): after
  // the first, what is left of $0.02 does not fit the second.
  const gw = startGateway(scriptedModel(), 0.02);
  afterAll(() => gw.stop());

  test("no key, an unknown key: 401 in the wire's error shape", async () => {
    const none = await post(`${gw.url}/v1/messages`, undefined, requestBody("anthropic", MODEL, { stream: false }));
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ type: "error", error: { type: "authentication_error", message: msg.noKey() } });
    const wrong = await post(`${gw.url}/v1/chat/completions`, "sk-ssebench-nope", requestBody("chat", MODEL, { stream: false }));
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: { message: msg.unknownKey(), type: "invalid_request_error", param: null, code: "invalid_api_key" } });
  });

  test("another model: 403", async () => {
    const r = await post(`${gw.url}/v1/responses`, gw.run.key, requestBody("responses", "gpt-5", { stream: false }));
    expect(r.status).toBe(403);
    expect(((await r.json()) as any).error.message).toBe(msg.otherModel("gpt-5", MODEL));
  });

  test("once what is left fits no call: 400 with the provider's error shape, logged, nothing forwarded", async () => {
    expect(await (await post(`${gw.url}/v1/messages`, gw.run.key, requestBody("anthropic", MODEL, { stream: true }))).text()).toContain("message_stop");
    const spent = gw.run.totals.spend;
    expect(spent).toBe(0.006495);
    const anthropic = await post(`${gw.url}/v1/messages`, gw.run.key, requestBody("anthropic", MODEL, { stream: true }));
    expect(anthropic.status).toBe(400);
    expect(await anthropic.json()).toEqual({ type: "error", error: { type: "invalid_request_error", message: msg.budgetSpent(spent, 0.02) } });
    const chat = await post(`${gw.url}/v1/chat/completions`, gw.run.key, requestBody("chat", MODEL, { stream: false }));
    expect(chat.status).toBe(400);
    expect(((await chat.json()) as any).error).toEqual({ message: msg.budgetSpent(spent, 0.02), type: "invalid_request_error", param: null, code: "budget_exceeded" });
    expect(gw.run.totals.spend).toBe(spent);
    expect(gw.run.totals.answered).toBe(1);
    // The 403 of the test before, the answered call, two refusals: all logged and counted.
    expect((await gw.ledger()).map((e) => [e.status, e.cost > 0])).toEqual([[403, false], [200, true], [400, false], [400, false]]);
    expect(gw.run.totals.calls).toBe(4);
    // Refused calls keep no bodies (they cost nothing, so they could fill the disk for free).
    expect(["1.request.json.gz", "2.request.json.gz", "3.request.json.gz", "3.response.gz"].map((f) => existsSync(join(gw.dir, "model-calls", f)))).toEqual([false, true, false, false]);
  });
});

test("the budget-spent message shows a budget under a cent as given, not rounded to $0.00", () => {
  expect(msg.budgetSpent(0.0006, 0.0001)).toBe("Budget exhausted: this run spent $0.0006 of its $0.0001 budget; no further model calls are answered");
  expect(msg.budgetSpent(10.5, 10)).toBe("Budget exhausted: this run spent $10.5000 of its $10.00 budget; no further model calls are answered");
});

describe("forwarding to a real HTTP upstream", () => {
  const seen: { headers: Headers; body: any; path: string }[] = [];
  const upstream = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const body = await req.json();
      seen.push({ headers: req.headers, body, path: new URL(req.url).pathname + new URL(req.url).search });
      return Response.json({ id: "x", object: "chat.completion", choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 4 } } });
    },
  });
  const config: ModelConfig = { name: "gpt-test", provider: "other", upstream_model: "vendor-model-7", base_url: `http://127.0.0.1:${upstream.port}/api/v1/`, key_env: "X", wires: ["chat", "responses", "anthropic", "gemini"], price: PRICE };
  const gw = startGateway({ config, key: "upstream-secret", upstream: (r) => fetch(r) });
  afterAll(() => {
    gw.stop();
    upstream.stop(true);
  });

  test("the upstream's key and model name, never the client's; usage from the answer", async () => {
    const r = await post(`${gw.url}/v1/chat/completions`, gw.run.key, requestBody("chat", "gpt-test", { stream: false, tools: ["bash"] }), { "x-api-key": gw.run.key, cookie: "a=b" });
    expect(r.status).toBe(200);
    const got = seen.at(-1) as (typeof seen)[number];
    expect(got.path).toBe("/api/v1/chat/completions");
    expect(got.headers.get("authorization")).toBe("Bearer upstream-secret");
    expect(got.headers.get("x-api-key")).toBeNull();
    expect(got.headers.get("cookie")).toBeNull();
    expect(got.body.model).toBe("vendor-model-7");
    expect((await gw.ledger()).at(-1)?.usage).toEqual({ input: 6, output: 5, cache_read: 4, cache_write: 0 });
  });

  test("anthropic: x-api-key upstream, version and beta headers and the query passed on", async () => {
    await post(`${gw.url}/v1/messages?beta=true`, gw.run.key, requestBody("anthropic", "gpt-test", { stream: false }), { "anthropic-beta": "claude-code-20250219" });
    const got = seen.at(-1) as (typeof seen)[number];
    expect(got.path).toBe("/api/v1/messages?beta=true");
    expect(got.headers.get("x-api-key")).toBe("upstream-secret");
    expect(got.headers.get("authorization")).toBeNull();
    expect(got.headers.get("anthropic-version")).toBe("2023-06-01");
    expect(got.headers.get("anthropic-beta")).toBe("claude-code-20250219");
  });

  test("gemini: x-goog-api-key upstream, the upstream model in the path, only ?alt=sse passed on, the body's fields kept", async () => {
    const body = requestBody("gemini", "gpt-test", { stream: false, tools: ["bash"] });
    await post(`${gw.url}/v1beta/models/gpt-test:streamGenerateContent?alt=sse&key=${gw.run.key}&x=1`, undefined, body);
    const got = seen.at(-1) as (typeof seen)[number];
    expect(got.path).toBe("/api/v1/models/vendor-model-7:streamGenerateContent?alt=sse");
    expect(got.headers.get("x-goog-api-key")).toBe("upstream-secret");
    expect(got.headers.get("authorization")).toBeNull();
    expect(got.body).toEqual(body);
    await post(`${gw.url}/v1beta/models/gpt-test:generateContent?alt=sse`, gw.run.key, body);
    expect(seen.at(-1)?.path).toBe("/api/v1/models/vendor-model-7:generateContent");
  });

  test("hosted server tools are stripped from every wire", async () => {
    const responses = requestBody("responses", "gpt-test", { stream: false, tools: ["exec_command"] });
    (responses.tools as unknown[]).push({ type: "web_search", external_web_access: true }, { type: "tool_search" }, { type: "mcp", server_url: "https://x" }, { type: "code_interpreter" });
    await post(`${gw.url}/v1/responses`, gw.run.key, responses);
    expect(seen.at(-1)?.body.tools.map((t: any) => t.type)).toEqual(["function"]);
    expect((await gw.ledger()).at(-1)?.stripped).toEqual(["web_search", "tool_search", "mcp", "code_interpreter"]);

    const anthropic = requestBody("anthropic", "gpt-test", { stream: false, tools: ["Bash"] });
    (anthropic.tools as unknown[]).push({ type: "web_search_20250305", name: "web_search" }, { type: "web_fetch_20250910", name: "web_fetch" }, { type: "code_execution_20250825", name: "code_execution" }, { type: "bash_20250124", name: "bash" });
    anthropic.mcp_servers = [{ type: "url", url: "https://x" }];
    await post(`${gw.url}/v1/messages`, gw.run.key, anthropic);
    const sent = seen.at(-1)?.body;
    expect(sent.tools.map((t: any) => t.name)).toEqual(["Bash", "bash"]);
    expect(sent.mcp_servers).toBeUndefined();

    const chat = requestBody("chat", "gpt-test", { stream: false });
    chat.web_search_options = {};
    chat.tools = [{ type: "web_search_preview" }];
    chat.tool_choice = "auto";
    await post(`${gw.url}/v1/chat/completions`, gw.run.key, chat);
    expect(seen.at(-1)?.body.tools).toBeUndefined();
    expect(seen.at(-1)?.body.tool_choice).toBeUndefined();
    expect(seen.at(-1)?.body.web_search_options).toBeUndefined();

    // gemini: only function declarations stay, in either spelling; a tool object may hold several kinds.
    const gemini = requestBody("gemini", "gpt-test", { stream: false, tools: ["run_shell_command"] });
    (gemini.tools as unknown[]).push({ googleSearch: {} }, { code_execution: {}, function_declarations: [{ name: "edit" }] }, { URLCONTEXT: {} }, { googleSearchRetrieval: { dynamicRetrievalConfig: {} } });
    await post(`${gw.url}/v1beta/models/gpt-test:generateContent`, gw.run.key, gemini);
    expect(seen.at(-1)?.body.tools).toEqual([{ functionDeclarations: [{ name: "run_shell_command", parameters: { type: "OBJECT" } }] }, { function_declarations: [{ name: "edit" }] }]);
    expect((await gw.ledger()).at(-1)?.stripped).toEqual(["googleSearch", "code_execution", "URLCONTEXT", "googleSearchRetrieval"]);
    const searchOnly = { ...requestBody("gemini", "gpt-test", { stream: false }), tools: [{ google_search: {} }], toolConfig: { functionCallingConfig: { mode: "ANY" } } };
    await post(`${gw.url}/v1beta/models/gpt-test:generateContent`, gw.run.key, searchOnly);
    expect(seen.at(-1)?.body.tools).toBeUndefined();
    expect(seen.at(-1)?.body.toolConfig).toBeUndefined();
  });
});

describe("a client that goes away mid-stream", () => {
  const long = { ...SCRIPT, turns: [{ text: "word ".repeat(400), calls: [] }], delay_ms: 20 };
  const config: ModelConfig = { name: MODEL, provider: "other", upstream_model: "slow", base_url: "", key_env: "X", wires: ["chat"], price: PRICE };
  /** A gateway in front of the slow scripted model over HTTP; the client reads two chunks and leaves. */
  async function leave(drainMs?: number) {
    const stats: ScriptedStats = { calls: 0, streams: 0, completed: 0, cancelled: 0 };
    const scripted = serveScripted(scriptedUpstream(long, "slow", stats));
    const gw = startGateway({ config: { ...config, base_url: scripted.url }, key: "k", upstream: (r) => fetch(r) }, 10, { limits: drainMs ? { drainMs } : {} });
    afterAll(() => {
      gw.stop();
      scripted.stop();
    });
    const abort = new AbortController();
    const r = await fetch(`${gw.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${gw.run.key}` },
      body: JSON.stringify(requestBody("chat", MODEL, { stream: true, tools: ["bash"] })),
      signal: abort.signal,
    });
    const reader = (r.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await reader.read();
    abort.abort();
    for (let i = 0; i < 500 && gw.run.totals.calls === 0; i++) await Bun.sleep(20);
    return { stats, gw, entry: (await gw.ledger()).at(-1) };
  }

  test("the upstream is read on to its usage (then stopped), which is charged; the ledger says aborted", async () => {
    const { stats, entry } = await leave();
    // Stopped after the usage chunk, before its [DONE].
    expect(stats).toEqual({ calls: 1, streams: 1, completed: 0, cancelled: 1 });
    expect(entry).toMatchObject({ status: 200, stream: true, aborted: true, estimated: false, usage: { ...SCRIPT.usage, cache_write: 0 } });
  });

  test("past the drain's time bound the upstream is stopped and the call charged its reservation", async () => {
    const { stats, gw, entry } = await leave(100);
    expect(stats).toEqual({ calls: 1, streams: 1, completed: 0, cancelled: 1 });
    expect(entry).toMatchObject({ status: 200, stream: true, aborted: true, estimated: true, error: msg.drainBounded(0.1, 64 * 1024 * 1024) });
    expect(entry?.cost).toBeGreaterThan(0.01);
    expect(gw.run.reserved).toBe(0);
  });
});
