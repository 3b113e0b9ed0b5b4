/**
 * The oracle's model client against the real gateway on 127.0.0.1 in front of the scripted model:
 * it picks the first wire the gateway lists for the model and reads the answer and usage of each.
 */
import { afterAll, describe, expect, test } from "bun:test";
import type { Wire } from "../../src/formats/models/model-types.ts";
import { ask, chooseWire } from "../../src/runtime/plugins/oracle/client.ts";
import { SCRIPT, scriptedConfig, scriptedModel, startGateway, USAGE } from "../gateway/support.ts";

const ANSWER = "same fix";
const gateways: ReturnType<typeof startGateway>[] = [];
afterAll(() => {
  for (const gw of gateways) gw.stop();
});

function endpoint(wires: Wire[]) {
  const gw = startGateway(scriptedModel({ ...SCRIPT, no_tools: ANSWER }, undefined, scriptedConfig("scripted-test", wires)));
  gateways.push(gw);
  return { baseUrl: gw.url, key: gw.run.key, model: "scripted-test", plugin: "oracle" };
}

describe("oracle client", () => {
  for (const wire of ["anthropic", "chat", "responses", "gemini"] as const) {
    test(`${wire}: chosen when it is the model's only wire; the answer's text, usage and cost`, async () => {
      const ep = endpoint([wire]);
      expect(await chooseWire(ep)).toBe(wire);
      const exchange = await ask(ep, wire, "You review patches.", "Is it the same fix?");
      expect(exchange).toMatchObject({ wire, text: ANSWER, usage: wire === "anthropic" ? USAGE : { ...USAGE, cache_write: 0 } });
      expect(exchange.cost).toBeGreaterThan(0);
    });
  }

  test("the first wire of the client's order that the model speaks", async () => {
    expect(await chooseWire(endpoint(["gemini", "responses"]))).toBe("responses");
  });
});
