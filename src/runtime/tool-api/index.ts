/**
 * The agent's tool API for one run (docs/container-contract.md §9): opened before the agent
 * starts, its phase ended when the agent exits (every later call is refused, a running check is
 * stopped), closed before grading. While it is open, sse-runner may read the task files the level
 * lets a check use; those the level withholds (PoCs, hidden tests) and the reference patch stay
 * root-only, so no code of the agent's run as sse-runner can reach them.
 */
import { chmodSync, chownSync, lstatSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../../errors.ts";
import { clearLeftovers, SHARED_TMP } from "../lockdown.ts";
import type { Prepared } from "../prepare.ts";
import type { TaskConfig } from "../task.ts";
import { killUserProcesses } from "../user-processes.ts";
import type { Account } from "../users.ts";
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
  /** Loads the MCP SDK now (after the agent's exec), so the agent's first MCP request does not wait for it. */
  warm: () => void;
  /** Stops the listener, puts the task files back as they were, removes what sse-runner left. */
  close: () => Promise<number[]>;
}

export function openToolApi(o: OpenOptions): OpenToolApi {
  const restore = o.level.build ? exposeToRunner(o) : () => {};
  const service = new ToolService({ ...o, work: join(o.work, "tool-api"), agentLogs: join(o.work, "tool-logs") });
  let api: ToolApi;
  try {
    api = startToolApi({ service, level: o.level, port: o.port, taskFile: o.taskFile, callsFile: join(o.results, "tool-calls.jsonl") });
  } catch (e) {
    restore();
    throw new UserError(toolMsg.cannotListen(o.port, e instanceof Error ? e.message : String(e)));
  }
  return {
    url: api.url,
    callCount: () => api.calls.count,
    endPhase: api.endPhase,
    warm: () => void import("./mcp.ts").catch(() => {}),
    close: async () => {
      await api.endPhase();
      api.stop();
      restore();
      const left = await killUserProcesses(o.runner);
      // Files the agent's code left as sse-runner must not reach the grading checks.
      clearLeftovers(o.runner, [o.source], SHARED_TMP);
      return left;
    },
  };
}

/** The task root readable by sse-runner's group, minus the files the level withholds; returns the undo. */
function exposeToRunner(o: OpenOptions): () => void {
  const root = lstatSync(o.taskRoot);
  const { files } = o.task;
  const hidden = [files.patch, ...(o.level.intent_test ? [] : [files.futureTest]), ...(o.level.poc ? [] : files.poc)].filter((p): p is string => !!p);
  const saved: { path: string; mode: number; uid: number; gid: number }[] = [];
  for (const rel of hidden) {
    const path = join(o.taskRoot, rel);
    let st;
    try {
      st = lstatSync(path);
    } catch {
      continue;
    }
    if (!st.isFile() && !st.isDirectory()) continue;
    saved.push({ path, mode: st.mode & 0o7777, uid: st.uid, gid: st.gid });
    chownSync(path, 0, 0);
    chmodSync(path, st.isDirectory() ? 0o700 : 0o600);
  }
  chownSync(o.taskRoot, 0, o.runner.gid);
  chmodSync(o.taskRoot, 0o750);
  return () => {
    chownSync(o.taskRoot, root.uid, root.gid);
    chmodSync(o.taskRoot, root.mode & 0o7777);
    for (const s of saved) {
      chownSync(s.path, s.uid, s.gid);
      chmodSync(s.path, s.mode);
    }
  };
}
