/** `ssebench results [JOB|DIR…]`: load, score, print (table, --json, --csv, --compare). */
import { resolve } from "node:path";
import { err, out, renderJson, write } from "../output/terminal.ts";
import { usageError } from "../errors.ts";
import { flips, score } from "./aggregate.ts";
import { loadSource, type TrialRow } from "./load.ts";
import { msg } from "./messages.ts";
import { renderCsv, renderDateSplit, renderFlips, renderScores } from "./render.ts";
import { splitByDate } from "./split.ts";

export interface ResultsArgs {
  sources: string[];
  results: string;
  json: boolean;
  csv: boolean;
  compare: boolean;
  /** --split-by and --cutoff as given */
  splitBy?: string;
  cutoff?: string;
  /** --atif DIR: one ATIF trajectory per trial that has a dialog */
  atif?: string;
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

const isDay = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v) && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v;

/** The cutoff of --split-by date, checked; undefined without --split-by. */
function splitCutoff(args: ResultsArgs): string | undefined {
  if (args.splitBy === undefined) {
    if (args.cutoff !== undefined) throw usageError(msg.cutoffAlone());
    return undefined;
  }
  if (args.splitBy !== "date") throw usageError(msg.splitBy(args.splitBy));
  if (args.csv || args.compare) throw usageError(msg.splitWith(args.csv ? "--csv" : "--compare"));
  if (args.cutoff === undefined) throw usageError(msg.cutoffMissing());
  if (!isDay(args.cutoff)) throw usageError(msg.cutoffBad(args.cutoff));
  return args.cutoff;
}

export async function resultsCommand(args: ResultsArgs): Promise<number> {
  if (args.json && args.csv) throw usageError(msg.jsonAndCsv());
  if (args.atif !== undefined && args.compare) throw usageError(msg.atifWithCompare());
  const cutoff = splitCutoff(args);
  if (args.compare) {
    const [a, b, ...rest] = args.sources;
    if (a === undefined || b === undefined || rest.length > 0) throw usageError(msg.compareArgs());
    const list = flips(score(rowsOf([a], args.results)), score(rowsOf([b], args.results)));
    if (args.json) write(renderJson({ a, b, flips: list }));
    else out(list.length > 0 ? renderFlips(list, a, b) : msg.flipsNone(a, b));
    return 0;
  }
  const rows = rowsOf(args.sources.length > 0 ? args.sources : [args.results], args.results);
  if (args.atif !== undefined) {
    const { exportAtif } = await import("./atif-export.ts");
    const done = await exportAtif(rows, resolve(args.atif), err);
    err(msg.atifWritten(done.written, resolve(args.atif), done.withoutDialog));
  }
  if (cutoff !== undefined) {
    const split = splitByDate(rows, cutoff);
    if (rows.every((r) => r.published === null)) err(msg.noDays());
    write(args.json ? renderJson(split) : renderDateSplit(split));
    return 0;
  }
  const scores = score(rows);
  if (args.json) write(renderJson(scores));
  else if (args.csv) write(renderCsv(scores));
  else write(renderScores(scores));
  return 0;
}
