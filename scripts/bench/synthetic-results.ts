/**
 * Synthetic run folders and a job for `ssebench results` (its tests and scripts/bench/results.ts):
 * summary.json files shaped as `ssebench run` writes them, with outcomes from a seeded generator.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PatchResult } from "../../src/formats/run/result.ts";

export interface SyntheticRun {
  task: string;
  agent: string;
  model: string;
  attempt: number;
  status: "passed" | "failed" | "error";
  error_type?: string | null;
  spend?: number;
  tokens?: { input: number; output: number; cache_read: number; cache_write: number };
  seconds?: number;
  dataset?: { name: string; version: string };
  /** the oracle plugin's verdict: <run dir>/oracle-review.json */
  verdict?: string;
  /** patch_result's verdicts (default: every check passed for a passed run, none given otherwise) */
  verdicts?: Verdicts;
  /** the task's day of publication (provenance.task_dates.published) */
  published?: string;
  /** provenance.model: the served model against the models that answered (default: none recorded) */
  modelProvenance?: { name: string; upstream_model: string | null; answered: string[]; mismatch: boolean };
}

type Verdicts = Pick<PatchResult, "build_success" | "pov_passed" | "pov_total" | "func_test_success" | "intent_test_success">;
const ALL_PASSED: Verdicts = { build_success: true, pov_passed: 1, pov_total: 1, func_test_success: true, intent_test_success: true };
const NONE: Verdicts = { build_success: null, pov_passed: null, pov_total: null, func_test_success: null, intent_test_success: null };

/** Writes results/<task>/<model>/<agent>/<run-id>/summary.json; returns the run folder relative to root. */
export function writeRun(root: string, run: SyntheticRun, runId: string): string {
  const rel = join(run.task, run.model, run.agent, runId);
  mkdirSync(join(root, rel, "archive"), { recursive: true });
  const summary = {
    task: { id: run.task },
    config: { agent: run.agent, model: run.model },
    patch_result: { status: run.status, ...(run.verdicts ?? (run.status === "passed" ? ALL_PASSED : NONE)), error_type: run.status === "error" ? (run.error_type ?? "infra") : null, error_msg: run.status === "error" ? "synthetic" : null, checks: [] },
    runtime_result: { agent_duration: run.seconds ?? 1 },
    spend: run.spend ?? 0,
    model_calls: 0,
    tokens: run.tokens ?? { input: 0, output: 0, cache_read: 0, cache_write: 0 },
    tool_calls: 0,
    run_id: runId,
    started_at: "2026-12-01T00:00:00.000Z",
    plugin_results: [],
    container: { image: "sha256:agent", case_image: "sha256:case" },
    interrupted: null,
    timings_ms: { total: Math.round((run.seconds ?? 1) * 1000) },
    disk_usage: { run_dir_bytes: null, archive_bytes: null },
    provenance: { ssebench_version: "0.1.0", dataset: run.dataset ?? { name: "synthetic", version: "v1" }, agent: { name: run.agent, version: "1", image: "sha256:agent" }, job: null, task_dates: { published: run.published ?? null, fixed: null }, model: run.modelProvenance ?? null },
  };
  writeFileSync(join(root, rel, "summary.json"), JSON.stringify(summary));
  if (run.verdict) writeFileSync(join(root, rel, "oracle-review.json"), JSON.stringify({ status: "ok", verdict: run.verdict, grade: run.status }));
  return rel;
}

/** A job folder over the given runs: job.json and one trials.jsonl line each. */
export function writeJob(root: string, name: string, runs: readonly SyntheticRun[]): void {
  const dir = join(root, "jobs", name);
  mkdirSync(dir, { recursive: true });
  const lines: string[] = [];
  const trials = runs.map((run, i) => {
    const trial = `${run.task}/${run.model}/${run.agent}/${run.attempt}`;
    const runDir = writeRun(root, run, `${name}-${i}`);
    lines.push(JSON.stringify({ trial, task: run.task, agent: run.agent, model: run.model, attempt: run.attempt, try: 1, status: run.status, error_type: run.status === "error" ? (run.error_type ?? "infra") : null, error_msg: null, run_id: `${name}-${i}`, run_dir: runDir, dataset: run.dataset ?? { name: "synthetic", version: "v1" }, started_at: "", finished_at: "", duration_ms: 1000, images: { agent: null, case: null }, spend: run.spend ?? 0 }));
    return { trial, task: run.task, agent: run.agent, model: run.model, attempt: run.attempt };
  });
  const job = { name, created_at: "", ssebench_version: "0.1.0", dataset: { name: "synthetic", version: "v1" }, matrix: {}, trials, images: {}, agents: {}, argv: [] };
  writeFileSync(join(dir, "job.json"), JSON.stringify(job));
  writeFileSync(join(dir, "trials.jsonl"), lines.map((l) => `${l}\n`).join(""));
}

/** tasks × agents × attempts runs with seeded outcomes (a small LCG, the same for the same seed). */
export function syntheticRuns(tasks: number, agents: number, attempts: number, seed = 1): SyntheticRun[] {
  let state = seed >>> 0;
  const next = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const runs: SyntheticRun[] = [];
  for (let a = 1; a <= attempts; a++) {
    for (let t = 0; t < tasks; t++) {
      for (let g = 0; g < agents; g++) {
        const roll = next();
        const status = roll < 0.45 ? "passed" : roll < 0.95 ? "failed" : "error";
        runs.push({ task: `task-${t}`, agent: `agent-${g}`, model: `model-${g}`, attempt: a, status, error_type: status === "error" ? (roll < 0.97 ? "infra" : "agent_timeout") : null, spend: Math.round(next() * 1e4) / 1e4, tokens: { input: 1000, output: 200, cache_read: 0, cache_write: 0 }, seconds: Math.round(next() * 600) });
      }
    }
  }
  return runs;
}

/**
 * What a real agent's run folder holds beside summary.json, in the formats the run writes them:
 * grading logs named by the summary's checks, final.patch, archive/dialog.jsonl (the contract's
 * dialog entries: prompt, thinking, text, a bash call and a test_patch call with their results),
 * model-calls.jsonl (the gateway's ledger lines) and tool-calls.jsonl (the tool API's log).
 * `extra` is appended to the assistant's last message (tests put hostile text there).
 */
export function writeRunDetails(root: string, rel: string, extra = ""): void {
  const dir = join(root, rel);
  const summaryFile = join(dir, "summary.json");
  const summary = JSON.parse(readFileSync(summaryFile, "utf8"));
  mkdirSync(join(dir, "grading"), { recursive: true });
  mkdirSync(join(dir, "archive"), { recursive: true });
  const checks = [
    { check: "build", poc: null, tree: "patched", status: "passed", exit_code: 0, duration_seconds: 2.5, log: "grading/build.log" },
    { check: "poc", poc: "pocs/crash.html", tree: "patched", status: summary.patch_result.status === "passed" ? "passed" : "failed", exit_code: summary.patch_result.status === "passed" ? 0 : 1, duration_seconds: 0.4, log: "grading/poc-1.log" },
  ];
  writeFileSync(join(dir, "grading", "build.log"), "[agent output below: untrusted]\ncc -O1 -fsanitize=address -o htmlesc htmlesc.c\nbuild ok\n");
  writeFileSync(join(dir, "grading", "poc-1.log"), "[agent output below: untrusted]\n./htmlesc < pocs/crash.html\nno sanitizer report\n");
  summary.patch_result.checks = checks;
  summary.spend = 0.0421;
  summary.model_calls = 3;
  summary.tool_calls = 1;
  summary.tokens = { input: 5200, output: 610, cache_read: 1200, cache_write: 0 };
  writeFileSync(summaryFile, JSON.stringify(summary));
  writeFileSync(join(dir, "final.patch"), "diff --git a/src/htmlesc.c b/src/htmlesc.c\n--- a/src/htmlesc.c\n+++ b/src/htmlesc.c\n@@ -10,7 +10,7 @@ size_t escaped_len(const char *s)\n   size_t n = 0;\n   for (; *s; s++) {\n-    if (*s == '<' || *s == '>') n += 4;\n+    if (*s == '<' || *s == '>' || *s == '\"') n += 6;\n     else n += 1;\n   }\n   return n;\n");
  const t = (s: number) => new Date(Date.UTC(2026, 11, 1, 10, 0, s)).toISOString();
  const entries = [
    { type: "init", data: { task: "htmlesc-quote-overflow", cwd: "/src/htmlesc", model: "claude-sonnet-4-6", agent: "claude-code" } },
    { type: "prompt", content: "Fix the heap buffer overflow in htmlesc.\nThe crash report is below." },
    { type: "thinking", content: "The length computation ignores the quote character." },
    { type: "message", role: "assistant", content: "I will read escaped_len first.", tokens: { in: 2000, out: 120 } },
    { type: "tool", tool_id: "t1", name: "Bash", status: "running", args: { command: "sed -n 1,40p src/htmlesc.c" } },
    { type: "tool", tool_id: "t1", name: "Bash", status: "success", result: "size_t escaped_len(const char *s)\n{\n  size_t n = 0;\n" },
    { type: "tool", tool_id: "t2", name: "mcp__ssebench__test_patch", status: "running", args: {} },
    { type: "tool", tool_id: "t2", name: "mcp__ssebench__test_patch", status: "success", result: "build: passed\npoc: passed" },
    { type: "message", role: "assistant", content: `Quotes are now counted: the PoC no longer crashes.${extra}`, tokens: { in: 3200, out: 490 } },
    { type: "complete", status: "success", turns: 3, duration_ms: 41000, total_tokens: { in: 5200, out: 610 }, message: "Quotes are now counted." },
  ];
  const seconds = [0, 0, 2, 3, 4, 5, 12, 20, 24, 25];
  writeFileSync(join(dir, "archive", "dialog.jsonl"), entries.map((e, i) => `${JSON.stringify({ seq: i, ts: t(seconds[i] as number), ...e })}\n`).join(""));
  const call = (seq: number, s: number, input: number, output: number, cost: number, spent: number) => ({ seq, time: t(s), run: summary.run_id, caller: "agent", plugin: null, model: "claude-sonnet-4-6", wire: "anthropic", path: "/v1/messages", stream: true, status: 200, ms: 1800, first_byte_ms: 400, usage: { input, output, cache_read: seq === 3 ? 1200 : 0, cache_write: 0 }, cost, estimated: false, spent, stripped: [], aborted: false, error: null });
  const ledger = [call(1, 1, 2000, 120, 0.0078, 0.0078), call(2, 11, 1500, 200, 0.0075, 0.0153), call(3, 21, 1700, 290, 0.0268, 0.0421)];
  writeFileSync(join(dir, "model-calls.jsonl"), ledger.map((l) => `${JSON.stringify(l)}\n`).join(""));
  const toolCall = { time: t(13), via: "mcp", call: "test_patch", level: 2, checks: ["build", "poc-1"], outcome: "passed", http_status: 200, seconds: 6.2 };
  writeFileSync(join(dir, "tool-calls.jsonl"), `${JSON.stringify(toolCall)}\n`);
}
