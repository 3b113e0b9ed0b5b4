/**
 * The import graph of src/: every relative import of every module (static, dynamic, re-exports and
 * `import type`), resolved to a file. scripts/dev/layout-stats.ts prints figures from it and
 * test/layout checks the layout's rules on it.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

export const SRC = resolve(import.meta.dir, "../../src");

/** An import of a module: the file it lands on (relative to src/) and whether only types come in. */
export interface Edge {
  to: string;
  typeOnly: boolean;
}

const SPECIFIER = /(?:\b(import\s+type|export\s+type)\b[^"'`;]*?\bfrom\s*|\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)["'`]([^"'`]+)["'`]/g;

/** Every source module under src/ (relative paths), generated ones included. */
export function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => {
      const path = join(dir, e.name);
      if (e.isDirectory()) return sourceFiles(path).map((f) => join(e.name, f));
      return /\.(ts|js)$/.test(e.name) && !e.name.endsWith(".d.ts") ? [e.name] : [];
    })
    .sort();
}

/** The relative imports of `text`, a module at `file` (relative to src/), resolved to src/ paths. */
export function importsOf(file: string, text: string): Edge[] {
  const edges: Edge[] = [];
  for (const m of text.matchAll(SPECIFIER)) {
    const spec = m[2] as string;
    if (!spec.startsWith(".")) continue;
    const to = relative(SRC, resolve(SRC, dirname(file), spec));
    edges.push({ to, typeOnly: m[1] !== undefined });
  }
  return edges;
}

/** The graph: module → the modules it imports (only those that exist as files). */
export function importGraph(options: { types?: boolean } = {}): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles()) {
    const text = readFileSync(join(SRC, file), "utf8");
    const targets = importsOf(file, text)
      .filter((e) => options.types !== false || !e.typeOnly)
      .map((e) => e.to)
      .filter((to) => existsSync(join(SRC, to)) || existsSync(join(SRC, to.replace(/\.js$/, ".d.ts"))));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The import cycles: strongly connected components of more than one module, or a module importing itself. */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    indices.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, indices.get(w) as number));
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!indices.has(v)) visit(v);
  return found;
}

/** The number of source modules directly in each folder of src/ (relative path; "" is src/ itself), but those of `leaveOut`. */
export function filesPerFolder(leaveOut: readonly string[] = []): Map<string, number> {
  const counts = new Map<string, number>();
  for (const file of sourceFiles().filter((f) => !leaveOut.includes(f))) {
    const folder = dirname(file) === "." ? "" : dirname(file);
    counts.set(folder, (counts.get(folder) ?? 0) + 1);
  }
  return counts;
}
