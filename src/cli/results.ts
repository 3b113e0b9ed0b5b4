import { defineCommand } from "citty";
import { jsonArg } from "./args.ts";

export default defineCommand({
  meta: {
    name: "results",
    description: "Scores of jobs or folders of runs per agent and model: resolved rate with its 95% interval over tasks, pass@k, the funnel of checks, cost, tokens, errors, and a task matrix",
  },
  args: {
    sources: { type: "positional", required: false, description: "Jobs (names under results/jobs/) or folders of runs (default: the results folder)", valueHint: "JOB|DIR…" },
    results: { type: "string", description: "Results folder jobs are looked up in (default: ./results)", valueHint: "DIR" },
    ...jsonArg,
    csv: { type: "boolean", description: "Print the per agent × model table as CSV" },
    compare: { type: "boolean", description: "Compare two jobs or folders: the tasks whose result changed" },
    "split-by": { type: "string", description: "date: the scores of the tasks published before --cutoff beside those published on or after it", valueHint: "date" },
    atif: { type: "string", description: "Also write one ATIF trajectory (Harbor's trajectory format) per trial that has a dialog into DIR", valueHint: "DIR" },
    cutoff: { type: "string", description: "The day --split-by date splits at (a model's training cutoff, say)", valueHint: "YYYY-MM-DD" },
  },
  async run({ args }) {
    const { resultsCommand } = await import("../results/command.ts");
    return resultsCommand({ sources: (args._ ?? []).map(String), results: args.results || "results", json: Boolean(args.json), csv: Boolean(args.csv), compare: Boolean(args.compare), splitBy: args["split-by"], cutoff: args.cutoff, atif: args.atif });
  },
});
