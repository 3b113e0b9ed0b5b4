/**
 * The ssebench home: the checkout that holds agents/, images/sandbox/, runtime/plugins/ and the
 * compiled entrypoint. `SSEBENCH_HOME` wins; else the folder above the running binary's dist/;
 * else the working directory.
 */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { UserError } from "../errors.ts";
import { msg } from "./messages.ts";

export interface Home {
  root: string;
  agentsDir: string;
  sandboxDockerfile: string;
  pluginsDir: string;
  entrypointBinary: string;
}

function looksLikeHome(dir: string): boolean {
  return existsSync(join(dir, "agents")) && existsSync(join(dir, "images", "sandbox", "Dockerfile"));
}

export function findHome(env: NodeJS.ProcessEnv = process.env): Home {
  const candidates = [
    env.SSEBENCH_HOME,
    resolve(dirname(process.execPath), ".."),
    resolve(import.meta.dir, "../.."),
    process.cwd(),
  ].filter((d): d is string => Boolean(d));
  const root = env.SSEBENCH_HOME ? resolve(env.SSEBENCH_HOME) : candidates.find(looksLikeHome);
  if (!root || !looksLikeHome(root)) {
    throw new UserError(msg.homeMissing("agents/ or images/sandbox/Dockerfile", root ?? process.cwd()));
  }
  const beside = join(dirname(process.execPath), "ssebench-entrypoint");
  return {
    root,
    agentsDir: join(root, "agents"),
    sandboxDockerfile: join(root, "images", "sandbox", "Dockerfile"),
    pluginsDir: join(root, "runtime", "plugins"),
    entrypointBinary: env.SSEBENCH_ENTRYPOINT ?? (existsSync(beside) ? beside : join(root, "dist", "ssebench-entrypoint")),
  };
}
