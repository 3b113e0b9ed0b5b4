/** Reading a CLI's JSON-lines stream: a line as an object (else nothing), and its fields loosely typed. */
export type Json = Record<string, unknown>;

export const obj = (v: unknown): Json => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});
export const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

/** A line of the stream as a JSON object; undefined for anything else (a CLI's stray output). */
export function parseLine(raw: string): Json | undefined {
  try {
    const value = JSON.parse(raw) as unknown;
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}
