/**
 * Benchmark: `ssebench dataset manifest` on a generated dataset of 2,000 tasks × 20 files,
 * against `find DIR -type f -print0 | xargs -0 sha256sum` over the same tree in the same run.
 * Usage: bun scripts/bench/manifest.ts [--tasks N] [--runs N] [--keep]
 * Prints the median of each and the ratio (goal ≤ 1.3×). Page cache is warmed first, so both
 * sides measure hashing and file-system work, not the disk.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: { tasks: { type: "string", default: "2000" }, runs: { type: "string", default: "5" }, keep: { type: "boolean" } },
});
const TASKS = Number(values.tasks);
const RUNS = Number(values.runs);
const bin = resolve(import.meta.dir, "../../dist/ssebench");

/** Deterministic pseudo-random bytes (xorshift), so every run hashes the same tree. */
function bytes(size: number, seed: number): Uint8Array {
  const out = new Uint8Array(size);
  let x = seed | 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = 32 + (x & 63);
  }
  return out;
}

let totalBytes = 0;

function writeTask(root: string, i: number): void {
  const id = `task-${String(i).padStart(4, "0")}`;
  const dir = join(root, id);
  const files: Record<string, string | Uint8Array> = {
    Dockerfile: "ARG SSEBENCH_REGISTRY=registry.test\nFROM ${SSEBENCH_REGISTRY}/base-generic-c:1.0.0\nCOPY src /src\nCOPY sse/ /ssebench/\n",
    "sse/config.yaml": `id: ${id}\nproject: p${i}\nrepository: https://example.org/p${i}.git\nlanguage: c\nsource: /src\ntask_description:\n  issue: "Crash ${i}."\nscripts:\n  build: build.sh\n  run: run.sh\n  test: test.sh\nfiles:\n  patch: diffs/patch.diff\n  future_test: diffs/test.diff\n  poc:\n    - pocs/poc.bin\n`,
    "sse/build.sh": "#!/bin/sh\nmake\n",
    "sse/run.sh": '#!/bin/sh\n./main "$1"\n',
    "sse/test.sh": "#!/bin/sh\nmake test\n",
    "sse/diffs/patch.diff": bytes(3000, i * 7 + 1),
    "sse/diffs/test.diff": bytes(5000, i * 7 + 2),
    "sse/pocs/poc.bin": bytes(512, i * 7 + 3),
    "sse/reports/issue.md": bytes(2000, i * 7 + 4),
  };
  // Source files: mostly a few KB, one larger file per task (typical of vendored sources).
  for (let f = 0; Object.keys(files).length < 20; f++) files[`src/lib/file${f}.c`] = bytes(f === 0 ? 64 * 1024 : 1500 + 700 * f, i * 131 + f);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), content);
    totalBytes += typeof content === "string" ? Buffer.byteLength(content) : content.length;
  }
}

function time(cmd: string[]): number {
  const started = performance.now();
  const p = Bun.spawnSync(cmd, { stdout: "ignore", stderr: "pipe" });
  const ms = performance.now() - started;
  if (p.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed: ${p.stderr.toString()}`);
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

const root = join(mkdtempSync(join(tmpdir(), "ssebench-bench-")), "bench");
mkdirSync(root);
writeFileSync(join(root, "dataset.yaml"), "version: bench-v1\n");
console.log(`generating ${TASKS} tasks × 20 files in ${root} …`);
for (let i = 0; i < TASKS; i++) writeTask(root, i);
console.log(`${TASKS * 20} files, ${(totalBytes / 1024 / 1024).toFixed(0)} MiB`);

const ours = [bin, "dataset", "manifest", root, "-o", "/dev/null"];
const baseline = ["sh", "-c", `find '${root}' -type f -print0 | xargs -0 sha256sum > /dev/null`];
time(baseline); // warm the page cache
time(ours);
const a: number[] = [];
const b: number[] = [];
for (let r = 0; r < RUNS; r++) {
  b.push(time(baseline));
  a.push(time(ours));
}
const [mine, theirs] = [median(a), median(b)];
console.log(`find | xargs sha256sum: median ${theirs.toFixed(0)} ms  (runs: ${b.map((x) => x.toFixed(0)).join(", ")})`);
console.log(`ssebench dataset manifest: median ${mine.toFixed(0)} ms  (runs: ${a.map((x) => x.toFixed(0)).join(", ")})`);
console.log(`ratio: ${(mine / theirs).toFixed(2)}× (goal ≤ 1.3×)`);
if (!values.keep) rmSync(join(root, ".."), { recursive: true, force: true });
else console.log(`kept ${root}`);
