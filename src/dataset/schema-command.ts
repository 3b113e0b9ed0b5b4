/** `ssebench dataset schema` (spec §3): export or check the JSON Schemas (four task-dataset formats, two item-dataset ones). */
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { UserError, describeCause, usageError } from "../errors.ts";
import { renderJson } from "../formats/compat/json-text.ts";
import { constraintDifferences } from "../formats/schema/schema-constraints.ts";
import { EXPORTED_SCHEMAS, loadFormats, schemaOf } from "../formats/schemas.ts";
import { ITEM_SCHEMA_FILES } from "../items/schema/documents.ts";
import { checkoutDir } from "./locate.ts";
import type { CommandOutput } from "./manifest-command.ts";
import { schemaMessages as m } from "./messages.ts";
import { universalNewlines } from "./python-text.ts";

/** File name → text of every exported schema, in export order. */
export async function renderSchemas(): Promise<{ file: string; text: string }[]> {
  await loadFormats(...EXPORTED_SCHEMAS.map((s) => s.name));
  return [
    ...EXPORTED_SCHEMAS.map(({ name, file }) => ({ file, text: renderJson(schemaOf(name)) })),
    // Item datasets (kind: Dataset): the same schema objects `dataset validate FILE.yaml` checks with.
    ...ITEM_SCHEMA_FILES.map(({ file, schema }) => ({ file, text: renderJson(schema) })),
  ];
}

/** A schema file's text as Python reads it; undefined when missing or not a readable file (stale). */
function currentText(path: string): string | undefined {
  try {
    return statSync(path).isFile() ? universalNewlines(readFileSync(path, "utf8")) : undefined;
  } catch {
    return undefined;
  }
}

/** The files the reference exports too: with --ignore-descriptions, only ssebench's own may be absent. */
const REFERENCE_FILES = new Set(["task.schema.json", "dataset.schema.json", "manifest.schema.json", "images-lock.schema.json"]);

/** Same constraints (titles, descriptions and layout aside); unparsable text is stale. */
function sameConstraints(current: string, text: string): boolean {
  try {
    return constraintDifferences(JSON.parse(text), JSON.parse(current)).length === 0;
  } catch {
    return false;
  }
}

function isStale(dir: string, file: string, text: string, constraintsOnly: boolean): boolean {
  const current = currentText(join(dir, file));
  if (!constraintsOnly) return current !== text;
  return current === undefined ? REFERENCE_FILES.has(file) : !sameConstraints(current, text);
}

export async function runSchema(opts: { output?: string; check?: boolean; ignoreDescriptions?: boolean }): Promise<CommandOutput> {
  if (opts.ignoreDescriptions && !opts.check) throw usageError(m.ignoreNeedsCheck);
  const dir = checkoutDir(opts.output, "schema");
  const schemas = await renderSchemas();
  if (opts.check) {
    const stale = schemas.filter(({ file, text }) => isStale(dir, file, text, opts.ignoreDescriptions === true));
    if (stale.length === 0) return { stdout: "", stderr: "", exitCode: 0 };
    return { stdout: "", stderr: `${m.outOfDate(dir, stale.map((s) => s.file))}\n`, exitCode: 1 };
  }
  const lines: string[] = [];
  try {
    mkdirSync(dir, { recursive: true });
    for (const { file, text } of schemas) {
      const path = join(dir, file);
      writeFileSync(path, text);
      lines.push(m.wrote(path));
    }
  } catch (error) {
    throw new UserError(`${dir}: ${describeCause(error)}`);
  }
  return { stdout: `${lines.join("\n")}\n`, stderr: "", exitCode: 0 };
}
