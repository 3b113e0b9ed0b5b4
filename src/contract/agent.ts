/**
 * What the entrypoint and an agent agree on (docs/container-contract.md §3, §5): the reserved agent
 * commands, the task brief the agent reads, and the dialog the drivers write, which the host reads
 * back (summary.json's `agent_run.turns`, the report's trial page).
 */

/** The reserved agent command that applies the reference patch (no agent process reads it). */
export const REFERENCE_AGENT = "ssebench:apply-reference";
/** `["ssebench:agent", "<name>"]`: the entrypoint's own driver of a real agent CLI (src/agents/). */
export const AGENT_DRIVER = "ssebench:agent";

/** The brief's name in the entrypoint's work folder; SSE_TASK_FILE gives its path. */
export const TASK_BRIEF_FILE = "task.json";

/**
 * The agent's view of the task (SSE_TASK_FILE): description, crash reports and the build and test
 * scripts, no answers.
 */
export interface TaskBrief {
  id: string;
  project: string;
  language: string;
  source: string;
  issue: string | null;
  bug_description: string | null;
  crash_reports: { path: string; text: string }[];
  /** the texts of the task's build and test scripts (absent in a brief of an older entrypoint) */
  build_script?: string | null;
  test_script?: string | null;
}

/** `$SSE_ARCHIVE/dialog.jsonl`, in the reference's dialog protocol. */
export const DIALOG_FILE = "dialog.jsonl";

export interface Tokens {
  in: number;
  out: number;
}

/** One line of the dialog, without the `seq` and `ts` every line also has. */
export type DialogEntry =
  | { type: "init"; data: { task: string; cwd: string; model: string; agent: string } }
  | { type: "prompt"; content: string }
  | { type: "message"; role: "assistant"; content: string; tokens?: Tokens }
  | { type: "thinking"; content: string }
  | { type: "tool"; tool_id: string; name: string; status: "running"; args?: unknown }
  | { type: "tool"; tool_id: string; name: string; status: "success"; result?: string }
  | { type: "tool"; tool_id: string; name: string; status: "error"; error?: string }
  | { type: "complete"; status: "success" | "error" | "timeout"; turns: number; duration_ms: number; total_tokens: Tokens; message?: string };
