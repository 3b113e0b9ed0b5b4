/**
 * Reading and writing `manifest.json`. Types come from manifest-types.ts (no arktype); the
 * validator is loaded only when a manifest is parsed.
 */
import { renderJson } from "../compat/json-text.ts";
import type { Manifest } from "./manifest-types.ts";
import { UserError } from "../../errors.ts";
import { parseJsonFormat, problemLine } from "../parse-json-format.ts";

export type { Manifest, ManifestTask, TaskMetadata } from "./manifest-types.ts";
export { renderJson };

export const duplicateTaskId = (id: string) => `duplicate task id "${id}"`;

/**
 * Parses and validates manifest text. Throws UserError
 * `<where> is not a valid dataset manifest: <problem>` (spec §4.4), also for a task id listed twice
 * (the reference service's `duplicate task id "<id>"`). Keys come back in model order and absent
 * optional keys as null, as the reference's model dump has them; with `asWritten` (what the
 * catalog service publishes, as the reference's passes it through) the document as written.
 */
export async function parseManifest(text: string, where: string, options: { asWritten?: boolean } = {}): Promise<Manifest> {
  const manifest = await parseJsonFormat<Manifest>("manifest", "dataset manifest", text, where, options.asWritten);
  const seen = new Set<string>();
  // One problem per repeat, as the reference lists them.
  const duplicates: string[] = [];
  for (const { id } of manifest.tasks) {
    if (seen.has(id)) duplicates.push(id);
    seen.add(id);
  }
  if (duplicates.length > 0) {
    throw new UserError(`${where} is not a valid dataset manifest: ${problemLine(duplicates.map(duplicateTaskId))}`);
  }
  return manifest;
}

/** The manifest file's text: keys in model order, `generated_from` left out when null (§2.1). */
export function renderManifest(manifest: Manifest): string {
  const { dataset, version, generated_from, tasks } = manifest;
  return renderJson(
    generated_from === null || generated_from === undefined ? { dataset, version, tasks } : { dataset, version, generated_from, tasks },
  );
}
