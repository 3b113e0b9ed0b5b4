/**
 * Where model files are found (docs/gateway.md "Models"): ssebench's built-in models (<home>/models)
 * first, then the user's folder — `--models DIR` when given, else $SSEBENCH_MODELS, else
 * ~/.config/ssebench/models (XDG_CONFIG_HOME honoured). A name in both is the built-in model. The
 * user's folder may be absent (nothing is added); a --models DIR that is not a folder is refused.
 */
import { existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { UserError } from "../errors.ts";
import { msg } from "./messages.ts";
import { listModelNames, modelFile } from "./models.ts";

export type ModelOrigin = "built-in" | "folder";

export interface ModelFolder {
  dir: string;
  origin: ModelOrigin;
}

/** The user's models folder when --models is not given. */
export function userModelsDir(env: NodeJS.ProcessEnv): string {
  return env.SSEBENCH_MODELS || join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), ".config"), "ssebench", "models");
}

/** The folders searched, in order; `given` is --models DIR. */
export function modelFolders(builtIn: string, env: NodeJS.ProcessEnv, given?: string): ModelFolder[] {
  const user = resolve(given ?? userModelsDir(env));
  if (given !== undefined && !existsSync(user)) throw new UserError(msg.modelsMissing(given));
  if (given !== undefined && !statSync(user).isDirectory()) throw new UserError(msg.modelsNotFolder(given));
  const folders: ModelFolder[] = [{ dir: resolve(builtIn), origin: "built-in" }];
  if (user !== folders[0]?.dir) folders.push({ dir: user, origin: "folder" });
  return folders;
}

export interface FoundModel {
  name: string;
  file: string;
  folder: ModelFolder;
}

/** Every model name of the folders, the first folder's file for each, in name order. */
export function listModels(folders: readonly ModelFolder[]): { models: FoundModel[]; hidden: FoundModel[] } {
  const models = new Map<string, FoundModel>();
  const hidden: FoundModel[] = [];
  for (const folder of folders) {
    for (const name of listModelNames(folder.dir)) {
      const found = { name, file: modelFile(folder.dir, name) as string, folder };
      if (models.has(name)) hidden.push(found);
      else models.set(name, found);
    }
  }
  return { models: [...models.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)), hidden };
}

/** The model file of a name, or the refusal naming the close and the known names. */
export function findModel(folders: readonly ModelFolder[], name: string): FoundModel {
  for (const folder of folders) {
    const file = modelFile(folder.dir, name);
    if (file) return { name, file, folder };
  }
  throw new UserError(msg.unknownModel(name, listModels(folders).models.map((m) => m.name)));
}
