/** `ssebench-entrypoint prepare`: the one-time set-up, for the tool layer's RUN step. */
import { readConfig } from "./config.ts";
import { configureLog } from "./log.ts";
import { prepare } from "./prepare.ts";
import { readTaskConfig } from "./task.ts";
import { lookupUser } from "./users.ts";

export function runPrepare(env: Record<string, string | undefined>): number {
  const cfg = readConfig(env, false);
  configureLog({ debug: cfg.debug });
  const task = readTaskConfig(cfg.taskRoot);
  prepare(cfg.work, cfg.sourceOverride ?? task.source, lookupUser(cfg.modelUser));
  return 0;
}
