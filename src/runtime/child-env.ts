/**
 * Environments of the children. Inherited variables outside the SSE_ namespace are the task
 * image's toolchain (PATH, GOPATH, CC…) and pass; every SSE_ variable is named explicitly per role,
 * so a run-specific secret never reaches a child that was not meant to get it.
 */
import type { Account } from "./users.ts";

export const LLM_VARS = ["SSE_BASE_URL", "SSE_API_KEY", "SSE_MODEL_NAME"] as const;
const IDENTITY = new Set(["HOME", "USER", "LOGNAME", "MAIL"]);

export function childEnv(
  inherited: Record<string, string | undefined>,
  user: Account,
  allowSse: readonly string[],
  extra: Record<string, string> = {},
): Record<string, string> {
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

/** Extra SSE_ names an agent layer asks for (`SSE_AGENT_ENV=SSE_FOO,SSE_BAR`). */
export function agentExtraNames(inherited: Record<string, string | undefined>): string[] {
  return (inherited.SSE_AGENT_ENV ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => /^SSE_[A-Z0-9_]+$/.test(s));
}
