/**
 * Codex's bundled model catalog. For a model name in it (an OpenAI slug such as `gpt-5.5`) codex
 * defers every MCP tool behind OpenAI's hosted `tool_search` (which the gateway strips for other
 * providers), so `test_patch` is never offered; `--disable tool_search` does not change that
 * (measured on 0.171.0). The driver then hands codex a catalog of that one entry with
 * `supports_search_tool` off (config `model_catalog_json`), which offers the MCP tools directly.
 * A name codex does not know uses its fallback metadata, which never defers them.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";

type Json = Record<string, unknown>;

/** The catalog entry of `model` in `codex debug models --bundled` output, if any. */
export function catalogEntry(catalogJson: string, model: string): Json | undefined {
  try {
    const catalog = JSON.parse(catalogJson) as { models?: unknown };
    if (!Array.isArray(catalog.models)) return undefined;
    return (catalog.models as unknown[]).find((m): m is Json => typeof m === "object" && m !== null && (m as Json).slug === model);
  } catch {
    return undefined;
  }
}

/** Runs the CLI's own catalog dump (no network: --bundled). */
export function bundledCatalog(bin: string, env: Record<string, string>): string {
  try {
    const r = Bun.spawnSync([bin, "debug", "models", "--bundled"], { env, stdout: "pipe", stderr: "ignore", stdin: "ignore" });
    return r.exitCode === 0 ? r.stdout.toString() : "";
  } catch {
    // no CLI to ask: codex itself will fail to start, and say so
    return "";
  }
}

/** Writes the one-entry catalog into CODEX_HOME and returns its path. */
export function writeCatalog(codexHome: string, entry: Json): string {
  const path = join(codexHome, "ssebench-model-catalog.json");
  writeFileSync(path, `${JSON.stringify({ models: [{ ...entry, supports_search_tool: false }] })}\n`, { mode: 0o600 });
  return path;
}
