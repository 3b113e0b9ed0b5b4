/**
 * The text of each task's `metadata` in a manifest file, compacted as Go's json.Compact does (the
 * reference keeps metadata as json.RawMessage): whitespace between tokens goes, everything else —
 * escapes such as `\u00e9` or `\/`, key order, repeated keys — stays as written.
 */
import { compactJson, JsonScanner } from "../formats/json-scan.ts";

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
 * is longer, so equal lengths mean equal text. Needs a document without numbers (a validated
 * manifest has none: "1e5" would be shorter than "100000"). Both lengths are counted, not built: at
 * 10,000 tasks the two 70 MB strings cost a second and 190 MB of peak memory.
 */
function compactsToStringified(text: string, parsed: { tasks: readonly unknown[] }): boolean {
  const compactLength = text.length - jsonSpaces(text) + spacesInStrings(parsed);
  return compactLength === stringifiedLength(parsed);
}

/**
 * Compacted metadata text of every entry of `tasks` (the last `metadata` of each), in file order.
 * `validated`: the manifest parsed from `text` and validated, which lets a manifest written the
 * usual way skip the scan.
 */
export function metadataTexts(text: string, validated?: { tasks: readonly { metadata?: unknown }[] }): (string | undefined)[] {
  if (validated && compactsToStringified(text, validated)) {
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
