/**
 * One-time set-up of a source tree (the tool layer runs `ssebench-entrypoint prepare` at image
 * build; a run does it itself when the marker is missing): squash the history to one commit, keep
 * a root-only pristine copy (ignored files included: builds need them), hand the tree to model.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../../errors.ts";
import { run } from "../fs-util.ts";
import { imageEnvNames } from "../privilege/child-env.ts";
import { gitHome, squash } from "./git.ts";
import { log } from "../log.ts";
import { msg } from "../messages.ts";
import type { Account } from "../privilege/users.ts";

export interface Prepared {
  source: string;
  base: string;
  pristine: string;
  /** Names of the image's environment at `prepare` (the children's allow-list, child-env.ts). */
  env: string[];
}

export function workPaths(work: string) {
  const state = join(work, "state");
  return { state, pristine: join(state, "pristine"), marker: join(state, "prepared.json"), gitHome: join(state, "git-home"), cache: join(state, "cache"), scratch: join(work, "scratch") };
}

/** `env` is the image's environment when run at image build (a run that prepares itself passes its own). */
export function prepare(work: string, source: string, model: Account, env: Record<string, string | undefined>): Prepared {
  const paths = workPaths(work);
  if (existsSync(paths.marker)) {
    const done = JSON.parse(readFileSync(paths.marker, "utf8")) as Prepared;
    if (done.source === source && existsSync(paths.pristine) && Array.isArray(done.env)) return done;
  }
  if (!existsSync(source)) throw new UserError(msg.prepareFailed(`source tree ${source} does not exist`));
  mkdirSync(work, { recursive: true, mode: 0o711 });
  mkdirSync(paths.state, { recursive: true, mode: 0o700 });
  const started = performance.now();
  let base: string;
  try {
    base = squash(gitHome(paths.gitHome), source);
  } catch (e) {
    throw new UserError(msg.prepareFailed(e instanceof Error ? e.message : String(e)));
  }
  rmSync(paths.pristine, { recursive: true, force: true });
  const copy = run(["cp", "-a", "--sparse=always", source, paths.pristine]);
  if (!copy.ok) throw new UserError(msg.prepareFailed(`copying the tree: ${copy.stderr.trim()}`));
  const chown = run(["chown", "-R", "-h", `${model.uid}:${model.gid}`, source]);
  if (!chown.ok) throw new UserError(msg.prepareFailed(`handing the tree to ${model.name}: ${chown.stderr.trim()}`));
  const prepared: Prepared = { source, base, pristine: paths.pristine, env: imageEnvNames(env) };
  writeFileSync(paths.marker, `${JSON.stringify(prepared)}\n`, { mode: 0o600 });
  log("INFO", "Source tree prepared", { source, base, ms: Math.round(performance.now() - started) });
  return prepared;
}
