/**
 * Benchmark: cold start of `ssebench --help` and `ssebench tasks list` (the embedded manifest)
 * against a compiled hello-world built the same way (minify + bytecode + ESM), in the same run.
 * Usage: bun scripts/bench-startup.ts [--runs N]
 * Uses hyperfine when installed (`apt-get install -y hyperfine`), else its own repeated timing.
 * Prints the median and the fastest run of each and their ratios to hello-world (goal ≤ 3×); on a
 * loaded machine the fastest run is the better view of the start-up work itself.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { runs: { type: "string", default: "40" } } });
const RUNS = Number(values.runs);
const bin = resolve(import.meta.dir, "../dist/ssebench");
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
console.log("goal: ssebench --help and tasks list ≤ 3× hello-world");
rmSync(tmp, { recursive: true, force: true });
