/**
 * `run --predictions FILE.jsonl`: patches made elsewhere (SWE-bench style), one
 * `{"task": ID, "patch": DIFF, "agent"?: NAME, "model"?: NAME}` a line, each graded as a trial of
 * the built-in `patch` agent. `agent` and `model` name who made the patch; `results` groups by them.
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describeCause, UserError } from "../errors.ts";
import { PATCH_AGENT } from "../run/layers/agents.ts";
import { msg } from "./messages.ts";
import { NO_MODEL, type TrialSpec, trialKey } from "./plan.ts";

export interface Prediction {
  task: string;
  patch: string;
  agent: string | undefined;
  model: string | undefined;
  line: number;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const MAX_BYTES = 64 * 1024 * 1024;

export function readPredictions(file: string): Prediction[] {
  let text: string;
  try {
    if (statSync(file).size > MAX_BYTES) throw new UserError(msg.predictionsTooBig(file, MAX_BYTES));
    text = readFileSync(file, "utf8");
  } catch (cause) {
    if (cause instanceof UserError) throw cause;
    throw new UserError(msg.tasksFileUnreadable(file, describeCause(cause)));
  }
  const predictions: Prediction[] = [];
  text.split("\n").forEach((raw, index) => {
    const line = index + 1;
    if (!raw.trim()) return;
    const bad = (what: string) => new UserError(msg.predictionLine(file, line, what));
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (cause) {
      throw bad(`not JSON (${describeCause(cause)})`);
    }
    if (!value || typeof value !== "object" || Array.isArray(value)) throw bad("not a JSON object");
    const o = value as Record<string, unknown>;
    if (typeof o.task !== "string" || !NAME.test(o.task)) throw bad("'task' must be a task ID");
    if (typeof o.patch !== "string") throw bad("'patch' must be a string (a unified diff; empty for no change)");
    for (const key of ["agent", "model"] as const) {
      if (o[key] !== undefined && (typeof o[key] !== "string" || !NAME.test(o[key] as string))) throw bad(`'${key}' must be a name (letters, digits, '.', '_', '-')`);
    }
    predictions.push({ task: o.task, patch: o.patch, agent: o.agent as string | undefined, model: o.model as string | undefined, line });
  });
  if (predictions.length === 0) throw new UserError(msg.predictionsEmpty(file));
  return predictions;
}

/** One trial per prediction (attempt n = the n-th prediction for its task); its patch goes to <job>/patches/ (savePatches). */
export function predictionTrials(predictions: readonly Prediction[]): TrialSpec[] {
  const seen = new Map<string, number>();
  return predictions.map((p) => {
    const attempt = (seen.get(p.task) ?? 0) + 1;
    seen.set(p.task, attempt);
    const patch = join("patches", `${p.task}.${attempt}.diff`);
    return {
      trial: trialKey(p.task, NO_MODEL, PATCH_AGENT, attempt),
      task: p.task,
      agent: PATCH_AGENT,
      model: NO_MODEL,
      attempt,
      patch,
      source: { agent: p.agent ?? null, model: p.model ?? null, line: p.line },
    };
  });
}

/** Writes each prediction's patch where its trial names it. */
export function savePatches(predictions: readonly Prediction[], trials: readonly TrialSpec[], jobDir: string): void {
  mkdirSync(join(jobDir, "patches"), { recursive: true });
  trials.forEach((t, i) => writeFileSync(join(jobDir, t.patch as string), (predictions[i] as Prediction).patch));
}

/** Whether the saved patches are the predictions' (a resume with --predictions must name the same patches). */
export function samePatches(predictions: readonly Prediction[], trials: readonly TrialSpec[], jobDir: string): boolean {
  return trials.every((t, i) => {
    try {
      return readFileSync(join(jobDir, t.patch as string), "utf8") === predictions[i]?.patch;
    } catch {
      return false;
    }
  });
}
