/**
 * YAML files read at start (config.yaml, plugins.yaml) are parsed once per content: the checked
 * result is cached as JSON in the root-only state folder, keyed by a hash of the text (and of
 * whatever else decided the result, e.g. schema.json). Same input, same outcome, so validation
 * is unchanged, but a prepared image reaches the agent without loading the YAML library (and
 * `ssebench run` checks plugins.yaml without it).
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export type YamlModule = typeof import("yaml");

export async function cachedParse<T>(cacheDir: string, name: string, text: string, alsoKeyedBy: string, build: (yaml: YamlModule) => T): Promise<T> {
  const key = new Bun.CryptoHasher("sha256").update(text).update("\0").update(alsoKeyedBy).digest("hex");
  const path = join(cacheDir, `${name}.json`);
  try {
    const cached = JSON.parse(readFileSync(path, "utf8")) as { key: string; value: T };
    if (cached.key === key) return cached.value;
  } catch {
    // no cache yet
  }
  const value = build(await import("yaml"));
  try {
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    const temp = join(cacheDir, `.${name}.json.${process.pid}.tmp`);
    writeFileSync(temp, JSON.stringify({ key, value }), { mode: 0o600 });
    chmodSync(temp, 0o600);
    renameSync(temp, path);
  } catch {
    // a read-only state folder only costs speed
  }
  return value;
}
