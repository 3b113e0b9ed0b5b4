/**
 * arktype model of `models/<name>.yaml`: a model `ssebench run --model` may name and the gateway
 * serves. The validator and the exported JSON Schema (`model.schema.json`) both come from here; the
 * rules that depend on `provider` are checked by providerProblems() below (no JSON Schema form).
 */
import "../schema/ark-setup.ts";
import { type } from "arktype";
import type { ModelInfo } from "../schema/model-info.ts";
import { PROVIDERS, WIRES } from "./model-types.ts";

export { PROVIDERS, providerProblems, WIRES } from "./model-types.ts";
export type { ModelConfig, ModelPrice, Provider, Wire } from "./model-types.ts";

const perMtok = (what: string) => type("number >= 0").describe(`USD per million ${what}.`);

export const priceModel = type({
  "+": "reject",
  input: perMtok("input tokens (not read from or written to the cache)"),
  output: perMtok("output tokens"),
  cache_read: perMtok("input tokens read from the prompt cache").default(0),
  cache_write: perMtok("input tokens written to the prompt cache").default(0),
});

export const modelConfigModel = type({
  "+": "reject",
  name: type(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/).describe("The name agents and --model use; equals the file name without .yaml."),
  provider: type.enumerated(...PROVIDERS).describe("Who answers: anthropic, openai, other (an API of either shape elsewhere) or scripted (a script file, offline)."),
  "upstream_model?": type("string >= 1").describe("The model name sent upstream (not for scripted)."),
  "base_url?": type(/^https?:\/\/\S+$/).describe("The upstream API root including its version, e.g. https://api.anthropic.com/v1 (not for scripted)."),
  "key_env?": type(/^[A-Za-z_][A-Za-z0-9_]*$/).describe("The environment variable holding the upstream's key (not for scripted)."),
  wires: type.enumerated(...WIRES).array().atLeastLength(1).describe("The wire formats the model speaks: anthropic (Messages), chat (Chat Completions), responses (Responses), gemini (Gemini generateContent)."),
  price: priceModel.describe("USD per million tokens, to meter spend against a run's budget."),
  "max_output_tokens?": type("number.integer >= 1").describe("The model's output limit in tokens: the cap the gateway sets on a call that asks for none (default 16384)."),
  "script?": type("string >= 1").describe("The script file of a scripted model, relative to this file."),
});

export const modelConfigModels: ModelInfo[] = [
  {
    name: "ModelConfig",
    title: "SSEBench model",
    description: "A model in models/<name>.yaml that `ssebench run --model` names and the gateway serves.",
    fields: ["name", "provider", "upstream_model", "base_url", "key_env", "wires", "price", "max_output_tokens", "script"],
  },
  {
    name: "Price",
    title: "Price",
    description: "USD per million tokens.",
    fields: ["input", "output", "cache_read", "cache_write"],
  },
];
