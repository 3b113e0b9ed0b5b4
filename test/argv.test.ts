/** The one reader of the command line's words (src/argv.ts), as exact values. */
import { describe, expect, test } from "bun:test";
import { Argv } from "../src/argv.ts";

const TAKES_VALUE = new Set(["task", "local", "output", "o", "timeout"]);
const read = (words: string[]) => Argv.read(words, TAKES_VALUE);

describe("Argv", () => {
  test("flags in order with their values; positionals before and after --", () => {
    const argv = read(["a", "--task", "x", "--json", "--task=y,z", "-o", "-", "b", "--", "--task", "c"]);
    expect(argv.flags.map((f) => [f.name, f.long, f.value])).toEqual([
      ["task", true, "x"],
      ["json", true, undefined],
      ["task", true, "y,z"],
      ["o", false, "-"],
    ]);
    expect(argv.positionals).toEqual(["a", "b", "--task", "c"]);
    expect(argv.names()).toEqual(["task", "json"]);
    expect(argv.count("task")).toBe(2);
    expect(argv.values("task")).toEqual(["x", "y,z"]);
    expect(argv.has("o")).toBe(false);
  });

  test("a flag that takes a value takes the next word even when it starts with '-'; at the end it has none", () => {
    expect(read(["--timeout", "-3"]).values("timeout")).toEqual(["-3"]);
    const last = read(["--json", "--task"]);
    expect(last.flags.map((f) => [f.name, f.value])).toEqual([["json", undefined], ["task", undefined]]);
    expect(last.has("task")).toBe(true);
    expect(last.values("task")).toEqual([]);
  });

  test("without, mapValues and words give the command line back as written", () => {
    const words = ["--local", "ds", "--task=a", "--json", "--timeout", "5", "--", "--local", "x"];
    const argv = read(words);
    expect(argv.words()).toEqual(words);
    expect(argv.without((n) => n === "local" || n === "json").words()).toEqual(["--task=a", "--timeout", "5", "--", "--local", "x"]);
    const upper = argv.mapValues((name, value) => (name === "local" || name === "task" ? value.toUpperCase() : value));
    expect(upper.words()).toEqual(["--local", "DS", "--task=A", "--json", "--timeout", "5", "--", "--local", "x"]);
    expect(upper.values("task")).toEqual(["A"]);
    expect(argv.reread(["--timeout", "7"]).values("timeout")).toEqual(["7"]);
  });
});
