/**
 * Where a run reports progress: consola on stderr for `ssebench run` (stdout keeps only the
 * three-line summary), a log file for `dataset verify`, memory for tests.
 */
import { appendFileSync } from "node:fs";
import { useColour } from "../output/terminal.ts";

export interface Reporter {
  info(line: string): void;
  warn(line: string): void;
  error(line: string): void;
  start(line: string): void;
  success(line: string): void;
  /** one build step ("Step 2/5 : RUN …") */
  step(line: string): void;
  /** every line of docker build output (shown only when verbose) */
  buildOutput(line: string): void;
  /** the whole output of a failed build, so the error's "(its output is above)" holds */
  buildFailed(output: string): void;
  /** container output as it arrives */
  container(chunk: string): void;
  /** docker invocations (debug) */
  debug(line: string): void;
}

/** consola on stderr; colour only on a terminal; debug lines with SSEBENCH_DEBUG=1. */
export async function consoleReporter(env: NodeJS.ProcessEnv = process.env): Promise<Reporter> {
  const { createConsola } = await import("consola");
  const colour = useColour(process.stderr);
  const debug = Boolean(env.SSEBENCH_DEBUG);
  const verbose = debug || Boolean(env.SSEBENCH_VERBOSE);
  const options = {
    level: debug ? 4 : 3,
    fancy: colour,
    stdout: process.stderr,
    stderr: process.stderr,
    formatOptions: { colors: colour, date: false, compact: true },
  };
  const c = createConsola(options as Parameters<typeof createConsola>[0]);
  return {
    info: (l) => c.info(l),
    warn: (l) => c.warn(l),
    error: (l) => c.error(l),
    start: (l) => c.start(l),
    success: (l) => c.success(l),
    step: (l) => c.log(`  ${l}`),
    buildOutput: (l) => {
      if (verbose) process.stderr.write(`    ${l}\n`);
    },
    buildFailed: (output) => {
      if (!verbose) process.stderr.write(output.endsWith("\n") ? output : `${output}\n`);
    },
    container: (chunk) => process.stderr.write(chunk),
    debug: (l) => c.debug(l),
  };
}

/**
 * Everything into one log file (dataset verify keeps one log per task and agent). With `onError`
 * (a job's trial logs) a write that fails (disk full) never throws where the run reports, often in
 * an output stream's callback: the first failure goes to onError and the log stops there.
 */
export function fileReporter(path: string, onError?: (cause: unknown) => void): Reporter {
  let failed = false;
  const append = (text: string) => {
    if (!onError) return appendFileSync(path, text);
    if (failed) return;
    try {
      appendFileSync(path, text);
    } catch (cause) {
      failed = true;
      onError(cause);
    }
  };
  const write = (prefix: string) => (line: string) => append(`${prefix}${line}\n`);
  return {
    info: write("[info] "),
    warn: write("[warn] "),
    error: write("[error] "),
    start: write("[start] "),
    success: write("[ok] "),
    step: write("  "),
    buildOutput: write("    "),
    buildFailed: () => {},
    container: (chunk) => append(chunk),
    debug: write("[debug] "),
  };
}

/** Collects lines (tests). */
export function memoryReporter(): Reporter & { lines: string[] } {
  const lines: string[] = [];
  const push = (kind: string) => (line: string) => lines.push(`${kind}: ${line}`);
  return {
    lines,
    info: push("info"),
    warn: push("warn"),
    error: push("error"),
    start: push("start"),
    success: push("success"),
    step: push("step"),
    buildOutput: () => {},
    buildFailed: push("build-failed"),
    container: push("container"),
    debug: push("debug"),
  };
}
