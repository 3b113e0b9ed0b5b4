/**
 * Recording a run (spec §4.7): read what the container left in result.json, fill the gaps (no
 * result, OOM kill, interruption), add `config`, and write result.json and summary.json atomically.
 */
import { join } from "node:path";
import { describeCause } from "../../errors.ts";
import { PLUGIN_REPORT } from "../../formats/run/plugins.ts";
import { deriveStatus, emptyVerdicts } from "../../formats/run/result.ts";
import { type AgentRecord, type ContainerRecord, type DiskUsage, type PatchResult, type Provenance, type PluginResult, type RunConfig, type RuntimeResult, type Summary, TOOL_CALLS, type TokenCounts } from "../../formats/run/summary.ts";
import { msg } from "../messages.ts";
import { writeJsonAtomic } from "./results.ts";
import { contradictions } from "./result-checks.ts";
import { countRunFileLines, readRunFile } from "./safe-read.ts";

/** Caps of the host's reads from the run folder: result.json carries logs' tails, the plugin report a line per plugin. */
export const RESULT_MAX_BYTES = 16 * 1024 * 1024;
export const PLUGIN_REPORT_MAX_BYTES = 1024 * 1024;


export interface ContainerResult {
  patch_result: PatchResult;
  runtime_result: RuntimeResult;
  /** false when result.json was empty or unreadable */
  produced: boolean;
}

const emptyRuntime = (): RuntimeResult => ({
  agent_duration: 0,
  agent_timeout: false,
  evaluator_timeout: false,
  agent_exit_code: null,
});

/**
 * Reads <run dir>/result.json as the container left it (a regular file within the cap, no link
 * followed); an empty or unreadable one is a framework failure.
 */
export function readContainerResult(runDir: string, warn: (line: string) => void = () => {}): ContainerResult {
  let data: { patch_result?: Partial<PatchResult>; runtime_result?: Partial<RuntimeResult> } | undefined;
  const file = join(runDir, "result.json");
  try {
    const text = readRunFile(file, RESULT_MAX_BYTES);
    if (text.trim()) data = JSON.parse(text);
  } catch (cause) {
    warn(msg.resultUnreadable(file, describeCause(cause)));
    data = undefined;
  }
  if (!data?.patch_result) {
    const patch: PatchResult = {
      status: "error",
      ...emptyVerdicts(),
      error_msg: msg.noResultError(),
      error_log: null,
      error_type: "infra",
      checks: [],
      set_aside: [],
    };
    return { patch_result: patch, runtime_result: emptyRuntime(), produced: false };
  }
  const p = { ...emptyVerdicts(), error_msg: null, error_log: null, error_type: null, checks: [], set_aside: [], ...data.patch_result };
  // Spelled out so the key order is result.json's whatever the container wrote.
  const patch: PatchResult = {
    status: p.status ?? deriveStatus(p),
    build_success: p.build_success,
    pov_passed: p.pov_passed,
    pov_total: p.pov_total,
    func_test_success: p.func_test_success,
    intent_test_success: p.intent_test_success,
    error_msg: p.error_msg,
    error_log: p.error_log,
    error_type: p.error_type,
    checks: p.checks,
    set_aside: p.set_aside,
  };
  return { patch_result: patch, runtime_result: { ...emptyRuntime(), ...data.runtime_result }, produced: true };
}

/** Marks a result as an error the run itself caused (OOM kill, interruption), keeping the checks. */
export function markError(patch: PatchResult, message: string, errorType: PatchResult["error_type"]): PatchResult {
  const previous = patch.error_msg && patch.error_msg !== msg.noResultError() ? `; grading said: ${patch.error_msg}` : "";
  return { ...patch, status: "error", error_msg: `${message}${previous}`, error_type: errorType };
}

export interface RunEvents {
  /** a UserError that ended the run before or while it ran */
  failure: string | undefined;
  /** why the guard stopped the run */
  interrupted: string | undefined;
  state: { oomKilled: boolean; exitCode: number | null };
  memory: string;
  /** the disk watch stopped the trial: its writable layer's size then, and --disk */
  disk?: { bytes: number; limit: string };
  error: (line: string) => void;
  /** the run's model calls the upstream answered; undefined when the agent makes no model calls */
  answeredCalls?: number;
  /** calls the gateway refused because they did not fit what was left of the budget */
  budgetRefused?: number;
  /** whether the agent's last model call failed at the provider, and the run's first such failure */
  upstream?: { lastFailed: boolean; first: string | null };
}

/**
 * The grade to record: what the container said, unless the run itself failed or was stopped, or
 * result.json contradicts its own checks. The container's exit status never overrides a grade
 * (an agent can exit 137 after letting a child be OOM-killed); an OOM kill only explains a missing result.
 */
export function judgeResult(result: ContainerResult, ev: RunEvents): ContainerResult {
  const mark = (message: string, type: PatchResult["error_type"]) => ({ ...result, patch_result: markError(result.patch_result, message, type) });
  if (ev.failure) return mark(ev.failure, "infra");
  // What the container wrote to its own disk is the agent's doing: stopped for it, the run failed.
  if (ev.disk) return { ...result, patch_result: { ...result.patch_result, status: "failed", error_msg: msg.diskExceeded(ev.disk.bytes, ev.disk.limit), error_log: null, error_type: "agent_resources" } };
  if (ev.interrupted) return result.patch_result.error_type === "interrupted" ? result : mark(msg.interrupted(ev.interrupted), "interrupted");
  if (!result.produced) {
    if (ev.state.oomKilled) return mark(msg.oomKilled(ev.memory), "infra");
    ev.error(msg.noResult());
    return result;
  }
  const contradiction = contradictions(result.patch_result);
  if (contradiction) {
    ev.error(msg.resultContradicts(contradiction));
    return mark(msg.resultContradicts(contradiction), "infra");
  }
  // The provider's failures are the harness's: an agent whose calls ended on them (unreachable, its
  // key refused, rate limits, its 5xx) was not graded on its work. An infrastructure error: jobs
  // retry it. A pass stands; the model's own 4xx for a bad request is the agent's.
  if (ev.upstream?.lastFailed && result.patch_result.status === "failed") return mark(msg.upstreamFailedRun(ev.upstream.first ?? "?"), "upstream");
  // The reference's rule: an agent that failed without one answered call never reached its model
  // (a bad key, an unreachable upstream), so the run is an error, not a grade. Its own error type,
  // not `infra`: an agent could exit at once to get there, so jobs do not retry it and scores
  // "without infrastructure errors" still count it against the agent. Not when the time limit
  // stopped the agent (that is recorded as such), nor when the budget refused its calls (the
  // user's setting, said in its own warning): the grade stands.
  const code = result.runtime_result.agent_exit_code;
  const noCall = ev.answeredCalls === 0 && !ev.budgetRefused && !result.runtime_result.agent_timeout;
  if (noCall && code !== null && code !== 0 && result.patch_result.status === "failed") return mark(msg.noAnsweredCall(code), "no_model_call");
  return result;
}

/**
 * <run dir>/plugin-results.json → plugin_results (spec §2.6), entries of the selected plugins only.
 * The entrypoint writes it where the agent never reaches; archive/plugins/results.json, which the
 * agent could have forged, is never read. Problems become a warning and [].
 */
export function readPluginResults(runDir: string, selected: readonly string[], warn: (line: string) => void): PluginResult[] {
  const file = join(runDir, PLUGIN_REPORT);
  let text: string;
  try {
    text = readRunFile(file, PLUGIN_REPORT_MAX_BYTES);
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code !== "ENOENT") warn(msg.pluginReport(file, describeCause(cause)));
    return [];
  }
  try {
    const data = JSON.parse(text) as Array<Record<string, unknown>>;
    if (!Array.isArray(data)) throw new Error("not a JSON array");
    return data.filter((e) => selected.includes(String(e?.name))).map((e) => {
      const r: PluginResult = {
        name: String(e.name),
        hook: String(e.hook),
        status: e.status as PluginResult["status"],
        exit_code: typeof e.exit_code === "number" ? e.exit_code : 0,
        duration_seconds: typeof e.duration_seconds === "number" ? e.duration_seconds : 0,
      };
      if (typeof e.reason === "string" && e.reason) r.reason = e.reason;
      if (typeof e.error === "string" && e.error) r.error = e.error;
      return r;
    });
  } catch (cause) {
    warn(msg.pluginReport(file, describeCause(cause)));
    return [];
  }
}

export interface RecordInput {
  runDir: string;
  task: unknown;
  config: RunConfig;
  result: ContainerResult;
  plugins: PluginResult[];
  diskUsage: DiskUsage;
  runId: string;
  startedAt: string;
  container: ContainerRecord;
  interrupted: string | null;
  timings: Record<string, number>;
  /** the gateway's totals for the run's model calls */
  model?: { spend: number; calls: number; tokens: TokenCounts };
  provenance: Provenance;
  /** default: no driver, CLI, wire or turns (a run that never reached its container) */
  agentRun?: AgentRecord;
}

/** Rewrites result.json with `config` and writes summary.json (both compact, atomic). */
export function recordRun(input: RecordInput): Summary {
  const { patch_result, runtime_result } = input.result;
  writeJsonAtomic(join(input.runDir, "result.json"), { patch_result, runtime_result, config: input.config });
  const summary: Summary = {
    task: input.task as Summary["task"],
    config: input.config,
    patch_result,
    runtime_result,
    spend: input.model?.spend ?? 0,
    model_calls: input.model?.calls ?? 0,
    tokens: { ...(input.model?.tokens ?? { input: 0, output: 0, cache_read: 0, cache_write: 0 }) },
    // Written by the entrypoint as root in the results folder, which the agent never reaches.
    tool_calls: countRunFileLines(join(input.runDir, TOOL_CALLS)),
    agent_run: input.agentRun ?? { driver: null, cli: null, wire: null, turns: null, budget_refused_calls: 0 },
    run_id: input.runId,
    started_at: input.startedAt,
    plugin_results: input.plugins,
    container: input.container,
    interrupted: input.interrupted,
    timings_ms: input.timings,
    disk_usage: input.diskUsage,
    provenance: input.provenance,
  };
  writeJsonAtomic(join(input.runDir, "summary.json"), summary);
  return summary;
}

/** What stopped the run early, in the user's words: a timed-out agent or grading, a signal, the run time limit. */
function stoppedParts(summary: Summary): string[] {
  const parts: string[] = [];
  if (summary.runtime_result.agent_timeout) parts.push(msg.agentTimedOut(summary.config.timeout));
  if (summary.patch_result.error_type === "grading_timeout") parts.push(msg.gradingTimedOut(summary.config.grading_timeout));
  if (summary.interrupted) parts.push(msg.interruptedBy(summary.interrupted));
  return parts;
}

/** The three stdout lines (spec §4.2 step 17), and a fourth with the cost and tokens when the agent had a model. */
export function summaryLines(summary: Summary, runDir: string): string[] {
  const p = summary.patch_result;
  const parts: string[] = [];
  if (p.build_success !== null) parts.push(`build ${p.build_success ? "passed" : "failed"}`);
  if (p.pov_total !== null) parts.push(msg.pocsLine(p.pov_passed ?? 0, p.pov_total));
  if (p.func_test_success !== null) parts.push(`tests ${p.func_test_success ? "passed" : "failed"}`);
  if (p.intent_test_success !== null) parts.push(`hidden tests ${p.intent_test_success ? "passed" : "failed"}`);
  // An interrupted grading leaves checks without verdicts: say which ran, not that none did.
  if (parts.length === 0) for (const c of p.checks) parts.push(`${c.check} ${c.status}`);
  const said = [...stoppedParts(summary), ...(parts.length > 0 ? parts : [msg.noCheckRan()])];
  const who = `${summary.config.agent} agent${summary.config.model !== "none" ? ` (${summary.config.model})` : ""}`;
  const description = `${who} on ${(summary.task as { id?: string }).id ?? "the task"}: ${said.join(", ")}`;
  // result.json keeps the reference's "Timeout (Ns)"; the user is told which limit it was.
  const why = p.error_type === "grading_timeout" ? msg.gradingTimedOut(summary.config.grading_timeout) : p.error_msg;
  const grade = p.status === "error" && why ? `${p.status} (${why})` : p.status;
  const lines = [`Result: ${description}`, `Grade: ${grade}`, `Run directory: ${runDir}`];
  if (summary.config.model !== "none") lines.push(msg.costLine(summary.spend ?? 0, summary.model_calls ?? 0, summary.tokens ?? { input: 0, output: 0, cache_read: 0, cache_write: 0 }));
  return lines;
}
