/**
 * The layout's rules in one place (docs/developing.md "Layout"): test/layout/layout.test.ts checks
 * them on the import graph of src/ (scripts/dev/import-graph.ts; scripts/dev/layout-stats.ts prints
 * its figures). Paths are relative to src/; a folder ends in "/".
 */

/** The most source modules a folder may hold directly (its sub-folders' modules do not count). */
export const MAX_MODULES_PER_FOLDER = 25;

/** Modules the build generates (not committed); they do not count towards a folder's modules. */
export const GENERATED = ["formats/compiled-validators.js", "run/embedded-home.gen.js"];

/** The container side: ssebench-entrypoint and what only it runs. */
export const CONTAINER = ["ssebench-entrypoint.ts", "runtime/", "agents/"];

/**
 * Where the two binaries meet: the only modules both sides may import. They import nothing of either
 * side. Everything else is the host side (`ssebench`), which imports nothing of the container side.
 */
export const SHARED = ["contract/", "formats/", "errors.ts", "version.ts", "output/"];

/** The CLI: the top of the host side, which nothing imports but the binary's entry. */
export const CLI = "cli/";
export const CLI_ENTRY = "ssebench.ts";

export type Side = "container" | "shared" | "host";

const under = (path: string, places: readonly string[]) => places.some((p) => (p.endsWith("/") ? path.startsWith(p) : path === p));

/** Which side a module of src/ is on. */
export function sideOf(path: string): Side {
  if (under(path, SHARED)) return "shared";
  if (under(path, CONTAINER)) return "container";
  return "host";
}

/** Why an import of `to` by `from` breaks the walls between the sides, or undefined when it does not. */
export function sideProblem(from: string, to: string): string | undefined {
  if (to.startsWith("../")) return undefined; // out of src/ (package.json)
  const a = sideOf(from);
  const b = sideOf(to);
  if (a === "shared" && b !== "shared") return `${from} (shared) imports ${to} (${b} side)`;
  if ((a === "host" && b === "container") || (a === "container" && b === "host")) return `${from} (${a} side) imports ${to} (${b} side)`;
  return undefined;
}

/** Why an import of `to` by `from` reaches up into the CLI, or undefined when it does not. */
export function cliProblem(from: string, to: string): string | undefined {
  if (!to.startsWith(CLI) || from.startsWith(CLI) || from === CLI_ENTRY) return undefined;
  return `${from} imports ${to}`;
}
