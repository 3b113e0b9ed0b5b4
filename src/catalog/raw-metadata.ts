/**
 * The text of each task's `metadata` in a manifest file, compacted as Go's json.Compact does (the
 * reference keeps metadata as json.RawMessage): whitespace between tokens goes, everything else —
 * escapes such as `\u00e9` or `\/`, key order, repeated keys — stays as written.
 */
import { shapeCheckers } from "../formats/compiled-validators.js";
import { compactJson, JsonScanner } from "../formats/compat/json-scan.ts";

/** How many JSON white space characters (space, tab, CR, LF) the text holds, inside strings or not. */
function jsonSpaces(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) n++;
  }
  return n;
}

/** How many U+0020 the strings and keys of a parsed document hold (the only JSON space a string can hold raw). */
function spacesInStrings(value: unknown): number {
  if (typeof value === "string") {
    let n = 0;
    for (let i = value.indexOf(" "); i >= 0; i = value.indexOf(" ", i + 1)) n++;
    return n;
  }
  if (value === null || typeof value !== "object") return 0;
  let n = 0;
  if (Array.isArray(value)) for (const item of value) n += spacesInStrings(item);
  else for (const key in value) n += spacesInStrings(key) + spacesInStrings((value as Record<string, unknown>)[key]);
  return n;
}

/** JSON.stringify(document).length, stringifying one task at a time (no copy of the whole document). */
function stringifiedLength(document: { tasks: readonly unknown[] }): number {
  const { tasks } = document;
  let n = JSON.stringify({ ...document, tasks: [] }).length + Math.max(0, tasks.length - 1);
  for (const task of tasks) n += JSON.stringify(task).length;
  return n;
}

/**
 * True when the text, compacted, is exactly JSON.stringify of what it parsed to, found without a
 * scan: every other spelling of the same data (an escape such as `\u00e9` or `\/`, a repeated key)
 * is longer, so equal lengths mean equal text — once the escapes are known to be JSON.stringify's
 * (`\u001F` is as long as `\u001f`: writtenAsStringified checks them first). Needs a document without numbers (a validated
 * manifest has none: "1e5" would be shorter than "100000"). Both lengths are counted, not built: at
 * 10,000 tasks the two 70 MB strings cost a second and 190 MB of peak memory.
 */
function compactsToStringified(text: string, parsed: { tasks: readonly unknown[] }): boolean {
  const compactLength = text.length - jsonSpaces(text) + spacesInStrings(parsed);
  return compactLength === stringifiedLength(parsed);
}

/** The escapes JSON.stringify writes: these, and `\u00xx` for the other control characters. */
const SHORT_ESCAPES = new Set(['"', "\\", "b", "f", "n", "r", "t"]);
const CONTROL_ESCAPE = /^u00(?:0[0-7bef]|1[0-9a-f])$/;
const SPACE_BEFORE_COLON = /"[ \t\r\n]+:/;

/**
 * When every escape of the text is one JSON.stringify writes and it has no lone surrogate (so each
 * string is written as JSON.stringify writes it): how many `":` of the text are an escaped quote
 * and a colon inside a string. Else undefined.
 */
function escapedQuoteColons(text: string): number | undefined {
  if (!text.isWellFormed()) return undefined;
  let n = 0;
  for (let i = text.indexOf("\\"); i >= 0; i = text.indexOf("\\", i + 2)) {
    const c = text[i + 1] as string;
    if (c === "u" ? !CONTROL_ESCAPE.test(text.slice(i + 1, i + 6)) : !SHORT_ESCAPES.has(c)) return undefined;
    if (c === '"' && text[i + 2] === ":") n++;
  }
  return n;
}

/**
 * True when every value of the text, compacted, is JSON.stringify of what it parsed to. Its strings
 * must be written as JSON.stringify writes them (escapedQuoteColons), and it must repeat no key:
 * JSON.parse keeps one of each, so the parsed document has as many keys as the text writes only
 * then. The single-pass checker counted the parsed keys (check.ts); with every key's closing quote
 * directly followed by its colon, a `":` of the text is a key's end unless its quote is an escaped
 * one (a string starting with a colon counts once too many, which can only make the counts
 * disagree). Objects of a manifest hold no numbers, and metadata no integer-like keys (which JS
 * would reorder). When the counts cannot be compared, the lengths decide (compactsToStringified:
 * a repeated key makes the text longer; it costs a walk and a count of the text's white space).
 */
function writtenAsStringified(text: string, parsed: { tasks: readonly unknown[] }): boolean {
  const inStrings = escapedQuoteColons(text);
  if (inStrings === undefined) return false;
  const keys = shapeCheckers.manifest?.keysWalked(parsed);
  if (keys !== undefined && !SPACE_BEFORE_COLON.test(text)) {
    let n = 0;
    for (let i = text.indexOf('":'); i >= 0; i = text.indexOf('":', i + 2)) n++;
    if (n - inStrings === keys) return true;
  }
  return compactsToStringified(text, parsed);
}

/**
 * Compacted metadata text of every entry of `tasks` (the last `metadata` of each), in file order.
 * `validated`: the manifest parsed from `text` and validated, which lets a manifest written the
 * usual way skip the scan.
 */
export function metadataTexts(text: string, validated?: { tasks: readonly { metadata?: unknown }[] }): (string | undefined)[] {
  if (validated && writtenAsStringified(text, validated)) {
    return validated.tasks.map((task) => (task.metadata === undefined ? undefined : JSON.stringify(task.metadata)));
  }
  const scan = new JsonScanner(text);
  let tasks: (string | undefined)[] = [];
  scan.object((key) => {
    if (key !== "tasks" || scan.peek() !== "[") return void scan.skip();
    tasks = [];
    scan.array(() => {
      let metadata: string | undefined;
      if (scan.peek() !== "{") scan.skip();
      else {
        scan.object((member) => {
          if (member !== "metadata") return void scan.skip();
          const [start, end] = scan.skip();
          metadata = compactJson(text.slice(start, end));
        });
      }
      tasks.push(metadata);
    });
  });
  return tasks;
}
