/** Converting a captured CLI stream with a driver's converter into dialog entries, as a run does. */
import { expect } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { CliExit } from "../../src/agents/cli-process.ts";
import { Dialog } from "../../src/agents/dialog.ts";

export type Entry = Record<string, unknown>;

interface Converter {
  line(raw: string): void;
  complete(exit: CliExit, durationMs: number): void;
}

/**
 * The dialog entries (without seq and ts, which are checked) that `<fixtures>/<fixture>.stream.jsonl`
 * converts into, written to `<scratch>/<fixture>.dialog.jsonl`.
 */
export function convertStream(make: (dialog: Dialog) => Converter, fixtures: string, fixture: string, scratch: string, exit: CliExit = { code: 0, stopped: false }): Entry[] {
  const file = join(scratch, `${fixture}.dialog.jsonl`);
  const dialog = new Dialog(file);
  const stream = make(dialog);
  for (const line of readFileSync(join(fixtures, `${fixture}.stream.jsonl`), "utf8").split("\n")) if (line.trim()) stream.line(line);
  stream.complete(exit, 1000);
  dialog.close();
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l, i) => {
      const { seq, ts, ...rest } = JSON.parse(l) as Entry;
      expect(seq).toBe(i);
      expect(typeof ts).toBe("string");
      return rest;
    });
}

/** The tool entries as [name, status] pairs. */
export const toolSteps = (entries: Entry[]) => entries.filter((e) => e.type === "tool").map((e) => [e.name, e.status]);

/** What the scripted fix (test/e2e/fixtures/agent-models/fixture-scripts/*fix*.yaml) says, turn by turn. */
export const FIX_MESSAGES = [
  "The report shows html_escaped_length undercounting quotes. Let me read htmlesc.c.",
  "The length table misses the quote entities; I compute it from entity() instead.",
  "Now I check the patch.",
  "The patch builds and passes the tests. Done.",
];

/** Tool pairs as the dialog has them: each tool's start, then its outcome. */
export const toolPairs = (...tools: [name: string, outcome: string][]) => tools.flatMap(([name, outcome]) => [[name, "running"], [name, outcome]]);

/** The scripted fix's tool pairs, under the CLI's names for reading, editing and test_patch. */
export const fixSteps = (read: string, edit: string, testPatch: string) => toolPairs([read, "success"], [edit, "success"], [testPatch, "success"]);
