/** `ssebench-entrypoint prepare`: the one-time set-up, for the tool layer's RUN step. */
import { readConfig } from "../config.ts";
import { configureLog } from "../log.ts";
import { loadPlugins } from "../../contract/plugins-file.ts";
import { prepare, workPaths } from "./prepare.ts";
import { readTaskConfig } from "../task.ts";
import { join } from "node:path";
import { lookupUser } from "../privilege/users.ts";

/** Also checks plugins.yaml, so a broken one fails the image build and the run finds it cached. */
export async function runPrepare(env: Record<string, string | undefined>): Promise<number> {
  const cfg = readConfig(env, false);
  configureLog({ debug: cfg.debug });
  const cache = workPaths(cfg.work).cache;
  const task = await readTaskConfig(cfg.taskRoot, cache);
  await loadPlugins(cfg.pluginsDir, cache);
  prepare(cfg.work, cfg.sourceOverride ?? task.source, lookupUser(cfg.modelUser, join(cfg.etc, "passwd")), env);
  return 0;
}
