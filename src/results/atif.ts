/**
 * A trial's dialog as an ATIF trajectory (src/formats/atif/atif.ts): the agent's own account
 * (archive/dialog.jsonl, the dialog protocol of docs/agents.md) in steps, and the run's facts from
 * summary.json (agent, version, model, the gateway's tokens and spend). Both are untrusted: every
 * field is type-checked and a line of another shape is left out (and counted). No I/O.
 *
 * Steps: the prompt is a `user` step; an agent step gathers what one model turn said — its
 * thinking (reasoning_content), its text (message, with the turn's tokens as metrics when the
 * dialog has them) and the tool calls it made — and the results of those calls as its observation,
 * each naming its call (source_call_id). A turn ends where the next one starts: text or thinking
 * after a tool call, a second text, or a call after results came back.
 */
import type { AtifObservationResult, AtifStep, AtifTrajectory } from "../formats/atif/atif.ts";
import { ATIF_VERSION } from "../formats/atif/atif-version.ts";

type Json = Record<string, unknown>;

const obj = (v: unknown): Json => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
const count = (v: unknown): number | null => (typeof v === "number" && Number.isInteger(v) && v >= 0 ? v : null);
const isoTime = (v: unknown) => (typeof v === "string" && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(v) && !Number.isNaN(Date.parse(v)) ? v : undefined);
const text = (v: unknown) => (typeof v === "string" ? v : v === undefined || v === null ? "" : (JSON.stringify(v) ?? ""));

export interface AtifInput {
  summary: Json;
  dialog: readonly Json[];
  /** ssebench's version, for the notes */
  version: string;
}

class Steps {
  readonly steps: AtifStep[] = [];
  /** the agent step of the turn under way */
  private turn: AtifStep | null = null;
  /** tool call id → the step that made the call (its results go there) */
  private readonly callers = new Map<string, AtifStep>();
  private generated = 0;

  private add(step: Omit<AtifStep, "step_id">): AtifStep {
    const s = { step_id: this.steps.length + 1, ...step } as AtifStep;
    this.steps.push(s);
    return s;
  }

  user(message: string, timestamp: string | undefined): void {
    this.add({ source: "user", message, ...(timestamp ? { timestamp } : {}) });
    this.turn = null;
  }

  private agent(timestamp: string | undefined, startsTurn: (t: AtifStep) => boolean): AtifStep {
    if (!this.turn || startsTurn(this.turn)) this.turn = this.add({ source: "agent", message: "", ...(timestamp ? { timestamp } : {}) });
    return this.turn;
  }

  thinking(content: string, timestamp: string | undefined): void {
    const t = this.agent(timestamp, (s) => s.message !== "" || (s.tool_calls ?? []).length > 0);
    t.reasoning_content = t.reasoning_content ? `${t.reasoning_content}\n\n${content}` : content;
  }

  said(content: string, tokens: Json, timestamp: string | undefined): void {
    const t = this.agent(timestamp, (s) => s.message !== "" || (s.tool_calls ?? []).length > 0);
    t.message = content;
    const [input, output] = [count(tokens.in), count(tokens.out)];
    if (input !== null || output !== null) t.metrics = { ...(input !== null ? { prompt_tokens: input } : {}), ...(output !== null ? { completion_tokens: output } : {}) };
  }

  call(id: string | null, name: string, args: unknown, timestamp: string | undefined): void {
    const callId = id ?? `call-${++this.generated}`;
    const t = this.agent(timestamp, (s) => (s.observation?.results.length ?? 0) > 0 || (s.tool_calls ?? []).some((c) => c.tool_call_id === callId));
    const argsObject = args === undefined || args === null ? {} : typeof args === "object" && !Array.isArray(args) ? (args as Json) : { input: args };
    (t.tool_calls ??= []).push({ tool_call_id: callId, function_name: name, arguments: argsObject });
    this.callers.set(callId, t);
  }

  result(id: string | null, name: string, failed: boolean, content: string, timestamp: string | undefined): void {
    const caller = id === null ? undefined : this.callers.get(id);
    // A result whose call is not in the dialog is an action's result without a call.
    const step = caller ?? this.agent(timestamp, () => false);
    const r: AtifObservationResult = { ...(caller ? { source_call_id: id as string } : {}), content };
    if (failed || !caller) r.extra = { ...(failed ? { status: "error" } : {}), ...(caller ? {} : { tool: name, ...(id !== null ? { tool_id: id } : {}) }) };
    (step.observation ??= { results: [] }).results.push(r);
  }
}

/** The trajectory of one trial; null when its dialog has no step (nothing was said). */
export function toAtif({ summary, dialog, version }: AtifInput): AtifTrajectory | null {
  const steps = new Steps();
  let skipped = 0;
  let init: Json | undefined;
  let complete: Json | undefined;
  for (const e of dialog) {
    const ts = isoTime(e.ts);
    const content = str(e.content);
    if (e.type === "init") init = obj(e.data);
    else if (e.type === "prompt" && content !== null) steps.user(content, ts);
    else if (e.type === "thinking" && content !== null) steps.thinking(content, ts);
    else if (e.type === "message" && content !== null) steps.said(content, obj(e.tokens), ts);
    else if (e.type === "tool" && e.status === "running") steps.call(str(e.tool_id), str(e.name) ?? "?", e.args, ts);
    else if (e.type === "tool" && (e.status === "success" || e.status === "error")) steps.result(str(e.tool_id), str(e.name) ?? "?", e.status === "error", text(e.status === "error" ? e.error : e.result), ts);
    else if (e.type === "complete") complete = e;
    else skipped++;
  }
  if (steps.steps.length === 0) return null;
  const config = obj(summary.config);
  const agent = obj(obj(summary.provenance).agent);
  const agentRun = obj(summary.agent_run);
  const tokens = obj(summary.tokens);
  const model = str(config.model);
  const patch = obj(summary.patch_result);
  const [input, output, cacheRead, cacheWrite] = [tokens.input, tokens.output, tokens.cache_read, tokens.cache_write].map((v) => count(v) ?? 0) as [number, number, number, number];
  const spend = typeof summary.spend === "number" && Number.isFinite(summary.spend) && summary.spend >= 0 ? summary.spend : 0;
  return {
    schema_version: ATIF_VERSION,
    session_id: str(summary.run_id) ?? "unknown",
    agent: {
      name: str(agent.name) ?? str(config.agent) ?? "unknown",
      version: str(agent.version) ?? "unknown",
      ...(model && model !== "none" ? { model_name: model } : {}),
      extra: { cli: str(agentRun.cli), driver: str(agentRun.driver) },
    },
    steps: steps.steps,
    notes: `Converted by ssebench ${version} from the agent's dialog (archive/dialog.jsonl); step metrics are the tokens the agent reported, final_metrics the gateway's meter of every model call.${skipped > 0 ? ` ${skipped} dialog line(s) of another shape left out.` : ""}`,
    final_metrics: {
      total_prompt_tokens: input + cacheRead + cacheWrite,
      total_completion_tokens: output,
      total_cached_tokens: cacheRead,
      total_cost_usd: spend,
      total_steps: steps.steps.length,
      extra: { cache_write_tokens: cacheWrite, model_calls: count(summary.model_calls) },
    },
    extra: {
      ssebench: {
        task: str(obj(summary.task).id),
        dataset: obj(obj(summary.provenance).dataset),
        grade: str(patch.status),
        error_type: str(patch.error_type),
        ...(init ? { cwd: str(init.cwd) } : {}),
        ...(complete ? { end: { status: str(complete.status), turns: count(complete.turns), duration_ms: count(complete.duration_ms) } } : {}),
      },
    },
  };
}
