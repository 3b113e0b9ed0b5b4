/**
 * The gateway side of a run (docs/gateway.md): `ssebench run` serves its run's model in its own
 * process on a Unix socket in a fresh 0700 folder, with the run's key in a 0600 file beside it; the
 * folder is mounted read-only at /run/ssebench, where the entrypoint (root) reads the key and
 * forwards 127.0.0.1:4000 to the socket. Calls go to <run dir>/model-calls.jsonl.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunTotals } from "../gateway/keys.ts";
import type { LoadedModel } from "../gateway/models.ts";
import { MODEL_KEY_FILE, MODEL_SOCKET } from "../runtime/model-access.ts";

export interface RunGateway {
  /** the folder to mount at /run/ssebench */
  dir: string;
  /** stops serving, revokes the key, removes the folder; the run's totals */
  close: () => Promise<RunTotals>;
}

export async function openRunGateway(model: LoadedModel, runId: string, runDir: string, budget: number): Promise<RunGateway> {
  const { Gateway, servedModel } = await import("../gateway/server.ts");
  const gateway = new Gateway();
  // Short, under /tmp: a Unix socket path is limited to 107 bytes, a results path is not.
  const dir = mkdtempSync(join(tmpdir(), "ssebench-gw-"));
  chmodSync(dir, 0o700);
  const run = gateway.issue(runId, servedModel(model), budget, runDir);
  const access = gateway.serveRun(run, join(dir, MODEL_SOCKET));
  writeFileSync(join(dir, MODEL_KEY_FILE), `${run.key}\n`, { mode: 0o600 });
  let closed: Promise<RunTotals> | undefined;
  return {
    dir,
    close: () => {
      closed ??= access.close().finally(() => rmSync(dir, { recursive: true, force: true }));
      return closed;
    },
  };
}
