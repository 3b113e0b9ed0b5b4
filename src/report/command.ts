/** `ssebench report JOB|DIR… -o FILE`: the scores and every trial as one HTML file. */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { err, write } from "../output/terminal.ts";
import { describeCause, UserError } from "../errors.ts";
import { score } from "../results/aggregate.ts";
import { rowsOf } from "../results/command.ts";
import { renderReport } from "./html.ts";

export function reportCommand(args: { sources: string[]; results: string; output: string | undefined }): number {
  const sources = args.sources.length > 0 ? args.sources : [args.results];
  const rows = rowsOf(sources, args.results);
  const html = renderReport(`ssebench report: ${sources.join(", ")}`, score(rows), rows);
  if (!args.output || args.output === "-") {
    write(html);
    return 0;
  }
  try {
    writeFileSync(resolve(args.output), html);
  } catch (cause) {
    throw new UserError(`${args.output}: cannot write the report: ${describeCause(cause)}`);
  }
  err(`Report written to ${resolve(args.output)}`);
  return 0;
}
