/**
 * Benchmark: cold start of `ssebench --help` and `ssebench tasks list` (the embedded manifest)
 * against a compiled hello-world built the same way (minify + bytecode + ESM), in the same run.
 * Usage: bun scripts/bench-startup.ts [--runs N]
 * Uses hyperfine when installed (`apt-get install -y hyperfine`), else its own repeated timing.
 * Prints the mean of each and the ratio to hello-world (goal ≤ 3×).
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

function hyperfineMeans(): number[] | undefined {
  if (Bun.spawnSync(["sh", "-c", "command -v hyperfine"]).exitCode !== 0) return undefined;
  const json = join(tmp, "hyperfine.json");
  const args = ["hyperfine", "-N", "--warmup", "5", "--runs", String(RUNS), "--export-json", json, "--style", "none"];
  for (const [, cmd] of commands) args.push(cmd.join(" "));
  const p = Bun.spawnSync(args, { stdout: "ignore", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`hyperfine failed: ${p.stderr.toString()}`);
  const results = JSON.parse(require("node:fs").readFileSync(json, "utf8")).results as { mean: number }[];
  return results.map((r) => r.mean * 1000);
}

function ownMeans(): number[] {
  // Interleaved rounds, so load changes on the machine hit every command alike.
  const sums = commands.map(() => 0);
  for (let r = 0; r < RUNS + 5; r++) {
    commands.forEach(([, cmd], i) => {
      const started = performance.now();
      Bun.spawnSync(cmd, { stdout: "ignore", stderr: "ignore" });
      if (r >= 5) sums[i] = (sums[i] as number) + performance.now() - started;
    });
  }
  return sums.map((s) => s / RUNS);
}

const means = hyperfineMeans() ?? ownMeans();
const base = means[0] as number;
commands.forEach(([name], i) => {
  const mean = means[i] as number;
  console.log(`${name.padEnd(26)} ${mean.toFixed(1).padStart(7)} ms   ${i === 0 ? "baseline" : `${(mean / base).toFixed(2)}×`}`);
});
console.log("goal: ssebench --help and tasks list ≤ 3× hello-world");
rmSync(tmp, { recursive: true, force: true });
