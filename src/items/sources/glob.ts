/**
 * `kind: glob`: every file matching a pattern relative to the dataset's folder, in sorted path
 * order; `.jsonl` and `.csv` by their row readers, any other file as YAML (a list contributes its
 * mappings, a mapping is one row).
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { isMapping } from "../python.ts";
import { parseYaml } from "../yaml.ts";
import { csvRows } from "./csv.ts";
import { jsonlRows } from "./jsonl.ts";
import type { RowBatches, SourceRow } from "./rows.ts";

export async function* globRows(pattern: string, baseDir: string, shownBase: string): RowBatches {
  const matches: string[] = [];
  for await (const path of new Bun.Glob(pattern).scan({ cwd: baseDir, onlyFiles: true, dot: true })) matches.push(path);
  // Python sorts the matched Paths part by part: "a/b" comes before "a-b/x".
  const parts = (p: string) => p.split("/");
  matches.sort((x, y) => {
    const [a, b] = [parts(x), parts(y)];
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      if (a[i] !== b[i]) return (a[i] as string) < (b[i] as string) ? -1 : 1;
    }
    return a.length - b.length;
  });
  for (const rel of matches) {
    const full = join(baseDir, rel);
    const shown = relative(process.cwd(), join(shownBase, rel)) || rel;
    if (/\.jsonl$/i.test(rel)) yield* jsonlRows(full, shown);
    else if (/\.csv$/i.test(rel)) yield* csvRows(full, shown);
    else {
      const doc = parseYaml(shown, readFileSync(full, "utf8"));
      const batch: SourceRow[] = [];
      if (Array.isArray(doc.value)) {
        doc.value.forEach((entry, i) => {
          if (isMapping(entry)) batch.push({ row: entry, where: doc.at([i]) });
        });
      } else if (isMapping(doc.value)) batch.push({ row: doc.value, where: doc.at([]) });
      if (batch.length > 0) yield batch;
    }
  }
}
