/**
 * Dependencies point down: the CLI uses the capabilities, never the reverse. A scan of every import
 * (static, dynamic and re-exports) of every module outside src/cli.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const SRC = resolve(import.meta.dir, "../../src");
const CLI = join(SRC, "cli");
/** The binary's entry starts the CLI; it is the one module above it. */
const ENTRY = join(SRC, "ssebench.ts");

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'`]([^"'`]+)["'`]/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.(ts|js)$/.test(e.name) ? [path] : [];
  });
}

/** Every relative import of `text` (a module at `file`) that lands in src/cli. */
function cliImports(file: string, text: string): string[] {
  return [...text.matchAll(SPECIFIER)]
    .map((m) => m[1] as string)
    .filter((spec) => spec.startsWith("."))
    .filter((spec) => {
      const target = resolve(dirname(file), spec);
      return target === CLI || target.startsWith(`${CLI}/`);
    });
}

describe("layout", () => {
  test("the scan sees static, dynamic and re-exported imports of the CLI", () => {
    const file = join(SRC, "run", "x.ts");
    const text = [
      'import { out } from "../cli/output.ts";',
      'const m = await import("../cli/args.ts");',
      'export * from "../cli/main.ts";',
      'import "../cli/commands.ts";',
      'import { msg } from "./messages.ts";',
      'import { VERSION } from "../version.ts";',
    ].join("\n");
    expect(cliImports(file, text)).toEqual(["../cli/output.ts", "../cli/args.ts", "../cli/main.ts", "../cli/commands.ts"]);
  });

  test("no module outside src/cli imports from src/cli", () => {
    const offenders = sourceFiles(SRC)
      .filter((f) => !f.startsWith(`${CLI}/`) && f !== ENTRY)
      .flatMap((f) => cliImports(f, readFileSync(f, "utf8")).map((spec) => `${relative(SRC, f)} imports ${spec}`));
    expect(offenders).toEqual([]);
  });
});
