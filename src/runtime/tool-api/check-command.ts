/**
 * `ssebench-entrypoint check build|poc|function_test|intent_test|all`: the tool API for agents
 * that only have a shell. It calls the HTTP API of the running entrypoint ($SSE_TOOL_API) and
 * prints what the check printed; the exit status is the check's (`all`: 0 when test_patch passed).
 */
import { ExitCode, UserError } from "../../errors.ts";
import { toolApiBase } from "../config.ts";
import { writeOut } from "../write-out.ts";
import { toolMsg } from "./messages.ts";

const KINDS = new Set(["build", "poc", "function_test", "intent_test", "all"]);
/** The API refused the call (level, phase over) or the task has no such check. */
export const REFUSED_EXIT = 3;

export async function runCheck(args: string[], env: Record<string, string | undefined>): Promise<number> {
  const what = args[0];
  if (args.length !== 1 || what === undefined || !KINDS.has(what)) throw new UserError(toolMsg.checkUsage(), ExitCode.usage);
  const base = toolApiBase(env);
  const url = what === "all" ? `${base}/sse/v1/test_patch` : `${base}/sse/v1/check/${what}`;
  let res: Response;
  try {
    // A check may take many minutes: no client-side time limit.
    res = await fetch(url, { method: "POST", timeout: false } as RequestInit);
  } catch (e) {
    throw new UserError(toolMsg.unreachable(base, e instanceof Error ? e.message : String(e)));
  }
  const body = (await res.json().catch(() => ({}))) as { error?: string; text?: string; ok?: boolean; code?: number; stdout?: string; stderr?: string };
  if (res.status === 403 || res.status === 404) throw new UserError(toolMsg.refused(res.status, body.error ?? ""), REFUSED_EXIT);
  if (what === "all" && typeof body.text === "string") {
    writeOut(1, `${body.text}\n`);
    return body.ok ? 0 : 1;
  }
  if (body.stdout) writeOut(1, body.stdout);
  if (body.stderr) writeOut(2, body.stderr.endsWith("\n") ? body.stderr : `${body.stderr}\n`);
  if (typeof body.code !== "number") throw new UserError(toolMsg.refused(res.status, body.error ?? ""));
  return body.code < 0 || body.code > 255 ? 1 : body.code;
}
