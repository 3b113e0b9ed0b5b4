/**
 * The model file's constants, types and provider rules without arktype (light modules and the
 * gateway's happy path use these; model-config.ts holds the arktype model).
 */
export const WIRES = ["anthropic", "chat", "responses", "gemini"] as const;
export type Wire = (typeof WIRES)[number];
export const PROVIDERS = ["anthropic", "openai", "other", "scripted"] as const;
export type Provider = (typeof PROVIDERS)[number];

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
  /** the model's output limit: the cap the gateway sets on a call that asks for none */
  max_output_tokens?: number;
  script?: string;
}

/** The provider-dependent rules: what a scripted model needs and what an upstream model needs. */
export function providerProblems(m: ModelConfig): string[] {
  const problems: string[] = [];
  if (m.provider === "scripted") {
    if (m.script == null) problems.push("script: required with provider: scripted");
    for (const key of ["base_url", "key_env", "upstream_model"] as const) {
      if (m[key] != null) problems.push(`${key}: not used with provider: scripted; remove it`);
    }
  } else {
    for (const key of ["upstream_model", "base_url", "key_env"] as const) {
      if (m[key] == null) problems.push(`${key}: required with provider: ${m.provider}`);
    }
    if (m.script != null) problems.push("script: only for provider: scripted; remove it");
  }
  return problems;
}

