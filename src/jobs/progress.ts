/**
 * How a job shows its progress: events from the runner, rendered as plain lines (not a terminal),
 * a live block on a terminal (one line per running trial and an overall line with an ETA), or one
 * JSON object a line (`--json`, for scripts).
 */
import { msg } from "./messages.ts";
import { NO_MODEL, type TrialSpec } from "./plan.ts";
import type { TrialRecord } from "./store.ts";

export type JobEvent =
  | { event: "planned"; job: string; total: number; todo: number; jobs: number }
  | { event: "started"; trial: string; try: number }
  | {
      event: "ended";
      trial: string;
      try: number;
      status: TrialRecord["status"];
      error_type: string | null;
      error_msg: string | null;
      run_dir: string | null;
      duration_ms: number;
      final: boolean;
      done: number;
      total: number;
      /** USD of this trial run */
      spend: number;
      /** trials passed so far, of the `done` ones */
      passed: number;
      /** USD of the job's trial runs so far, retries and earlier resumes included */
      spent: number;
    }
  | { event: "retry"; trial: string; retry: number; retries: number; wait_s: number }
  | { event: "stopping"; signal: string }
  | { event: "done"; job: string; dir: string; total: number; passed: number; failed: number; errors: number; not_run: number; spent: number; exit_code: number };

export type Emit = (e: JobEvent) => void;

export function trialLabel(t: Pick<TrialSpec, "task" | "agent" | "model" | "attempt">): string {
  return `${t.task} ${t.agent}${t.model === NO_MODEL ? "" : `(${t.model})`} #${t.attempt}`;
}

/** `task/model/agent/attempt` → the label people read. */
function labelOf(trial: string): string {
  const [task = "", model = "", agent = "", attempt = ""] = trial.split("/");
  return trialLabel({ task, model, agent, attempt: Number(attempt) });
}

export function outcomeText(r: Pick<TrialRecord, "status" | "error_type" | "error_msg">): string {
  return r.status === "error" ? `error (${r.error_type ?? "infra"}: ${r.error_msg ?? ""})` : r.status;
}

/** The line of an event for a log or a pipe; the final summary is printed by the command. */
export function plainLine(e: JobEvent): string | undefined {
  switch (e.event) {
    case "planned":
      return msg.jobPlanned(e.job, e.total, e.todo, e.jobs);
    case "ended":
      return `${msg.trialDone(e.done, e.total, labelOf(e.trial), outcomeText(e), e.duration_ms / 1000)}; ${msg.soFar(e.passed, e.done, e.spent)}`;
    case "retry":
      return msg.retrying(labelOf(e.trial), e.retry, e.retries, e.wait_s);
    case "stopping":
      return msg.stopping(e.signal);
    default:
      return undefined;
  }
}

export function plainProgress(write: (line: string) => void): Emit {
  return (e) => {
    const line = plainLine(e);
    if (line !== undefined) write(line);
  };
}

export function jsonProgress(write: (line: string) => void): Emit {
  return (e) => write(JSON.stringify(e));
}

const clock = (seconds: number) => {
  const s = Math.max(0, Math.round(seconds));
  return s >= 3600 ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m` : s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s` : `${s}s`;
};

/** The overall line: counts, the pass rate and spend so far, and an ETA from the mean time of the trials ended so far. */
export function overallLine(s: { done: number; total: number; running: number; passed: number; failed: number; errors: number; spent: number; meanMs: number | null; jobs: number }): string {
  const left = s.total - s.done;
  const eta = s.meanMs === null || left === 0 ? "" : `, ETA ${clock((left * s.meanMs) / 1000 / Math.max(1, s.jobs))}`;
  const rate = s.done > 0 ? ` (${((s.passed / s.done) * 100).toFixed(1)}%)` : "";
  const spent = s.spent > 0 ? `, $${s.spent.toFixed(4)} spent` : "";
  return `${s.done}/${s.total} done, ${s.running} running, ${s.passed} passed${rate}, ${s.failed} failed, ${s.errors} errors${spent}${eta}`;
}

/** A live block on a terminal: ended trials scroll above it, the block is redrawn every second. */
export function terminalProgress(stream: NodeJS.WriteStream, now = () => Date.now()): Emit & { close(): void } {
  const running = new Map<string, number>();
  let drawn = 0;
  let state = { done: 0, total: 0, passed: 0, failed: 0, errors: 0, spent: 0, jobs: 1 };
  let ended = 0;
  let endedMs = 0;
  const width = () => Math.max(20, (stream.columns ?? 100) - 1);
  const fit = (line: string) => (line.length > width() ? `${line.slice(0, width() - 1)}…` : line);
  const clear = () => {
    if (drawn > 0) stream.write(`\x1b[${drawn}A\x1b[J`);
    drawn = 0;
  };
  const draw = () => {
    clear();
    const lines = [...running].map(([trial, since]) => `  ${labelOf(trial)}  ${clock((now() - since) / 1000)}`);
    lines.push(overallLine({ ...state, running: running.size, meanMs: ended > 0 ? endedMs / ended : null }));
    stream.write(`${lines.map(fit).join("\n")}\n`);
    drawn = lines.length;
  };
  const timer = setInterval(draw, 1000);
  timer.unref?.();
  const emit = ((e: JobEvent) => {
    if (e.event === "planned") state = { ...state, done: e.total - e.todo, total: e.total, jobs: e.jobs };
    if (e.event === "started") running.set(e.trial, now());
    if (e.event === "ended") {
      running.delete(e.trial);
      ended++;
      endedMs += e.duration_ms;
      state.spent = e.spent;
      if (e.final) {
        state.done = e.done;
        state.passed = e.passed;
        if (e.status === "failed") state.failed++;
        if (e.status === "error") state.errors++;
      }
    }
    const line = plainLine(e);
    clear();
    if (line !== undefined) stream.write(`${fit(line)}\n`);
    if (e.event !== "done") draw();
  }) as Emit & { close(): void };
  emit.close = () => {
    clearInterval(timer);
    clear();
  };
  return emit;
}
