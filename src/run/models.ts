/**
 * Models a run may name with --model: a `<name>.yaml` of the built-in models, else of the user's
 * folder (--models DIR, $SSEBENCH_MODELS, ~/.config/ssebench/models: gateway/model-folders.ts;
 * docs/gateway.md). An unknown name lists the known ones; the file itself is checked by the
 * gateway's loader (format, provider rules, the key variable), all before anything is built.
 */
import { join } from "node:path";
import type { LoadedModel } from "../gateway/models.ts";

export async function loadModel(home: string, name: string, env: NodeJS.ProcessEnv, modelsDir?: string): Promise<LoadedModel> {
  const { loadModelFile } = await import("../gateway/models.ts");
  const { findModel, modelFolders } = await import("../gateway/model-folders.ts");
  const found = findModel(modelFolders(join(home, "models"), env, modelsDir), name);
  return loadModelFile(found.file, env);
}
