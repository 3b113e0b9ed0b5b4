/**
 * Shared reading of a JSON document against a format, with the one-line failure the reference
 * prints: `<where> is not a valid <noun>: <problem>`. Loads arktype lazily.
 */
import { UserError } from "../errors.ts";
import type { FormatName } from "./format-names.ts";

const MAX_LISTED = 3;

/** The problems of one document as one line (pydantic's several errors, joined). */
export function problemLine(problems: readonly string[]): string {
  const shown = problems.slice(0, MAX_LISTED).join("; ");
  const more = problems.length - MAX_LISTED;
  return more > 0 ? `${shown} (and ${more} more)` : shown;
}

/**
 * Parses and validates; returns the validated copy (strings stripped, keys in model order, defaults
 * filled in), or with `asWritten` the document exactly as parsed, once it is known to be valid.
 */
export async function parseJsonFormat<T>(name: FormatName, noun: string, text: string, where: string, asWritten = false): Promise<T> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new UserError(`${where} is not a valid ${noun}: ${(error as Error).message}`);
  }
  const { checkDocument } = await import("./check.ts");
  const { formatProblem } = await import("./schema/model-errors.ts");
  const result = checkDocument<T>(name, data, [], asWritten);
  if (!result.ok) throw new UserError(`${where} is not a valid ${noun}: ${problemLine(result.problems.map(formatProblem))}`);
  return asWritten ? (data as T) : result.value;
}
