/**
 * Models a run may name with --model: one `<home>/models/<name>.yaml` each (docs/gateway.md). An
 * unknown name lists the known ones; the file itself is checked by the gateway's loader (format,
 * provider rules, the key variable), all before anything is built.
 */
import { join } from "node:path";
import { UserError } from "../errors.ts";
import type { LoadedModel } from "../gateway/models.ts";
import { msg } from "./messages.ts";

export async function loadModel(home: string, name: string, env: NodeJS.ProcessEnv): Promise<LoadedModel> {
  const { listModelNames, loadModelFile, modelFile } = await import("../gateway/models.ts");
  const dir = join(home, "models");
  const file = modelFile(dir, name);
  if (!file) throw new UserError(msg.unknownModel(name, listModelNames(dir)));
  return loadModelFile(file, env);
}
