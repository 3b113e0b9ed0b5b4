/**
 * The text of each task's `metadata` in a manifest file, compacted as Go's json.Compact does (the
 * reference keeps metadata as json.RawMessage): whitespace between tokens goes, everything else —
 * escapes such as `\u00e9` or `\/`, key order, repeated keys — stays as written.
 */
import { compactJson, JsonScanner } from "../formats/json-scan.ts";

/** Compacted metadata text of every entry of `tasks` (the last `metadata` of each), in file order. */
export function metadataTexts(text: string): (string | undefined)[] {
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
