/**
 * Benchmark: `ssebench tasks list --catalog FILE` on a generated manifest of --tasks tasks × 60
 * files (with an images lock beside it pinning every task, so every task's files digest is checked)
 * against Python's `json.load` of the same file, interleaved in the same run after one warm-up each.
 *
 *   bun run build && bun scripts/bench/tasks-list.ts [--tasks 10000] [--runs 7]
 *
 * Prints the median wall time of each, the ratio (goal ≤ 1×), the same for the CPU time each used
 * (user + system: on a shared machine steadier than the wall time), and ssebench's peak resident
 * memory (GNU time's %M; Debian package time) against the file's size (goal ≤ 3×).
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { writeSyntheticCatalog } from "./synthetic-catalog.ts";

const { values } = parseArgs({ options: { tasks: { type: "string", default: "10000" }, runs: { type: "string", default: "7" } } });
const bin = resolve(import.meta.dir, "../../dist/ssebench");
const work = mkdtempSync(join(tmpdir(), "bench-tasks-list-"));
const manifest = writeSyntheticCatalog(work, Number(values.tasks), 60);
const size = statSync(manifest).size;
// The interpreter itself, not a version manager's shell shim in front of it.
const python = Bun.spawnSync(["python3", "-c", "import sys; print(sys.executable)"]).stdout.toString().trim() || "python3";

interface Run {
  ms: number;
  cpuMs: number;
  maxRssMb: number;
}

// GNU time reports the command's own peak RSS (the spawn's rusage is the maximum over every child so far).
const TIME = "/usr/bin/time";

function run(cmd: string[]): Run {
  const started = performance.now();
  const p = Bun.spawnSync([TIME, "-f", "maxrss-kb %M cpu-s %U %S", ...cmd], { stdout: "ignore", stderr: "pipe" });
  const ms = performance.now() - started;
  const stderr = p.stderr.toString();
  if (p.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed: ${stderr}`);
  const cpu = /cpu-s ([\d.]+) ([\d.]+)/.exec(stderr);
  const cpuMs = cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : Number.NaN;
  return { ms, cpuMs, maxRssMb: Number(/maxrss-kb (\d+)/.exec(stderr)?.[1] ?? Number.NaN) / 1024 };
}

const ours = [bin, "tasks", "list", "--catalog", manifest];
const theirs = [python, "-c", "import json, sys; json.load(open(sys.argv[1], encoding='utf-8'))", manifest];
run(ours);
run(theirs);
const a: Run[] = [];
const b: Run[] = [];
for (let i = 0; i < Number(values.runs); i++) {
  b.push(run(theirs));
  a.push(run(ours));
}
rmSync(work, { recursive: true, force: true });

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] as number;
const [mine, base] = [median(a.map((r) => r.ms)), median(b.map((r) => r.ms))];
const [myCpu, baseCpu] = [median(a.map((r) => r.cpuMs)), median(b.map((r) => r.cpuMs))];
const peak = Math.max(...a.map((r) => r.maxRssMb));
const fileMb = size / 1024 / 1024;
const list = (rs: Run[]) => rs.map((r) => r.ms.toFixed(0)).join(", ");
console.log(`${values.tasks} tasks × 60 files, manifest ${fileMb.toFixed(1)} MB, images lock beside it; ${values.runs} interleaved runs`);
console.log(`python json.load:            median ${base.toFixed(0)} ms  (runs: ${list(b)}; peak RSS ${Math.max(...b.map((r) => r.maxRssMb)).toFixed(0)} MB)`);
console.log(`ssebench tasks list --catalog: median ${mine.toFixed(0)} ms  (runs: ${list(a)}; peak RSS ${peak.toFixed(0)} MB)`);
console.log(`CPU (user+sys), median: python ${baseCpu.toFixed(0)} ms, ssebench ${myCpu.toFixed(0)} ms: ${(myCpu / baseCpu).toFixed(2)}× (10 ms ticks)`);
console.log(`goal: time ≤ 1× python json.load: ${(mine / base).toFixed(2)}×${mine <= base ? "" : "  NOT met"}`);
console.log(`goal: peak RSS ≤ 3× the file size: ${(peak / fileMb).toFixed(2)}× (${(peak / fileMb / 3).toFixed(2)}× the goal)${peak <= 3 * fileMb ? "" : "  NOT met"}`);
