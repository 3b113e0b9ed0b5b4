/** Fixture trees in temporary folders and a loader that collects items, warnings and problems. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll } from "bun:test";
import { openDataset, type SourceOverride } from "../../src/items/dataset.ts";
import type { EnvelopeItem } from "../../src/items/item.ts";

const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Writes files (path → text) under a fresh temporary folder and returns the folder. */
export function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "ssebench-items-"));
  made.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

export interface Loaded {
  items: EnvelopeItem[];
  warnings: string[];
  problems: string[];
}

export async function load(path: string, sourceOverride?: SourceOverride): Promise<Loaded> {
  const warnings: string[] = [];
  const dataset = await openDataset(path, { warn: (w) => warnings.push(w), ...(sourceOverride ? { sourceOverride } : {}) });
  const items: EnvelopeItem[] = [];
  for await (const batch of dataset.batches()) items.push(...batch);
  return { items, warnings, problems: dataset.problems };
}

/** Loads a single-file dataset given as YAML text (plus optional sibling files). */
export async function loadText(yaml: string, files: Record<string, string> = {}): Promise<Loaded & { dir: string }> {
  const dir = tree({ "ds.yaml": yaml, ...files });
  return { ...(await load(join(dir, "ds.yaml"))), dir };
}

/** The message of the error a load throws ("" when it does not throw). */
export async function loadError(yaml: string, files: Record<string, string> = {}): Promise<string> {
  try {
    await loadText(yaml, files);
    return "";
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** A declarative dataset with these YAML item lines under spec.items. */
export function declarative(itemsYaml: string, extraSpec = ""): string {
  return `apiVersion: lab/v1\nkind: Dataset\nmetadata:\n  name: t\nspec:\n${extraSpec}  items:\n${itemsYaml}`;
}
