/** --predictions files: each malformed line is one error naming the file and line; trials and their saved patches. */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { msg } from "../../src/jobs/messages.ts";
import { predictionTrials, readPredictions, samePatches, savePatches } from "../../src/jobs/predictions.ts";
import { tempDir } from "../helpers/cli.ts";

const scratch = tempDir("ssebench-predictions-");
afterAll(scratch.cleanup);
const file = join(scratch.path, "preds.jsonl");

function fails(text: string, line: number, what: string) {
  writeFileSync(file, text);
  expect(() => readPredictions(file)).toThrow(msg.predictionLine(file, line, what));
}

describe("readPredictions", () => {
  test("one {task, patch, agent?, model?} a line; blank lines skipped", () => {
    writeFileSync(file, '{"task":"a","patch":"diff1"}\n\n{"task":"a","patch":"","agent":"coder","model":"m-1","extra":1}\n{"task":"b","patch":"diff3"}\n');
    const predictions = readPredictions(file);
    expect(predictions).toEqual([
      { task: "a", patch: "diff1", agent: undefined, model: undefined, line: 1 },
      { task: "a", patch: "", agent: "coder", model: "m-1", line: 3 },
      { task: "b", patch: "diff3", agent: undefined, model: undefined, line: 4 },
    ]);
    const trials = predictionTrials(predictions);
    expect(trials.map((t) => [t.trial, t.patch, t.source])).toEqual([
      ["a/none/patch/1", "patches/a.1.diff", { agent: null, model: null, line: 1 }],
      ["a/none/patch/2", "patches/a.2.diff", { agent: "coder", model: "m-1", line: 3 }],
      ["b/none/patch/1", "patches/b.1.diff", { agent: null, model: null, line: 4 }],
    ]);
    savePatches(predictions, trials, scratch.path);
    expect(readFileSync(join(scratch.path, "patches", "b.1.diff"), "utf8")).toBe("diff3");
    expect(samePatches(predictions, trials, scratch.path)).toBe(true);
    expect(samePatches([{ ...(predictions[0] as (typeof predictions)[0]), patch: "other" }], trials.slice(0, 1), scratch.path)).toBe(false);
  });

  test("malformed lines", () => {
    fails('{"task":"a","patch":"x"}\n{"task":"a",', 2, "not JSON (JSON Parse error: Property name must be a string literal)");
    fails("[1]\n", 1, "not a JSON object");
    fails('{"patch":"x"}\n', 1, "'task' must be a task ID");
    fails('{"task":"../etc","patch":"x"}\n', 1, "'task' must be a task ID");
    fails('{"task":"a"}\n', 1, "'patch' must be a string (a unified diff; empty for no change)");
    fails('{"task":"a","patch":"x","model":3}\n', 1, "'model' must be a name (letters, digits, '.', '_', '-')");
    writeFileSync(file, "\n");
    expect(() => readPredictions(file)).toThrow(msg.predictionsEmpty(file));
  });
});
