import { defineCommand } from "citty";

export default defineCommand({
  meta: {
    name: "view",
    description: "Browse jobs and runs in a local web app: scores, the task matrix, filters, two agents side by side, each trial's checks, patch and dialog; running jobs update live",
  },
  args: {
    sources: { type: "positional", required: false, description: "Jobs (names under results/jobs/), job folders or folders of runs (default: the results folder)", valueHint: "JOB|DIR…" },
    results: { type: "string", description: "Results folder jobs are looked up in (default: ./results)", valueHint: "DIR" },
    host: { type: "string", description: "Address to listen on (default: 127.0.0.1, this machine only)", valueHint: "HOST" },
    port: { type: "string", alias: "p", description: "Port to listen on; 0 picks a free one (default: 8090)", valueHint: "PORT" },
  },
  async run({ args }) {
    const { viewCommand } = await import("../view/command.ts");
    return viewCommand({ sources: (args._ ?? []).map(String), results: args.results || "results", host: args.host, port: args.port });
  },
});
