/**
 * Benchmark: start-up of `ssebench --version`, `--help`, `tasks list` (the embedded manifest) and
 * `dataset validate datasets/demo` (validators compiled at build: no arktype on a valid dataset)
 * against a compiled hello-world built the same way (minify + bytecode + ESM), in the same run;
 * then `catalog serve` of the pilot catalog (../shared/conformance/pilot, else a generated one of
 * the same size) until it logs its start line, against the 150 ms goal.
 *   bun scripts/bench/startup.ts [--runs N] [--pilot DIR] [--bin PATH] [--no-serve]
 * --bin: the build to measure (default dist/ssebench); --before: another build (an older commit's)
 * measured in the same rounds, for a before/after under the same load; --no-serve: skip catalog serve.
 *
 * Measured from outside the process: a bash loop starts every command in turn (interleaved rounds,
 * so load changes hit all alike) and takes the wall time around each with $EPOCHREALTIME; Bun is
 * not in the timed path (spawning from Bun added about 10 ms to both sides). With perf (Debian
 * package linux-perf), `perf stat -e task-clock` also gives each command's CPU time, which the
 * machine's load disturbs less. Prints the median and the fastest wall time and the CPU time, and
 * their ratios to hello-world (goals: --help and tasks list ≤ 2×, dataset validate ≤ 3×).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { writeSyntheticCatalog } from "./synthetic-catalog.ts";

const { values } = parseArgs({ options: { runs: { type: "string", default: "40" }, pilot: { type: "string" }, bin: { type: "string" }, before: { type: "string" }, "no-serve": { type: "boolean" } } });
const RUNS = Number(values.runs);
const WARMUP = 5;
const bin = resolve(values.bin ?? resolve(import.meta.dir, "../../dist/ssebench"));
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
const commands: [string, string[], number | undefined][] = [
  ["hello-world (compiled)", [hello], undefined],
  ["ssebench --version", [bin, "--version"], undefined],
  ["ssebench --help", [bin, "--help"], 2],
  ["ssebench tasks list", [bin, "tasks", "list"], 2],
  ["ssebench dataset validate demo", [bin, "dataset", "validate", resolve(import.meta.dir, "../../datasets/demo")], 3],
];
if (values.before) {
  const before = resolve(values.before);
  for (const [name, cmd, goal] of commands.slice(1)) commands.push([`${name} (before)`, [before, ...cmd.slice(1)], goal]);
}
for (const [name, cmd] of commands) {
  if (Bun.spawnSync(cmd, { stdout: "ignore", stderr: "ignore" }).exitCode !== 0) throw new Error(`${name} fails: ${cmd.join(" ")}`);
}

const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;
const hasPerf = Bun.spawnSync(["sh", "-c", "perf stat -x, -e task-clock true"], { stdout: "ignore", stderr: "ignore" }).exitCode === 0;

/**
 * Per command, the wall time (ms) of each run and, with perf, the CPU time (task-clock: user +
 * system of every thread): bash runs the commands in interleaved rounds, times each with
 * $EPOCHREALTIME, and in the same round runs it once more under `perf stat`.
 */
function measure(): { wall: number[][]; cpu: number[][] } {
  const lines = ["set -e", `for r in $(seq ${WARMUP + RUNS}); do`];
  commands.forEach(([, cmd], i) => {
    const words = cmd.map(quote).join(" ");
    lines.push(`  s=$EPOCHREALTIME; ${words} >/dev/null 2>&1; e=$EPOCHREALTIME`);
    lines.push(`  [ "$r" -gt ${WARMUP} ] && echo "${i} $s $e"`);
    if (hasPerf) lines.push(`  [ "$r" -gt ${WARMUP} ] && perf stat -x, -e task-clock -o ${quote(join(tmp, `cpu.${i}`))} --append ${words} >/dev/null 2>&1`);
  });
  lines.push("done", "true");
  const script = join(tmp, "loop.sh");
  writeFileSync(script, `${lines.join("\n")}\n`);
  const p = Bun.spawnSync(["bash", script], { stdout: "pipe", stderr: "inherit" });
  if (p.exitCode !== 0) throw new Error("the timing loop failed");
  const wall: number[][] = commands.map(() => []);
  for (const line of p.stdout.toString().trim().split("\n")) {
    const [i, s, e] = line.split(" ");
    wall[Number(i)]?.push((Number(e) - Number(s)) * 1000);
  }
  const cpu = commands.map((_, i) =>
    hasPerf
      ? readFileSync(join(tmp, `cpu.${i}`), "utf8")
          .split("\n")
          .filter((l) => l.includes("task-clock"))
          .map((l) => Number(l.split(",")[0]))
      : [],
  );
  return { wall, cpu };
}

const median = (xs: number[]) => (xs.length === 0 ? undefined : ([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number));
const { wall, cpu } = measure();
const rows = commands.map(([name, , goal], i) => ({ name, goal, median: median(wall[i] ?? []), min: Math.min(...(wall[i] ?? [])), cpu: median(cpu[i] ?? []) }));
const base = rows[0]!;
const ratio = (x: number | undefined, b: number | undefined) => (x === undefined || b === undefined ? "—" : `${(x / b).toFixed(2)}×`);
const ms = (x: number | undefined) => (x === undefined ? "—" : `${x.toFixed(1)} ms`);
console.log(`${RUNS} runs each after ${WARMUP} warm-ups, timed from outside: wall by bash's $EPOCHREALTIME, CPU by perf stat's task-clock (median)`);
console.log(`${"command".padEnd(40)} ${"median".padStart(9)} ${"ratio".padStart(6)}  ${"fastest".padStart(9)} ${"ratio".padStart(6)}  ${"CPU".padStart(9)} ${"ratio".padStart(6)}  goal`);
rows.forEach((r, i) => {
  const rel = (x: number | undefined, b: number | undefined) => (i === 0 ? "—" : ratio(x, b)).padStart(6);
  const goal = r.goal === undefined ? "" : `≤ ${r.goal}×`;
  console.log(`${r.name.padEnd(40)} ${ms(r.median).padStart(9)} ${rel(r.median, base.median)}  ${ms(r.min).padStart(9)} ${rel(r.min, base.min)}  ${ms(r.cpu).padStart(9)} ${rel(r.cpu, base.cpu)}  ${goal}`);
});
const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
console.log(`load average at the end: ${load} (on a loaded machine the fastest run and the CPU time are the better view)`);

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

if (values["no-serve"]) {
  rmSync(tmp, { recursive: true, force: true });
  process.exit(0);
}
const shared = resolve(import.meta.dir, "../../../shared/conformance/pilot");
const pilot = values.pilot ?? (existsSync(join(shared, "manifest.json")) ? shared : writeSyntheticCatalog(join(tmp, "pilot"), 55, 60));
const readyRuns: number[] = [];
for (let i = 0; i < 12; i++) readyRuns.push(await serveReady(pilot));
const ready = readyRuns.slice(2).sort((x, y) => x - y);
const readyMedian = ready[Math.floor(ready.length / 2)] as number;
console.log(`\ncatalog serve ${pilot}: ready (spawn → start line) median ${readyMedian.toFixed(0)} ms, fastest ${(ready[0] as number).toFixed(0)} ms, 10 runs after 2 warm-ups`);
console.log(`goal: ready ≤ 150 ms: ${(readyMedian / 150).toFixed(2)}× the goal (median), ${((ready[0] as number) / 150).toFixed(2)}× (fastest); hello-world's median start here: ${ms(base.median)}`);
rmSync(tmp, { recursive: true, force: true });
