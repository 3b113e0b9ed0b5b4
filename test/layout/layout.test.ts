/**
 * The walls of src/ (the rules: test/layout/rules.ts): no import cycle; no folder with more than
 * MAX_MODULES_PER_FOLDER modules of its own; the host and container sides meet only in the shared
 * modules; nothing but the binary's entry imports the CLI. Every import counts: static, dynamic,
 * re-exports and `import type`.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { cycles, filesPerFolder, importGraph, importsOf, SRC } from "../../scripts/dev/import-graph.ts";
import { cliProblem, GENERATED, MAX_MODULES_PER_FOLDER, sideOf, sideProblem } from "./rules.ts";

const graph = importGraph();
const edges = [...graph].flatMap(([from, tos]) => tos.map((to) => [from, to] as const));

describe("layout", () => {
  test("the scan sees static, dynamic, re-exported and type-only imports, resolved from the importing module", () => {
    const text = [
      'import { out } from "../cli/output.ts";',
      'const m = await import("../cli/args.ts");',
      'export * from "../cli/main.ts";',
      'import "../cli/commands.ts";',
      'import { msg } from "./messages.ts";',
      'import type { Argv } from "../argv.ts";',
      'import { x } from "yaml";',
    ].join("\n");
    expect(importsOf(join("run", "x.ts"), text)).toEqual([
      { to: "cli/output.ts", typeOnly: false },
      { to: "cli/args.ts", typeOnly: false },
      { to: "cli/main.ts", typeOnly: false },
      { to: "cli/commands.ts", typeOnly: false },
      { to: "run/messages.ts", typeOnly: false },
      { to: "argv.ts", typeOnly: true },
    ]);
    expect(graph.get("ssebench.ts")).toEqual(["cli/main.ts"]);
    expect(SRC.endsWith("src")).toBe(true);
  });

  test("the cycle finder finds a cycle, a self-import, and nothing in a tree", () => {
    const g = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a", "d"]],
      ["d", ["d"]],
      ["e", ["a"]],
    ]);
    expect(cycles(g)).toEqual([["d"], ["a", "b", "c"]]);
    expect(cycles(new Map([["a", ["b", "c"]], ["b", ["c"]], ["c", []]]))).toEqual([]);
  });

  test("no import cycle in src/", () => {
    expect(cycles(graph)).toEqual([]);
  });

  test(`no folder holds more than ${MAX_MODULES_PER_FOLDER} modules directly`, () => {
    const counts = filesPerFolder(GENERATED);
    const crowded = [...counts].filter(([, n]) => n > MAX_MODULES_PER_FOLDER).map(([folder, n]) => `src/${folder}: ${n}`);
    expect(crowded).toEqual([]);
  });

  test("the sides: the entries are where the rules put them", () => {
    expect([sideOf("ssebench.ts"), sideOf("ssebench-entrypoint.ts"), sideOf("contract/paths.ts"), sideOf("errors.ts")]).toEqual(["host", "container", "shared", "shared"]);
    expect(sideProblem("run/x.ts", "runtime/y.ts")).toBe("run/x.ts (host side) imports runtime/y.ts (container side)");
    expect(sideProblem("runtime/x.ts", "gateway/y.ts")).toBe("runtime/x.ts (container side) imports gateway/y.ts (host side)");
    expect(sideProblem("formats/x.ts", "run/y.ts")).toBe("formats/x.ts (shared) imports run/y.ts (host side)");
    expect(sideProblem("runtime/x.ts", "contract/y.ts")).toBeUndefined();
  });

  test("the host and container sides meet only in the shared modules", () => {
    expect(edges.flatMap(([from, to]) => sideProblem(from, to) ?? [])).toEqual([]);
  });

  test("nothing but the binary's entry imports the CLI", () => {
    expect(cliProblem("run/x.ts", "cli/output.ts")).toBe("run/x.ts imports cli/output.ts");
    expect(edges.flatMap(([from, to]) => cliProblem(from, to) ?? [])).toEqual([]);
  });
});
