/**
 * Models a run may name with --model: one `<home>/models/<name>.yaml` each. This build has no
 * model proxy, so a model is only checked and recorded (the shipped agents make no model calls);
 * an agent that does call a model is refused with a clear message.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../errors.ts";
import { msg } from "./messages.ts";

export function listModels(home: string): string[] {
  const dir = join(home, "models");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => f.replace(/\.ya?ml$/, ""))
    .sort();
}

export function checkModel(home: string, name: string): void {
  const known = listModels(home);
  if (!known.includes(name)) throw new UserError(msg.unknownModel(name, known));
}
