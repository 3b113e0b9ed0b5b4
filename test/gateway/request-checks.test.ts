/**
 * What an agent's request cannot do to the gateway (issue 27 item 4), over real HTTP on 127.0.0.1:
 * deep JSON in `model` is a 400 with a ledger line (not a RangeError and a 500), hosted tools are
 * stripped whatever their case, the agent's query string stays here, and keys compare in constant
 * time (digests of equal length, whatever was sent).
 */
import { afterAll, describe, expect, test } from "bun:test";
import type { ModelConfig } from "../../src/formats/models/model-types.ts";
import { sameKey } from "../../src/gateway/keys.ts";
import { msg } from "../../src/gateway/messages.ts";
import { post, PRICE, requestBody, startGateway } from "./support.ts";

const seen: { body: any; path: string }[] = [];
const upstream = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    seen.push({ body: await req.json(), path: new URL(req.url).pathname + new URL(req.url).search });
    return Response.json({ id: "x", object: "chat.completion", choices: [], usage: { prompt_tokens: 10, completion_tokens: 5 } });
  },
});
const config: ModelConfig = { name: "m", provider: "other", upstream_model: "up", base_url: `http://127.0.0.1:${upstream.port}/v1`, key_env: "X", wires: ["chat", "responses", "anthropic", "gemini"], price: PRICE };
const gw = startGateway({ config, key: "upstream-secret", upstream: (r) => fetch(r) });
afterAll(() => {
  gw.stop();
  upstream.stop(true);
});

describe("a model that is not a name", () => {
  test("deep JSON in model: 400 in the wire's shape and a ledger line, nothing forwarded", async () => {
    const depth = 200_000;
    const text = `{"model":${"[".repeat(depth)}${"]".repeat(depth)},"messages":[]}`;
    const before = seen.length;
    const r = await fetch(`${gw.url}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${gw.run.key}` }, body: text });
    expect(r.status).toBe(400);
    expect(((await r.json()) as any).error.message).toBe(msg.modelNotName());
    expect(seen.length).toBe(before);
    expect((await gw.ledger()).at(-1)).toMatchObject({ status: 400, error: msg.modelNotName(), cost: 0 });
  });

  test("deep JSON elsewhere in the body: 400, never a 500", async () => {
    const depth = 200_000;
    const text = `{"model":"m","messages":${"[".repeat(depth)}${"]".repeat(depth)}}`;
    const r = await fetch(`${gw.url}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${gw.run.key}` }, body: text });
    expect(r.status).toBe(400);
    expect(((await r.json()) as any).error.message).toBe(msg.tooDeep(512));
  });

  test("a long other model's name is shown cut short", async () => {
    const r = await post(`${gw.url}/v1/chat/completions`, gw.run.key, requestBody("chat", "x".repeat(100_000), { stream: false }));
    expect(r.status).toBe(403);
    const message = ((await r.json()) as any).error.message as string;
    expect(message).toBe(msg.otherModel(`${"x".repeat(64)}…`, "m"));
  });
});

describe("hosted tools in any case", () => {
  test("Responses, Anthropic and Chat: types compared without case; parameters too", async () => {
    const responses = requestBody("responses", "m", { stream: false, tools: ["exec_command"] });
    (responses.tools as unknown[]).push({ type: "WEB_SEARCH" }, { type: "Web_Search_Preview" }, { type: "MCP", server_url: "https://x" }, { type: "Code_Interpreter" });
    responses.tool_choice = { type: "Web_Search" };
    await post(`${gw.url}/v1/responses`, gw.run.key, responses);
    expect(seen.at(-1)?.body.tools.map((t: any) => t.type)).toEqual(["function"]);
    expect(seen.at(-1)?.body.tool_choice).toBe("auto");

    const anthropic = requestBody("anthropic", "m", { stream: false, tools: ["Bash"] });
    (anthropic.tools as unknown[]).push({ type: "WEB_FETCH_20250910", name: "f" }, { type: "Code_Execution_20250825", name: "c" });
    anthropic.MCP_Servers = [{ type: "url", url: "https://x" }];
    await post(`${gw.url}/v1/messages`, gw.run.key, anthropic);
    const sent = seen.at(-1)?.body;
    expect(sent.tools.map((t: any) => t.name)).toEqual(["Bash"]);
    expect(sent.MCP_Servers).toBeUndefined();

    const chat = requestBody("chat", "m", { stream: false, tools: ["bash"] });
    (chat.tools as unknown[]).push({ type: "Web_Search_Preview" });
    chat.Web_Search_Options = {};
    await post(`${gw.url}/v1/chat/completions`, gw.run.key, chat);
    expect(seen.at(-1)?.body.tools.map((t: any) => t.type)).toEqual(["function"]);
    expect(seen.at(-1)?.body.Web_Search_Options).toBeUndefined();
  });
});

describe("the agent's query string", () => {
  test("is not forwarded; only anthropic's ?beta=true goes on as itself", async () => {
    await post(`${gw.url}/v1/chat/completions?api-version=x&redirect=https://evil`, gw.run.key, requestBody("chat", "m", { stream: false }));
    expect(seen.at(-1)?.path).toBe("/v1/chat/completions");
    await post(`${gw.url}/v1/messages?beta=true&x=1`, gw.run.key, requestBody("anthropic", "m", { stream: false }));
    expect(seen.at(-1)?.path).toBe("/v1/messages?beta=true");
    await post(`${gw.url}/v1/messages?beta=false`, gw.run.key, requestBody("anthropic", "m", { stream: false }));
    expect(seen.at(-1)?.path).toBe("/v1/messages");
  });
});

describe("gemini requests", () => {
  test("cachedContent (content stored at the vendor) is refused in either spelling, in Google's shape", async () => {
    const before = seen.length;
    for (const key of ["cachedContent", "cached_content"]) {
      const r = await post(`${gw.url}/v1beta/models/m:generateContent`, gw.run.key, { ...requestBody("gemini", "m", { stream: false }), [key]: "cachedContents/abc" });
      expect(r.status).toBe(400);
      expect(await r.json()).toEqual({ error: { code: 400, message: msg.storedContent("cachedContent"), status: "INVALID_ARGUMENT" } });
    }
    expect(seen.length).toBe(before);
  });

  test("media the bytes do not bound: a file's or a video's allowance is reserved, an image's is less", async () => {
    // $0.50 fits an image's allowance (10,000 tokens at the dearest input price, $3.75/M) but not a file's (1M tokens).
    const small = startGateway({ config, key: "upstream-secret", upstream: (r) => fetch(r) }, 0.5);
    afterAll(small.stop);
    const withPart = (part: unknown) => {
      const body = requestBody("gemini", "m", { stream: false });
      (body.contents as any[])[0].parts.push(part);
      return body;
    };
    const path = `${small.url}/v1beta/models/m:generateContent`;
    expect((await post(path, small.run.key, withPart({ inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } }))).status).toBe(200);
    for (const part of [{ inline_data: { mime_type: "video/mp4", data: "AAAA" } }, { fileData: { fileUri: "https://generativelanguage.googleapis.com/v1beta/files/x" } }]) {
      const r = await post(path, small.run.key, withPart(part));
      expect(r.status).toBe(400);
      expect(((await r.json()) as any).error.details).toEqual([{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "budget_exceeded", domain: "ssebench" }]);
    }
  });
});

describe("keys", () => {
  test("sameKey: equal only for the same key, whatever the lengths", () => {
    expect(sameKey("sk-ssebench-abc", "sk-ssebench-abc")).toBe(true);
    expect(sameKey("sk-ssebench-abc", "sk-ssebench-abd")).toBe(false);
    expect(sameKey("sk-ssebench-abc", "sk-ssebench-ab")).toBe(false);
    expect(sameKey("sk-ssebench-abc", "")).toBe(false);
    expect(sameKey("é", "e\u0301")).toBe(false);
  });

  test("a key that differs in its last character is unknown", async () => {
    const wrong = `${gw.run.key.slice(0, -1)}${gw.run.key.endsWith("A") ? "B" : "A"}`;
    const r = await post(`${gw.url}/v1/chat/completions`, wrong, requestBody("chat", "m", { stream: false }));
    expect(r.status).toBe(401);
  });
});
