/** `ssebench run`: one run as before, or a job when the command line asks for several trials. */
import { runCommand } from "../run/command.ts";
import { checkSingleValued, flagCounts, isJob, matrixFlags } from "./flags.ts";
import type { RawJobArgs } from "./command.ts";

export async function runOrJob(args: RawJobArgs, rawArgs: readonly string[], stringFlags: ReadonlySet<string>): Promise<number> {
  const counts = flagCounts(rawArgs, stringFlags);
  checkSingleValued(counts, stringFlags);
  if (!isJob(counts, matrixFlags(rawArgs))) return runCommand(args, rawArgs);
  const { jobCommand } = await import("./command.ts");
  return jobCommand(args, rawArgs, stringFlags);
}
