/**
 * arktype model of `models/<name>.yaml`: a model `ssebench run --model` may name and the gateway
 * serves. The validator and the exported JSON Schema (`model.schema.json`) both come from here; the
 * rules that depend on `provider` are checked by providerProblems() below (no JSON Schema form).
 */
import "./ark-setup.ts";
import { type } from "arktype";
import type { ModelInfo } from "./model-info.ts";

export const WIRES = ["anthropic", "chat", "responses"] as const;
export type Wire = (typeof WIRES)[number];
export const PROVIDERS = ["anthropic", "openai", "other", "scripted"] as const;
export type Provider = (typeof PROVIDERS)[number];

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
  wires: type.enumerated(...WIRES).array().atLeastLength(1).describe("The wire formats the model speaks: anthropic (Messages), chat (Chat Completions), responses (Responses)."),
  price: priceModel.describe("USD per million tokens, to meter spend against a run's budget."),
  "script?": type("string >= 1").describe("The script file of a scripted model, relative to this file."),
});

export interface ModelPrice {
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
}

export interface ModelConfig {
  name: string;
  provider: Provider;
  upstream_model?: string;
  base_url?: string;
  key_env?: string;
  wires: Wire[];
  price: ModelPrice;
  script?: string;
}

/** The provider-dependent rules: what a scripted model needs and what an upstream model needs. */
export function providerProblems(m: ModelConfig): string[] {
  const problems: string[] = [];
  if (m.provider === "scripted") {
    if (m.script === undefined) problems.push("script: required with provider: scripted");
    for (const key of ["base_url", "key_env", "upstream_model"] as const) {
      if (m[key] !== undefined) problems.push(`${key}: not used with provider: scripted; remove it`);
    }
  } else {
    for (const key of ["upstream_model", "base_url", "key_env"] as const) {
      if (m[key] === undefined) problems.push(`${key}: required with provider: ${m.provider}`);
    }
    if (m.script !== undefined) problems.push("script: only for provider: scripted; remove it");
  }
  return problems;
}

export const modelConfigModels: ModelInfo[] = [
  {
    name: "ModelConfig",
    title: "SSEBench model",
    description: "A model in models/<name>.yaml that `ssebench run --model` names and the gateway serves.",
    fields: ["name", "provider", "upstream_model", "base_url", "key_env", "wires", "price", "script"],
  },
  {
    name: "Price",
    title: "Price",
    description: "USD per million tokens.",
    fields: ["input", "output", "cache_read", "cache_write"],
  },
];
