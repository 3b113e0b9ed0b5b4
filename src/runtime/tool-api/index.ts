/**
 * The agent's tool API for one run (docs/container-contract.md §12): opened before the agent
 * starts, its phase ended when the agent exits (every later call is refused, a running check is
 * stopped), closed before grading. Its checks show sse-runner only the task files each check
 * needs (task-views.ts), and a level that withholds a check never runs it, so the PoCs and the
 * hidden tests stay out of reach of the agent's code at the levels that withhold them.
 */
import { join } from "node:path";
import { UserError } from "../../errors.ts";
import { TOOL_CALLS } from "../../formats/run/summary.ts";
import { clearLeftovers, SHARED_TMP } from "../privilege/lockdown.ts";
import { type Prepared, workPaths } from "../grading/prepare.ts";
import type { TaskConfig } from "../task.ts";
import { killUserProcesses } from "../privilege/user-processes.ts";
import type { Account } from "../privilege/users.ts";
import type { Level } from "./levels.ts";
import { toolMsg } from "./messages.ts";
import { startToolApi, type ToolApi } from "./server.ts";
import { ToolService } from "./service.ts";

export { parseDifficulty } from "./levels.ts";
export { toolPort } from "./server.ts";

export interface OpenOptions {
  level: Level;
  port: number;
  task: TaskConfig;
  taskRoot: string;
  prepared: Prepared;
  source: string;
  work: string;
  results: string;
  taskFile: string;
  runner: Account;
  inherited: Record<string, string | undefined>;
  checkTimeoutMs: number;
  graceMs: number;
  maxFileBytes: number;
}

export interface OpenToolApi {
  url: string;
  callCount: () => number;
  endPhase: () => Promise<void>;
  /**
   * Loads the MCP SDK a little after the agent's exec (not at once: its ~30 ms of CPU would compete
   * with the agent's own start), so the agent's first MCP request does not wait for it.
   */
  warm: () => void;
  /** Stops the listener and removes what sse-runner left (its processes, its files in /tmp…). */
  close: () => Promise<number[]>;
}

const WARM_AFTER_MS = 2000;

export function openToolApi(o: OpenOptions): OpenToolApi {
  const service = new ToolService({ ...o, work: join(o.work, "tool-api"), scratch: workPaths(o.work).scratch, agentLogs: join(o.work, "tool-logs") });
  let api: ToolApi;
  try {
    api = startToolApi({ service, level: o.level, port: o.port, taskFile: o.taskFile, callsFile: join(o.results, TOOL_CALLS) });
  } catch (e) {
    throw new UserError(toolMsg.cannotListen(o.port, e instanceof Error ? e.message : String(e)));
  }
  return {
    url: api.url,
    callCount: () => api.calls.count,
    endPhase: api.endPhase,
    warm: () => void setTimeout(() => void import("./mcp.ts").catch(() => {}), WARM_AFTER_MS).unref(),
    close: async () => {
      await api.endPhase();
      api.stop();
      const left = await killUserProcesses(o.runner);
      // Files the agent's code left as sse-runner must not reach the grading checks.
      clearLeftovers(o.runner, [o.source], SHARED_TMP);
      return left;
    },
  };
}
