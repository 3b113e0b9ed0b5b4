/**
 * Everything ssebench prints goes through here: tables for people, JSON for scripts, and colour only
 * when stdout is a terminal (and NO_COLOR is unset). Below the CLI so that the capabilities that
 * print (run, jobs, results, items) need not import the CLI (cli/output.ts re-exports this).
 */
export function useColour(stream: { isTTY?: boolean } = process.stdout): boolean {
  return Boolean(stream.isTTY) && !process.env.NO_COLOR && process.env.TERM !== "dumb";
}

let stdoutClosed = false;

/**
 * A reader that stops early (`ssebench tasks list | head -1`) closes the pipe: the rest of the
 * output is dropped quietly and the command ends as it would have, instead of dying on an
 * unhandled EPIPE with a stack trace. main() installs this before any command runs.
 */
export function endQuietlyOnClosedStdout(stream: NodeJS.WriteStream = process.stdout): void {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    stdoutClosed = true;
  });
}

/** Writes text as it is to stdout (nothing once the reader has gone). */
export function write(text: string): void {
  if (!stdoutClosed) process.stdout.write(text);
}

/** Writes text + newline to stdout. */
export function out(text: string): void {
  write(text.endsWith("\n") ? text : `${text}\n`);
}

/** Writes text + newline to stderr. */
export function err(text: string): void {
  process.stderr.write(text.endsWith("\n") ? text : `${text}\n`);
}

/** Pretty JSON (2-space indent, trailing newline), the format every --json flag prints. */
export { renderJson } from "../formats/compat/json-text.ts";

/**
 * An aligned plain-text table: a header row, then one row per item, columns separated by two
 * spaces, the last column not padded (so lines carry no trailing blanks).
 */
export function renderTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return `${[line(headers), ...rows.map(line)].join("\n")}\n`;
}
