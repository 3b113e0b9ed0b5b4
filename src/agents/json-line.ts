/** Reading a CLI's JSON-lines stream: a line as an object (else nothing), and its fields loosely typed. */
export type Json = Record<string, unknown>;

export const obj = (v: unknown): Json => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});
export const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);
export const str = (v: unknown): string => (typeof v === "string" ? v : "");
/** A field as text: a string as it is, any other value as its JSON, nothing as "". */
export const asText = (v: unknown): string => (typeof v === "string" ? v : v === undefined ? "" : JSON.stringify(v));

/** A line of the stream as a JSON object; undefined for anything else (a CLI's stray output). */
export function parseLine(raw: string): Json | undefined {
  try {
    const value = JSON.parse(raw) as unknown;
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}
