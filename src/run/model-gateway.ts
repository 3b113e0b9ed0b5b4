/**
 * The gateway side of a run (docs/gateway.md): `ssebench run` serves its run's model in its own
 * process on a Unix socket in a fresh 0700 folder, with the run's key in a 0600 file beside it; the
 * folder is mounted read-only at /run/ssebench, where the entrypoint (root) reads the key and
 * forwards 127.0.0.1:4000 to the socket (to the plugin socket beside it from grading on, so
 * grading-phase plugins' calls are marked as theirs). Calls go to <run dir>/model-calls.jsonl.
 */
import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MODEL_KEY_FILE, MODEL_PLUGIN_KEY_FILE, MODEL_PLUGIN_SOCKET, MODEL_SOCKET } from "../contract/model.ts";
import { describeCause, UserError } from "../errors.ts";
import type { RunTotals } from "../gateway/keys.ts";
import type { LoadedModel } from "../gateway/models.ts";
import { scratchPrefix } from "./backends/owner.ts";
import { msg } from "./messages.ts";

export interface RunGateway {
  /** the folder to mount at /run/ssebench */
  dir: string;
  /** stops serving, revokes the key, removes the folder; the run's totals */
  close: () => Promise<RunTotals>;
}

/**
 * `report.debug` gets a dropped connection's line; `report.warn` the first call of the run the
 * upstream failed, at once (an unreachable provider must not look like a silent agent).
 */
export async function openRunGateway(model: LoadedModel, owner: { runId: string; runDir: string; jobDir?: string }, budget: number, report: { debug: (line: string) => void; warn: (line: string) => void }): Promise<RunGateway> {
  const { runId, runDir } = owner;
  const { Gateway, servedModel } = await import("../gateway/server.ts");
  const gateway = new Gateway({ log: report.debug, upstreamError: (_run, line) => report.warn(line) });
  // Short, under /tmp: a Unix socket path is limited to 107 bytes, a results path is not. A job's
  // trial tags it with the job, whose next process removes it if this one is killed (owner.ts).
  const base = scratchPrefix("gateway", owner.jobDir);
  const run = gateway.issue(runId, servedModel(model), budget, runDir);
  let dir: string | undefined;
  let access: ReturnType<typeof gateway.serveRun>;
  try {
    dir = mkdtempSync(base);
    chmodSync(dir, 0o700);
    // Root's plugins get a key of their own after grading, which the agent never sees.
    const pluginKey = `sk-ssebench-plugin-${randomBytes(32).toString("base64url")}`;
    access = gateway.serveRun(run, join(dir, MODEL_SOCKET), join(dir, MODEL_PLUGIN_SOCKET), pluginKey);
    writeFileSync(join(dir, MODEL_KEY_FILE), `${run.key}\n`, { mode: 0o600 });
    writeFileSync(join(dir, MODEL_PLUGIN_KEY_FILE), `${pluginKey}\n`, { mode: 0o600 });
  } catch (cause) {
    if (dir) rmSync(dir, { recursive: true, force: true });
    throw new UserError(msg.gatewayFailed(dir ?? `${base}…`, describeCause(cause)));
  }
  const folder = dir;
  let closed: Promise<RunTotals> | undefined;
  return {
    dir: folder,
    close: () => {
      closed ??= access.close().finally(() => rmSync(folder, { recursive: true, force: true }));
      return closed;
    },
  };
}
