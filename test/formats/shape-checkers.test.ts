/**
 * The single-pass checkers of the manifest and the images lock (scripts/build/shape-checkers.ts, generated
 * at build) must answer what ajv's compiled validator and the edge-space walk answer together, on
 * every variation of a real document: each value replaced by values of other types, padded, emptied or removed, and extra keys.
 * Build first (`bun run build` writes src/formats/compiled-validators.js).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { hasStrippableString } from "../../src/formats/check.ts";
import { shapeCheckers, validators } from "../../src/formats/compiled-validators.js";

const read = (name: string) => JSON.parse(readFileSync(join(import.meta.dir, "../../datasets/demo", name), "utf8"));
const demo = read("manifest.json");
const demoLock = read("images.lock.json");
const REPLACEMENTS: unknown[] = [null, 1, true, "", " x", "x\u00a0", "x", "\ud83d\ude00", "a".repeat(129), "😀".repeat(65), [], ["x"], [" x"], {}, { x: 1 }];

type Path = (string | number)[];

function paths(value: unknown, at: Path = []): Path[] {
  if (value === null || typeof value !== "object") return [at];
  const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return [at, ...keys.flatMap((k) => paths((value as Record<string | number, unknown>)[k], [...at, k]))];
}

function variant(doc: unknown, path: Path, change: (parent: Record<string | number, unknown>, key: string | number) => void): unknown {
  const copy = structuredClone(doc) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  change(parent, path.at(-1) as string | number);
  return copy;
}

function variants(doc: unknown): unknown[] {
  const out: unknown[] = [doc];
  for (const path of paths(doc)) {
    if (path.length === 0) continue;
    for (const replacement of REPLACEMENTS) out.push(variant(doc, path, (p, k) => void (p[k] = structuredClone(replacement))));
    out.push(variant(doc, path, (p, k) => (Array.isArray(p) ? p.splice(Number(k), 1) : delete p[k])));
    out.push(variant(doc, path, (p, k) => void (typeof p[k] === "object" && p[k] !== null && !Array.isArray(p[k]) && ((p[k] as Record<string, unknown>)[" extra "] = "x"))));
  }
  return out;
}

describe("the single-pass checkers", () => {
  for (const [format, base, rejected] of [
    ["manifest", { ...demo, generated_from: "datasets/demo" }, 1000],
    ["images-lock", demoLock, 20],
  ] as const) {
    test(`agree with the ajv validator plus the edge-space walk on every variation of the demo ${format}`, () => {
      const check = shapeCheckers[format];
      expect(typeof check).toBe("function");
      const docs = variants(base);
      let accepted = 0;
      for (const doc of docs) {
        const expected = !hasStrippableString(doc) && validators[format](doc);
        if (check?.(doc) !== expected) throw new Error(`disagrees (ajv+walk: ${expected}) on ${JSON.stringify(doc).slice(0, 2000)}`);
        if (expected) accepted++;
      }
      // Both verdicts occur (a test that only ever saw one answer would prove little).
      expect(accepted).toBeGreaterThan(3);
      expect(docs.length - accepted).toBeGreaterThan(rejected);
    });
  }
});
