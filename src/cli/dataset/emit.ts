import { write } from "../output.ts";

/** Prints a dataset command's output and returns its exit code. */
export function emit(result: { stdout: string; stderr: string; exitCode: number }): number {
  if (result.stdout) write(result.stdout);
  if (result.stderr) process.stderr.write(result.stderr);
  return result.exitCode;
}
