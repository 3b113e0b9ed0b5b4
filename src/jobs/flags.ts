/**
 * The command line of `ssebench run` beyond what citty gives: citty keeps the last value of a
 * repeated flag, so the repeatable ones are read from the raw words here, and a repeated
 * single-value flag is a usage error instead of silently losing a value.
 */
import { usageError } from "../errors.ts";
import { repeatedFlag } from "../run/options.ts";
import { msg } from "./messages.ts";

/** Flags that take several values (repeated, or `a,b`). */
export const REPEATABLE = ["task", "agent", "model", "plugin", "constraint"] as const;

/** Flags that make `run` a job even with one task and one agent. */
export const JOB_FLAGS = ["tasks", "attempts", "jobs", "job", "retries", "json", "predictions"] as const;

/** The names of the flags given, in order, and how often; `stringFlags` take the next word as their value. */
export function flagCounts(rawArgs: readonly string[], stringFlags: ReadonlySet<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i < rawArgs.length; i++) {
    const token = rawArgs[i] ?? "";
    if (token === "--") break;
    if (!token.startsWith("--")) continue;
    const name = token.slice(2).split("=")[0] ?? "";
    counts.set(name, (counts.get(name) ?? 0) + 1);
    if (stringFlags.has(name) && !token.includes("=")) i++;
  }
  return counts;
}

/** A single-value string flag given twice is a usage error (exit 2). */
export function checkSingleValued(counts: ReadonlyMap<string, number>, stringFlags: ReadonlySet<string>): void {
  for (const [name, count] of counts) {
    if (count > 1 && stringFlags.has(name) && !(REPEATABLE as readonly string[]).includes(name)) throw usageError(msg.flagTwice(`--${name}`));
  }
}

export interface MatrixFlags {
  tasks: string[];
  agents: string[];
  models: string[];
}

/** Every value of --task, --agent and --model, in order, without repeats. */
export function matrixFlags(rawArgs: readonly string[]): MatrixFlags {
  const values = (name: string) => [...new Set(repeatedFlag(rawArgs, name) ?? [])];
  return { tasks: values("task"), agents: values("agent"), models: values("model") };
}

/** Whether the command line asks for a job rather than one run. */
export function isJob(counts: ReadonlyMap<string, number>, matrix: MatrixFlags): boolean {
  if (JOB_FLAGS.some((f) => counts.has(f))) return true;
  return matrix.tasks.length > 1 || matrix.agents.length > 1 || matrix.models.length > 1;
}
