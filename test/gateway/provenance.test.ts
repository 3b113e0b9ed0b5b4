/**
 * Model provenance (issue 29 item 4): the ledger records the model each upstream answer names, on
 * every wire, streamed and not, through the gateway over real HTTP; an answer from another model
 * than the configured upstream_model is a mismatch, a dated snapshot of it is not.
 */
import { afterAll, describe, expect, test } from "bun:test";
import type { ModelConfig, Wire } from "../../src/formats/models/model-types.ts";
import { answeredModel } from "../../src/formats/models/model-usage.ts";
import { modelProvenance, sameModel } from "../../src/gateway/provenance.ts";
import { scriptedUpstream } from "../../src/gateway/scripted/provider.ts";
import { post, PRICE, requestBody, SCRIPT, startGateway, wirePath } from "./support.ts";

const WIRES: Wire[] = ["anthropic", "chat", "responses", "gemini"];
// A proxy asked for `configured-model` whose upstream answers as another model.
const config: ModelConfig = { name: "m", provider: "other", upstream_model: "configured-model", base_url: "http://127.0.0.1:1/v1", key_env: "X", wires: WIRES, price: PRICE };
const scripted = scriptedUpstream(SCRIPT, "configured-model");
/** The scripted upstream answers as the model it was asked for; this one says another model answered. */
const upstream = async (request: Request) => {
  const r = await scripted(request);
  return new Response((await r.text()).replaceAll('"configured-model"', '"vendor-model-7"'), { status: r.status, headers: r.headers });
};
const gw = startGateway({ config, key: "k", upstream });
afterAll(() => gw.stop());

describe("the answering model", () => {
  test("each wire, streamed and not: the ledger's answered_model is the model the answer names; the run's totals keep it once", async () => {
    for (const wire of WIRES) {
      for (const stream of [false, true]) {
        const r = await post(`${gw.url}${wirePath(wire, "m", stream)}`, gw.run.key, requestBody(wire, "m", { stream }));
        expect(r.status).toBe(200);
        await r.arrayBuffer();
      }
    }
    const ledger = await gw.ledger();
    expect(ledger.map((e) => [e.wire, e.stream, e.model, e.answered_model])).toEqual(WIRES.flatMap((w) => [[w, false, "m", "vendor-model-7"], [w, true, "m", "vendor-model-7"]]));
    expect(gw.run.totals.answered_models).toEqual(["vendor-model-7"]);
    expect(modelProvenance(config, gw.run.totals.answered_models)).toEqual({ name: "m", upstream_model: "configured-model", answered: ["vendor-model-7"], mismatch: true });
  });

  test("read from each wire's own field; nothing, or no name, is undefined", () => {
    expect(answeredModel({ model: "a" })).toBe("a");
    expect(answeredModel({ type: "message_start", message: { model: "b", usage: {} } })).toBe("b");
    expect(answeredModel({ type: "response.completed", response: { model: "c" } })).toBe("c");
    expect(answeredModel([{ modelVersion: "x" }, { modelVersion: "d" }])).toBe("d");
    expect(answeredModel({ model: 7 })).toBeUndefined();
    expect(answeredModel({ model: "" })).toBeUndefined();
    expect(answeredModel({ model: "x".repeat(257) })).toBeUndefined();
    expect(answeredModel(null)).toBeUndefined();
  });

  test("the same model: the name itself, a dated snapshot of it, gemini's models/ prefix; anything else is a mismatch", () => {
    expect(sameModel("gpt-5", "gpt-5")).toBe(true);
    expect(sameModel("gpt-5", "gpt-5-2025-08-07")).toBe(true);
    expect(sameModel("claude-sonnet-4-6", "claude-sonnet-4-6-20260101")).toBe(true);
    expect(sameModel("gemini-2.5-flash", "models/gemini-2.5-flash")).toBe(true);
    expect(sameModel("gpt-5", "gpt-5-mini")).toBe(false);
    expect(sameModel("Qwen/Qwen3-Coder-30B-A3B-Instruct", "Qwen/Qwen2.5-7B-Instruct")).toBe(false);
    const scripted: ModelConfig = { name: "s", provider: "scripted", wires: ["chat"], price: PRICE, script: "x.yaml" };
    expect(modelProvenance(scripted, ["s"])).toEqual({ name: "s", upstream_model: null, answered: ["s"], mismatch: false });
    expect(modelProvenance({ ...config, upstream_model: "gpt-5" }, ["gpt-5-2025-08-07"]).mismatch).toBe(false);
    expect(modelProvenance({ ...config, upstream_model: "gpt-5" }, []).mismatch).toBe(false);
  });
});
