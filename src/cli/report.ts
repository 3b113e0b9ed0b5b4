import { defineCommand } from "citty";
import { outputFileArg } from "./args.ts";

export default defineCommand({
  meta: {
    name: "report",
    description: "One self-contained HTML report of jobs or folders of runs: scores, a task heat map, pass@k and cost charts, every trial's checks, patch and logs",
  },
  args: {
    sources: { type: "positional", required: false, description: "Jobs (names under results/jobs/) or folders of runs (default: the results folder)", valueHint: "JOB|DIR…" },
    results: { type: "string", description: "Results folder jobs are looked up in (default: ./results)", valueHint: "DIR" },
    ...outputFileArg,
  },
  async run({ args }) {
    const { reportCommand } = await import("../report/command.ts");
    return reportCommand({ sources: (args._ ?? []).map(String), results: args.results || "results", output: args.output });
  },
});
