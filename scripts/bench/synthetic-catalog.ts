/**
 * Synthetic catalogs for the benchmarks: a manifest of N valid tasks (and an images lock pinning
 * them all), shaped like generated ones (every metadata key present, `files` hashed).
 *
 *   bun scripts/bench/synthetic-catalog.ts --tasks 10000 [--files 60] --out DIR   (writes DIR/manifest.json, DIR/images.lock.json)
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { filesDigest } from "../../src/dataset/files-digest.ts";
import { renderImagesLock } from "../../src/formats/manifest/images-lock.ts";
import { renderManifest } from "../../src/formats/manifest/manifest.ts";
import type { ImagesLock, Manifest, ManifestTask } from "../../src/formats/manifest/manifest-types.ts";

const hex = (n: number) => n.toString(16).padStart(64, "0");

export function syntheticCatalog(count: number, filesPerTask = 60): { manifest: Manifest; lock: ImagesLock } {
  const width = String(count - 1).length;
  const tasks: ManifestTask[] = Array.from({ length: count }, (_, i) => {
    const id = `bench-task-${String(i).padStart(Math.max(2, width), "0")}`;
    // Sorted by path, as `dataset manifest` writes them.
    const paths = Array.from({ length: filesPerTask }, (_, j) => `src/module-${j}/file-${j}.c`).sort();
    const files = Object.fromEntries(paths.map((path, j) => [path, hex(i * 100 + j)]));
    return {
      id,
      language: "c",
      project: `project-${i}`,
      repository: `https://example.org/project-${i}`,
      base: "base-generic-c:1.0.0",
      image: `case/bench/${id}`,
      arch: ["amd64"],
      checks: ["build", "poc", "function_test", "intent_test"],
      files,
      metadata: {
        id, project: `project-${i}`, repository: `https://example.org/project-${i}`, language: "c", source: "/src/project",
        task_description: { issue: "A heap buffer overflow in the parser.", crash_report: ["sse/reports/crash.txt"], bug_description: null },
        scripts: { build: "sse/build.sh", run: "sse/run.sh", test: "sse/test.sh" },
        files: { patch: "sse/fix.patch", future_test: "sse/future.patch", security_test: null, intent_test: null, poc: ["sse/pocs/poc"] },
        sanitizer: "address", type: "heap-buffer-overflow", binary: null, trigger_commit: null, patch_commit: null, reference: null, originality: "public",
      },
    };
  });
  const images = Object.fromEntries(
    tasks.map((t, i) => [t.id, { digest: `sha256:${hex(9000 + i)}`, files_sha256: filesDigest(t.files ?? {}), revision: "a".repeat(40) }]),
  );
  return { manifest: { dataset: "bench", version: "bench-v1", tasks }, lock: { dataset: "bench", version: "bench-v1", images } };
}

/** Writes DIR/manifest.json and DIR/images.lock.json; returns the manifest's path. */
export function writeSyntheticCatalog(dir: string, count: number, filesPerTask = 60): string {
  const { manifest, lock } = syntheticCatalog(count, filesPerTask);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "manifest.json");
  writeFileSync(path, renderManifest(manifest));
  writeFileSync(join(dir, "images.lock.json"), renderImagesLock(lock));
  return path;
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { tasks: { type: "string", default: "1000" }, files: { type: "string", default: "60" }, out: { type: "string" } } });
  if (!values.out) {
    console.error("usage: bun scripts/bench/synthetic-catalog.ts --tasks N [--files N] --out DIR");
    process.exit(2);
  }
  console.log(writeSyntheticCatalog(values.out, Number(values.tasks), Number(values.files)));
}
