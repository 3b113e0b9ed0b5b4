/**
 * Checks every real agent CLI's e2e test makes the same way (agent-<name>.test.ts): a scripted model
 * that gives up, and a budget too small for the first call.
 */
import { expect } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import type { Summary } from "../../src/formats/run/summary.ts";
import type { LedgerEntry } from "../../src/gateway/ledger.ts";
import { type agentRunner, type DialogLine, jsonl, readJson } from "./helpers.ts";

type Runner = ReturnType<typeof agentRunner>;

/** `scripted-give-up` → failed: one turn, no tool, the CLI's own success. */
export async function givesUp(agentRun: Runner, agent: string): Promise<void> {
  const id = `${agent}-give-up`;
  const r = await agentRun.run(agent, "scripted-give-up", id);
  expect(r.stdout).toContain("Grade: failed");
  const dialog = jsonl<DialogLine>(join(agentRun.runDir(agent, "scripted-give-up", id), "archive", "dialog.jsonl"));
  expect(dialog.filter((d) => d.type === "tool")).toEqual([]);
  expect(dialog.at(-1)).toMatchObject({ type: "complete", status: "success", turns: 1 });
}

/**
 * `--budget 0.0001` with `model`: the first call is refused (its worst case does not fit), the
 * agent stops within a minute (a 400 it does not retry), the dialog closes with the gateway's
 * message and the run says why.
 */
export async function stopsOnBudget(agentRun: Runner, agent: string, model: string): Promise<void> {
  const id = `${agent}-budget`;
  const r = await agentRun.run(agent, model, id, ["--budget", "0.0001"]);
  const dir = agentRun.runDir(agent, model, id);
  const summary = readJson<Summary>(join(dir, "summary.json"));
  expect(summary.runtime_result.agent_duration).toBeLessThan(60);
  expect(jsonl<LedgerEntry>(join(dir, "model-calls.jsonl")).map((c) => c.status)).toEqual([400]);
  expect(summary.agent_run.budget_refused_calls).toBe(1);
  expect(r.stderr).toContain("The run's model budget of $0.0001 ran out: the gateway refused 1 call whose worst case did not fit");
  const dialog = jsonl<DialogLine>(join(dir, "archive", "dialog.jsonl"));
  expect(dialog.at(-1)).toMatchObject({ type: "complete", status: "error" });
  expect(dialog.at(-1)?.message).toStartWith("Budget exhausted");
}

/** The body of a run's first model call, as the gateway kept it. */
export const firstRequest = (runDir: string): string => gunzipSync(readFileSync(join(runDir, "model-calls", "1.request.json.gz"))).toString();

/** The tool names a run's first model call offered, on any wire. */
export function offeredTools(runDir: string): string[] {
  const body = JSON.parse(firstRequest(runDir)) as { tools?: Record<string, unknown>[] };
  return (body.tools ?? []).flatMap((t) => (Array.isArray(t.functionDeclarations) ? (t.functionDeclarations as { name: string }[]).map((f) => f.name) : [String((t.function as { name?: string } | undefined)?.name ?? t.name)]));
}
