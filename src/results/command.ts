/** `ssebench results [JOB|DIR…]`: load, score, print (table, --json, --csv, --compare). */
import { err, out, renderJson, write } from "../output/terminal.ts";
import { usageError } from "../errors.ts";
import { flips, score } from "./aggregate.ts";
import { loadSource, type TrialRow } from "./load.ts";
import { msg } from "./messages.ts";
import { renderCsv, renderFlips, renderScores } from "./render.ts";

export interface ResultsArgs {
  sources: string[];
  results: string;
  json: boolean;
  csv: boolean;
  compare: boolean;
}

/** Rows of several sources, a run folder named twice counted once. */
export function rowsOf(sources: readonly string[], results: string): TrialRow[] {
  const seen = new Set<string>();
  const rows: TrialRow[] = [];
  for (const s of sources) {
    for (const r of loadSource(s, results, err).rows) {
      if (r.runDir !== null) {
        if (seen.has(r.runDir)) continue;
        seen.add(r.runDir);
      }
      rows.push(r);
    }
  }
  return rows;
}

export function resultsCommand(args: ResultsArgs): number {
  if (args.json && args.csv) throw usageError(msg.jsonAndCsv());
  if (args.compare) {
    const [a, b, ...rest] = args.sources;
    if (a === undefined || b === undefined || rest.length > 0) throw usageError(msg.compareArgs());
    const list = flips(score(rowsOf([a], args.results)), score(rowsOf([b], args.results)));
    if (args.json) write(renderJson({ a, b, flips: list }));
    else out(list.length > 0 ? renderFlips(list, a, b) : msg.flipsNone(a, b));
    return 0;
  }
  const scores = score(rowsOf(args.sources.length > 0 ? args.sources : [args.results], args.results));
  if (args.json) write(renderJson(scores));
  else if (args.csv) write(renderCsv(scores));
  else write(renderScores(scores));
  return 0;
}
