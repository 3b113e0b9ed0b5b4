/**
 * The compiled checkers (check.ts, generated at build from the arktype models' JSON Schemas) must
 * give exactly what the models give: the same verdict, the same value with keys in the same order,
 * the same problems. Build first (`bun run build` writes src/formats/compiled-validators.js).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { checkDocument, hasStrippableString } from "../../src/formats/check.ts";
import type { CompiledFormat } from "../../src/formats/format-names.ts";
import { checkFormat } from "../../src/formats/schemas.ts";
import { validTaskConfig } from "./fixtures.ts";

const repo = join(import.meta.dir, "../..");
const demoManifest = JSON.parse(readFileSync(join(repo, "datasets/demo/manifest.json"), "utf8"));
const demoLock = JSON.parse(readFileSync(join(repo, "datasets/demo/images.lock.json"), "utf8"));

const config = validTaskConfig;

/** Same verdict, same problems, and the same value down to the order of every key. */
function expectSameAsModel(name: CompiledFormat, input: unknown): void {
  const before = JSON.stringify(input);
  const [fast, model] = [checkDocument(name, structuredClone(input)), checkFormat(name, structuredClone(input))];
  expect(JSON.stringify(fast)).toBe(JSON.stringify(model));
  expect(JSON.stringify(input)).toBe(before);
}

const cases: [string, CompiledFormat, unknown][] = [
  ["the demo manifest", "manifest", demoManifest],
  ["the demo lock", "images-lock", demoLock],
  ["a task config with optional keys left out", "task", config],
  ["keys in another order", "task", Object.fromEntries(Object.entries(config).reverse())],
  ["every optional key set", "task", { ...config, sanitizer: "address", reference: ["https://x"], originality: "crafted", trigger_commit: "abc" }],
  ["padded strings (stripping applies)", "task", { ...config, source: "  /src/demo\u00a0", project: " demo" }],
  ["an unknown key", "task", { ...config, unknown: 1 }],
  ["a missing key and a bad pattern", "task", { ...config, repository: undefined, source: "src" }],
  ["a list given for a mapping", "task", { ...config, scripts: ["build.sh"] }],
  ["a list, not a mapping", "task", [config]],
  ["empty task_description", "task", { ...config, task_description: {} }],
  ["a manifest task with a bad arch", "manifest", { ...demoManifest, tasks: [{ ...demoManifest.tasks[0], arch: ["sparc"] }] }],
  ["a lock with a bad digest", "images-lock", { ...demoLock, images: { x: { digest: "md5:1", files_sha256: "0", revision: "r" } } }],
  ["dataset info", "dataset", { version: "v1" }],
  ["dataset info with a bad version", "dataset", { version: "has space" }],
];

describe("compiled checkers agree with the arktype models", () => {
  for (const [name, format, input] of cases) test(name, () => expectSameAsModel(format, input));

  test("a valid document already in model form comes back as it is, not copied", () => {
    const input = structuredClone(demoManifest);
    const result = checkDocument<{ tasks: unknown[] }>("manifest", input);
    expect(result.ok && result.value.tasks).toBe(input.tasks);
  });

  test("strippable strings are found anywhere, by Python's whitespace set", () => {
    expect(hasStrippableString({ a: [{ b: "x\u3000" }] })).toBe(true);
    expect(hasStrippableString({ a: ["\u0085x"] })).toBe(true);
    expect(hasStrippableString({ a: ["x\ufeff", "in side", ""] })).toBe(false);
  });
});
