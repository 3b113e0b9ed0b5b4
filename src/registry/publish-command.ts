/** `ssebench dataset publish` behind the thin command file: the dataset's manifest, then publish.ts. */
import { join } from "node:path";
import { datasetDir } from "../dataset/locate.ts";
import { manifestOrFailure } from "../dataset/manifest-command.ts";
import { err, out } from "../output/terminal.ts";
import { DockerCli } from "../run/backends/docker.ts";
import { consoleReporter } from "../run/reporter.ts";
import { registryMsg as m } from "./messages.ts";
import { publishDataset } from "./publish.ts";

export interface PublishArgs {
  tasks: string[];
  registry: string;
  dir?: string;
  output?: string;
  revision?: string;
  unverified?: boolean;
}

export async function publishCommand(args: PublishArgs): Promise<number> {
  const dir = datasetDir(args.dir);
  const built = await manifestOrFailure(dir, m.invalidDataset);
  if ("failure" in built) {
    // The spec's order: the headline, then the problems.
    const lines = built.failure.stderr.trimEnd().split("\n");
    err([lines.at(-1), ...lines.slice(0, -1)].join("\n"));
    return 1;
  }
  return publishDataset(
    built.manifest,
    { dir, tasks: args.tasks, registry: args.registry, output: args.output ?? join("results", "dataset-verify"), revision: args.revision, unverified: Boolean(args.unverified) },
    { docker: new DockerCli(process.env.SSEBENCH_DEBUG ? (line) => err(`[debug] ${line}`) : undefined), reporter: await consoleReporter(), env: process.env, out, err },
  );
}
