/**
 * Figures of src/'s layout, for before/after notes of a restructuring:
 *   bun scripts/dev/layout-stats.ts [--top N] [--json]
 * - source modules directly in each folder (the busiest first; over 25 marked);
 * - import cycles (strongly connected components of the import graph, `import type` included, and
 *   without type-only imports: what runs);
 * - the longest functions (lines from the signature to the closing brace).
 * Function bodies are found by scanning the text with strings, comments, templates and regular
 * expressions blanked out, so braces inside them do not count.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cycles, filesPerFolder, importGraph, SRC, sourceFiles } from "./import-graph.ts";

const args = process.argv.slice(2);
const top = Number(args[args.indexOf("--top") + 1]) || 15;
const json = args.includes("--json");

/** The text with the insides of strings, templates, comments and regex literals replaced by spaces (newlines kept). */
export function blank(text: string): string {
  const out = text.split("");
  const clear = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== "\n") out[k] = " ";
  };
  const templates: number[] = []; // brace depth at which each open template's ${ started
  let depth = 0;
  let i = 0;
  let last = ""; // the last significant character, to tell a regex from a division
  while (i < text.length) {
    const c = text[i] as string;
    const next = text[i + 1];
    if (c === "/" && next === "/") {
      const end = text.indexOf("\n", i);
      const stop = end < 0 ? text.length : end;
      clear(i, stop);
      i = stop;
      continue;
    }
    if (c === "/" && next === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end < 0 ? text.length : end + 2;
      clear(i, stop);
      i = stop;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== "\n") j += text[j] === "\\" ? 2 : 1;
      clear(i + 1, j);
      i = j + 1;
      last = c;
      continue;
    }
    if (c === "`" || (c === "}" && templates.length > 0 && templates[templates.length - 1] === depth)) {
      if (c === "}") templates.pop();
      let j = i + 1;
      while (j < text.length && text[j] !== "`" && !(text[j] === "$" && text[j + 1] === "{")) j += text[j] === "\\" ? 2 : 1;
      clear(i + 1, j);
      if (text[j] === "$") {
        templates.push(depth);
        i = j + 2;
        last = "{";
      } else {
        i = j + 1;
        last = "`";
      }
      continue;
    }
    if (c === "/" && (last === "" || "(,=:[!&|?{};+-*%<>~^".includes(last) || /\breturn\s*$/.test(text.slice(Math.max(0, i - 8), i)))) {
      let j = i + 1;
      let inClass = false;
      while (j < text.length && text[j] !== "\n" && (inClass || text[j] !== "/")) {
        if (text[j] === "[") inClass = true;
        else if (text[j] === "]") inClass = false;
        j += text[j] === "\\" ? 2 : 1;
      }
      clear(i + 1, j);
      i = j + 1;
      last = "/";
      continue;
    }
    if (c === "{") depth++;
    else if (c === "}") depth--;
    if (!/\s/.test(c)) last = c;
    i++;
  }
  return out.join("");
}

export interface FunctionSpan {
  file: string;
  name: string;
  line: number;
  lines: number;
}

const KEYWORDS = new Set(["if", "for", "while", "switch", "catch", "with", "function", "return"]);

/** The functions of a module (declarations, methods, arrow functions with a block body). */
export function functionsOf(file: string, text: string): FunctionSpan[] {
  const code = blank(text);
  const lineAt = (offset: number) => code.slice(0, offset).split("\n").length;
  const spans: FunctionSpan[] = [];
  for (let open = code.indexOf("{"); open >= 0; open = code.indexOf("{", open + 1)) {
    const before = code.slice(Math.max(0, open - 400), open);
    let name: string | undefined;
    let start = open;
    const arrow = /(?:(?:const|let|var)\s+([\w$]+)|([\w$]+)\s*:|([\w$]+)\s*=)[^;{}]*?=>\s*$/.exec(before);
    const paren = /\)\s*(?::[^{};=]*)?$/.exec(before);
    if (arrow) {
      name = arrow[1] ?? arrow[2] ?? arrow[3];
      start = open - before.length + arrow.index;
    } else if (paren) {
      // Find the "(" matching the ")" and the word before it.
      let depth = 0;
      let k = open - before.length + paren.index;
      for (; k >= 0; k--) {
        if (code[k] === ")") depth++;
        else if (code[k] === "(" && --depth === 0) break;
      }
      const head = /(?:function\s*\*?\s*)?([\w$]+)\s*(?:<[^()]*>)?\s*$/.exec(code.slice(Math.max(0, k - 200), k));
      if (!head || KEYWORDS.has(head[1] as string)) continue;
      name = head[1];
      start = k - (head[0].length - (head[0].indexOf(name as string)));
    } else continue;
    let depth = 0;
    let close = open;
    for (; close < code.length; close++) {
      if (code[close] === "{") depth++;
      else if (code[close] === "}" && --depth === 0) break;
    }
    spans.push({ file, name: name ?? "(anonymous)", line: lineAt(start), lines: lineAt(close) - lineAt(start) + 1 });
  }
  return spans;
}

if (import.meta.main) {
  const perFolder = [...filesPerFolder()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const allCycles = cycles(importGraph());
  const runtimeCycles = cycles(importGraph({ types: false }));
  const functions = sourceFiles()
    .filter((f) => f.endsWith(".ts"))
    .flatMap((f) => functionsOf(f, readFileSync(join(SRC, f), "utf8")))
    .sort((a, b) => b.lines - a.lines)
    .slice(0, top);
  if (json) {
    console.log(JSON.stringify({ filesPerFolder: Object.fromEntries(perFolder), cycles: allCycles, runtimeCycles, longestFunctions: functions }, null, 2));
  } else {
    console.log(`modules: ${sourceFiles().length} in ${perFolder.length} folders of src/`);
    console.log("\nmodules directly in a folder (busiest first):");
    for (const [folder, n] of perFolder.slice(0, top)) console.log(`  ${String(n).padStart(4)}  src/${folder}${n > 25 ? "   (over 25)" : ""}`);
    console.log(`\nimport cycles: ${allCycles.length} (${runtimeCycles.length} without type-only imports)`);
    for (const c of allCycles) console.log(`  ${c.join(" ↔ ")}${runtimeCycles.some((r) => r.join() === c.join()) ? "" : "   (types only)"}`);
    console.log("\nlongest functions:");
    for (const f of functions) console.log(`  ${String(f.lines).padStart(4)}  ${f.name}  src/${f.file}:${f.line}`);
  }
}
