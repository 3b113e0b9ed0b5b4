/**
 * Validated YAML (task configs, agent.yaml) remembered by the hash of its text and the ssebench
 * version, so a re-run of an unchanged task loads neither the YAML library nor arktype (together
 * they are most of a cached run's own time). Only successes are cached; a failure is re-checked.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { VERSION } from "../../version.ts";

export async function cachedValidation<T>(dir: string, name: string, text: string, validate: () => Promise<T>): Promise<T> {
  const key = createHash("sha256").update(VERSION).update("\0").update(text).digest("hex");
  const file = join(dir, `${name.replace(/[^A-Za-z0-9._-]/g, "_")}.json`);
  try {
    const cached = JSON.parse(readFileSync(file, "utf8")) as { key: string; value: T };
    if (cached.key === key) return cached.value;
  } catch {
    // not cached yet
  }
  const value = await validate();
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(`${file}.${process.pid}`, JSON.stringify({ key, value }));
    renameSync(`${file}.${process.pid}`, file);
  } catch {
    // a read-only cache only costs time
  }
  return value;
}
