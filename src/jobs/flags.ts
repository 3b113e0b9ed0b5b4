/**
 * The command line of `ssebench run` beyond what citty gives: citty keeps the last value of a
 * repeated flag, so the repeatable ones are read from the command line's Argv (argv.ts), and a
 * repeated single-value flag is a usage error instead of silently losing a value.
 */
import type { Argv } from "../argv.ts";
import { usageError } from "../errors.ts";
import { repeatedFlag } from "../run/options.ts";
import { msg } from "./messages.ts";

/** Flags that take several values (repeated, or `a,b`). */
export const REPEATABLE = ["task", "agent", "model", "plugin", "constraint"] as const;

/** Flags that make `run` a job even with one task and one agent. */
export const JOB_FLAGS = ["tasks", "attempts", "jobs", "job", "retries", "json", "predictions"] as const;

/** A single-value string flag given twice is a usage error (exit 2). */
export function checkSingleValued(argv: Argv): void {
  for (const name of argv.names()) {
    if (argv.count(name) > 1 && argv.takesValue.has(name) && !(REPEATABLE as readonly string[]).includes(name)) throw usageError(msg.flagTwice(`--${name}`));
  }
}

export interface MatrixFlags {
  tasks: string[];
  agents: string[];
  models: string[];
}

/** Every value of --task, --agent and --model, in order, without repeats. */
export function matrixFlags(argv: Argv): MatrixFlags {
  const values = (name: string) => [...new Set(repeatedFlag(argv, name) ?? [])];
  return { tasks: values("task"), agents: values("agent"), models: values("model") };
}

/** Whether the command line asks for a job rather than one run. */
export function isJob(argv: Argv, matrix: MatrixFlags): boolean {
  if (JOB_FLAGS.some((f) => argv.has(f))) return true;
  return matrix.tasks.length > 1 || matrix.agents.length > 1 || matrix.models.length > 1;
}
