/** `ssebench run` behind the thin command file: options, real docker, consola, three stdout lines. */
import type { Argv } from "../argv.ts";
import { out } from "../output/terminal.ts";
import { DockerCli } from "./backends/docker.ts";
import { findHome } from "./home.ts";
import { parseRunOptions, type RawRunArgs } from "./options.ts";
import { runTask } from "./orchestrate.ts";
import { consoleReporter } from "./reporter.ts";

export async function runCommand(args: RawRunArgs, argv: Argv): Promise<number> {
  const opts = parseRunOptions(args, argv);
  const reporter = await consoleReporter();
  const home = findHome();
  const docker = new DockerCli(reporter.debug);
  const outcome = await runTask(opts, { docker, reporter, home, env: process.env, handleSignals: true });
  for (const line of outcome.lines) out(line);
  return outcome.exitCode;
}
