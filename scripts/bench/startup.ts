/**
 * Benchmark: cold start of `ssebench --help`, `ssebench tasks list` (the embedded manifest) and
 * `ssebench dataset validate datasets/demo` (validators compiled at build: no arktype on a valid
 * dataset) against a compiled hello-world built the same way (minify + bytecode + ESM), in the
 * same run; then `catalog serve` of the pilot catalog (../shared/conformance/pilot, else a
 * generated one of the same size) until it logs its start line, against the 150 ms goal.
 * Usage: bun scripts/bench/startup.ts [--runs N] [--pilot DIR]
 * Uses hyperfine when installed (`apt-get install -y hyperfine`), else its own repeated timing.
 * Prints the median and the fastest run of each and their ratios to hello-world (goal ≤ 3×); on a
 * loaded machine the fastest run is the better view of the start-up work itself.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { writeSyntheticCatalog } from "./synthetic-catalog.ts";

const { values } = parseArgs({ options: { runs: { type: "string", default: "40" }, pilot: { type: "string" } } });
const RUNS = Number(values.runs);
const bin = resolve(import.meta.dir, "../../dist/ssebench");
const tmp = mkdtempSync(join(tmpdir(), "ssebench-startup-"));

async function buildHello(): Promise<string> {
  const entry = join(tmp, "hello.ts");
  writeFileSync(entry, 'process.stdout.write("hello\\n");\n');
  const outfile = join(tmp, "hello");
  const result = await Bun.build({ entrypoints: [entry], compile: { outfile }, minify: true, bytecode: true, format: "esm" });
  if (!result.success) throw new Error("could not build hello-world");
  return outfile;
}

const hello = await buildHello();
const commands: [string, string[]][] = [
  ["hello-world (compiled)", [hello]],
  ["ssebench --version", [bin, "--version"]],
  ["ssebench --help", [bin, "--help"]],
];
const hasTasks = Bun.spawnSync([bin, "tasks", "list"], { stdout: "ignore", stderr: "ignore" }).exitCode === 0;
if (hasTasks) commands.push(["ssebench tasks list", [bin, "tasks", "list"]]);
else console.log("(ssebench tasks list is not available in this build; not measured)");
commands.push(["ssebench dataset validate demo", [bin, "dataset", "validate", resolve(import.meta.dir, "../../datasets/demo")]]);

interface Timing {
  median: number;
  min: number;
}

function hyperfineTimings(): Timing[] | undefined {
  if (Bun.spawnSync(["sh", "-c", "command -v hyperfine"]).exitCode !== 0) return undefined;
  const json = join(tmp, "hyperfine.json");
  const args = ["hyperfine", "-N", "--warmup", "5", "--runs", String(RUNS), "--export-json", json, "--style", "none"];
  for (const [, cmd] of commands) args.push(cmd.join(" "));
  const p = Bun.spawnSync(args, { stdout: "ignore", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`hyperfine failed: ${p.stderr.toString()}`);
  const results = JSON.parse(require("node:fs").readFileSync(json, "utf8")).results as { median: number; min: number }[];
  return results.map((r) => ({ median: r.median * 1000, min: r.min * 1000 }));
}

function ownTimings(): Timing[] {
  // Interleaved rounds, so load changes on the machine hit every command alike.
  const runs: number[][] = commands.map(() => []);
  for (let r = 0; r < RUNS + 5; r++) {
    commands.forEach(([, cmd], i) => {
      const started = performance.now();
      Bun.spawnSync(cmd, { stdout: "ignore", stderr: "ignore" });
      if (r >= 5) runs[i]?.push(performance.now() - started);
    });
  }
  return runs.map((xs) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return { median: sorted[Math.floor(sorted.length / 2)] as number, min: sorted[0] as number };
  });
}

const timings = hyperfineTimings() ?? ownTimings();
const base = timings[0] as Timing;
console.log(`${"command".padEnd(26)} ${"median".padStart(9)} ${"ratio".padStart(6)}  ${"fastest".padStart(9)} ${"ratio".padStart(6)}`);
commands.forEach(([name], i) => {
  const t = timings[i] as Timing;
  const ratio = (x: number, b: number) => (i === 0 ? "—" : `${(x / b).toFixed(2)}×`).padStart(6);
  console.log(`${name.padEnd(26)} ${t.median.toFixed(1).padStart(6)} ms ${ratio(t.median, base.median)}  ${t.min.toFixed(1).padStart(6)} ms ${ratio(t.min, base.min)}`);
});
console.log("goal: ssebench --help, tasks list and dataset validate ≤ 3× hello-world");

/** Spawn → the start line of `catalog serve` (it logs it once the socket listens). */
async function serveReady(manifest: string): Promise<number> {
  const started = performance.now();
  const proc = Bun.spawn([bin, "catalog", "serve", "--host", "127.0.0.1", "--port", "0", "--manifest", manifest], { stdout: "pipe", stderr: "pipe" });
  const decoder = new TextDecoder();
  let seen = "";
  const watch = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) {
      seen += decoder.decode(chunk);
      if (seen.includes("serving ")) return performance.now() - started;
    }
    return Number.POSITIVE_INFINITY;
  };
  const ms = await Promise.race([watch(proc.stdout), watch(proc.stderr)]);
  proc.kill("SIGTERM");
  await proc.exited;
  if (!Number.isFinite(ms)) throw new Error(`catalog serve did not start: ${seen}`);
  return ms;
}

const shared = resolve(import.meta.dir, "../../../shared/conformance/pilot");
const pilot = values.pilot ?? (existsSync(join(shared, "manifest.json")) ? shared : writeSyntheticCatalog(join(tmp, "pilot"), 55, 60));
const readyRuns: number[] = [];
for (let i = 0; i < 12; i++) readyRuns.push(await serveReady(pilot));
const ready = readyRuns.slice(2).sort((x, y) => x - y);
const readyMedian = ready[Math.floor(ready.length / 2)] as number;
console.log(`\ncatalog serve ${pilot}: ready (spawn → start line) median ${readyMedian.toFixed(0)} ms, fastest ${(ready[0] as number).toFixed(0)} ms, 10 runs after 2 warm-ups`);
console.log(`goal: ready ≤ 150 ms: ${(readyMedian / 150).toFixed(2)}× the goal (median), ${((ready[0] as number) / 150).toFixed(2)}× (fastest); hello-world's median start here: ${base.median.toFixed(0)} ms`);
rmSync(tmp, { recursive: true, force: true });
