/** Settings files an agent CLI reads: JSON, readable by the agent's user alone (files 0600 in a 0700 folder). */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Writes each named value as indented JSON into dir, made when missing; returns dir. */
export function writePrivateJson(dir: string, files: Record<string, unknown>): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const [name, value] of Object.entries(files)) writeFileSync(join(dir, name), `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  return dir;
}
