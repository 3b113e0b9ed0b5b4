/**
 * Environments of the children, from allow-lists only. Outside the SSE_ namespace a child gets
 * the image's own variables (the toolchain: GOPATH, GOFLAGS, CC…, whose names `prepare` records
 * at image build) and a few basics (PATH, locale, TZ, TERM, TIMEOUT); anything else handed to the
 * container at run time (DOCKER_*, AWS_*, …) reaches no child. Every SSE_ variable is named
 * explicitly per role, so a run-specific secret never reaches a child that was not meant to get it.
 */
import type { Account } from "./users.ts";

export const LLM_VARS = ["SSE_BASE_URL", "SSE_API_KEY", "SSE_MODEL_NAME"] as const;
const IDENTITY = new Set(["HOME", "USER", "LOGNAME", "MAIL"]);
const BASICS = new Set(["PATH", "LANG", "LANGUAGE", "TZ", "TERM", "TIMEOUT"]);

type Env = Record<string, string | undefined>;

/** The names `prepare` records as the image's environment (identity and SSE_ ones left out). */
export function imageEnvNames(env: Env): string[] {
  return Object.keys(env)
    .filter((k) => env[k] !== undefined && !k.startsWith("SSE_") && !IDENTITY.has(k))
    .sort();
}

/**
 * The inherited environment cut down to what any child may get: SSE_ variables (each role picks
 * its own below), the basics, the image's recorded names and `also` (the agent's SSE_AGENT_ENV).
 */
export function allowedInherited(env: Env, imageNames: readonly string[], also: readonly string[] = []): Env {
  const allowed = new Set([...imageNames, ...also]);
  const out: Env = {};
  for (const [k, v] of Object.entries(env)) {
    if (k.startsWith("SSE_") || BASICS.has(k) || k.startsWith("LC_") || allowed.has(k)) out[k] = v;
  }
  return out;
}

export function childEnv(inherited: Env, user: Account, allowSse: readonly string[], extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(inherited)) {
    if (v === undefined || k.startsWith("SSE_") || IDENTITY.has(k)) continue;
    env[k] = v;
  }
  for (const k of allowSse) {
    const v = inherited[k];
    if (v !== undefined) env[k] = v;
  }
  if (!env.PATH) env.PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
  Object.assign(env, { HOME: user.home, USER: user.name, LOGNAME: user.name }, extra);
  return env;
}

/**
 * Extra names an agent layer asks for (`ENV SSE_AGENT_ENV=SSE_FOO,NODE_OPTIONS`): SSE_ ones and
 * the agent layer's own variables (set after `prepare` recorded the image's).
 */
export function agentExtraNames(sseAgentEnv: string | undefined): string[] {
  return (sseAgentEnv ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(s) && !IDENTITY.has(s));
}
