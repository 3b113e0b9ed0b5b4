/**
 * Entrypoint overhead, as root (it switches uids): bun scripts/bench/entrypoint.ts [--runs N]
 *
 * 1. start → agent exec: the agent writes a realtime timestamp; compared with spawning the same
 *    agent directly from this script (baseline, same run).
 * 2. whole run with a no-op agent and no-op build/run/test scripts, minus the baseline cost of
 *    spawning those same processes directly: what the entrypoint itself adds.
 *    A bare start of the compiled binary (`--version`) followed by the agent is the floor.
 * 3. start → agent exec when the image did not run `prepare` (git squash + pristine copy in the run).
 * Needs dist/ssebench-entrypoint (bun run build) and the users model and sse-runner.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { runs: { type: "string", default: "15" } } });
const runs = Number(values.runs);
const bin = resolve(import.meta.dir, "../../dist/ssebench-entrypoint");
const base = mkdtempSync(join(tmpdir(), "sse-bench-"));
chmodSync(base, 0o755);
const d = (p: string) => join(base, p);

// A task whose scripts do nothing, a one-file source, no plugins.
mkdirSync(d("task/scripts"), { recursive: true });
mkdirSync(d("src"));
writeFileSync(d("src/main.c"), "int main(void) { return 0; }\n");
writeFileSync(d("task/poc"), "x");
for (const s of ["build", "run", "test"]) writeFileSync(d(`task/scripts/${s}.sh`), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
writeFileSync(
  d("task/config.yaml"),
  "id: bench\nproject: bench\nrepository: https://example.org/b\nlanguage: c\nsource: /src/bench\ntask_description: {issue: none}\nscripts: {build: scripts/build.sh, run: scripts/run.sh, test: scripts/test.sh}\nfiles: {poc: [poc]}\n",
);
mkdirSync(d("plugins"));
const stamp = d("stamp");
writeFileSync(stamp, "");
chmodSync(stamp, 0o666);

const envFor = (i: number, work = d("work")): Record<string, string> => {
  mkdirSync(d(`runs/${i}/out/results`), { recursive: true });
  mkdirSync(d(`runs/${i}/archive`), { recursive: true });
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    SSE_ARCHIVE: d(`runs/${i}/archive`),
    SSE_RESULTS: d(`runs/${i}/out/results`),
    SSE_TASK_ROOT: d("task"),
    SSE_PLUGINS_DIR: d("plugins"),
    SSE_SOURCE: d("src"),
    SSE_WORK: work,
    SSE_TOOL_PORT: "0",
    TIMEOUT: "60",
  };
};
const nowNs = () => BigInt(Math.round((performance.timeOrigin + performance.now()) * 1e6));
const cpuStamp = d("stamp.cpu");
writeFileSync(cpuStamp, "");
chmodSync(cpuStamp, 0o666);
// The agent also records its parent's CPU time so far (/proc/PPID/stat utime+stime, in ticks):
// contention stretches wall time, not the CPU the entrypoint needs.
const stampAgent = ["/bin/sh", "-c", `date +%s%N > ${stamp}; cat /proc/$PPID/stat > ${cpuStamp}`];
const clockTicks = Number(Bun.spawnSync(["getconf", "CLK_TCK"]).stdout.toString().trim()) || 100;
const parentCpuMs = () => {
  const fields = readFileSync(cpuStamp, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks; // utime, stime (fields 14, 15)
};

async function timeToExec(argv: string[], env: Record<string, string>): Promise<{ execMs: number; totalMs: number }> {
  const t0 = nowNs();
  const proc = Bun.spawn(argv, { env, stdout: "ignore", stderr: "inherit" });
  const code = await proc.exited;
  const totalMs = Number(nowNs() - t0) / 1e6;
  if (code !== 0) throw new Error(`${argv.join(" ")} exited ${code}`);
  return { execMs: Number(BigInt(readFileSync(stamp, "utf8").trim()) - t0) / 1e6, totalMs };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.9))]!;
const fmt = (xs: number[]) => `min ${Math.min(...xs).toFixed(1)}, median ${median(xs).toFixed(1)}, p90 ${p90(xs).toFixed(1)} ms`;

// Prepared once, as the tool layer does at image build.
let r = Bun.spawnSync([bin, "prepare"], { env: envFor(0), stdout: "ignore", stderr: "inherit" });
if (r.exitCode !== 0) throw new Error("prepare failed");

const bunFloor: number[] = [];
const direct: number[] = [];
const viaEntrypoint: number[] = [];
const cpuToExec: number[] = [];
const wholeRun: number[] = [];
const noopSpawns: number[] = [];
const unprepared: number[] = [];
for (let i = 1; i <= runs; i++) {
  direct.push((await timeToExec(stampAgent, { PATH: "/usr/bin:/bin" })).execMs);
  bunFloor.push((await timeToExec(["/bin/sh", "-c", `${bin} --version >/dev/null; date +%s%N > ${stamp}`], { PATH: "/usr/bin:/bin" })).execMs);
  const e = await timeToExec([bin, "--", ...stampAgent], envFor(i));
  viaEntrypoint.push(e.execMs);
  cpuToExec.push(parentCpuMs());
  // The processes a run must start anyway: agent, build, one PoC, function test.
  const t0 = performance.now();
  for (let k = 0; k < 4; k++) await Bun.spawn(["/bin/sh", "-c", "exit 0"], { stdout: "ignore" }).exited;
  noopSpawns.push(performance.now() - t0);
  wholeRun.push((await timeToExec([bin, "--", ...stampAgent], envFor(runs + i))).totalMs);
  if (i <= Math.min(5, runs)) {
    rmSync(d(`work-fresh`), { recursive: true, force: true });
    Bun.spawnSync(["rm", "-rf", d("src/.git")]);
    unprepared.push((await timeToExec([bin, "--", ...stampAgent], envFor(2 * runs + i, d("work-fresh")))).execMs);
  }
}

const overhead = viaEntrypoint.map((v, i) => v - direct[i]!);
const runOverhead = wholeRun.map((v, i) => v - noopSpawns[i]!);
console.log(`ssebench-entrypoint overhead, ${runs} runs (machine: ${navigator.hardwareConcurrency} vCPU)`);
console.log(`start → agent exec, direct spawn (baseline):   ${fmt(direct)}`);
console.log(`  + a bare start of the compiled Bun binary:    ${fmt(bunFloor)}  (--version, then the agent: the floor)`);
console.log(`start → agent exec, through the entrypoint:    ${fmt(viaEntrypoint)}  (${(median(viaEntrypoint) / median(direct)).toFixed(1)}× baseline; goal ≤ 50 ms)`);
console.log(`  minus the direct spawn:                      ${fmt(overhead)}`);
console.log(`  CPU the entrypoint used before the exec:     ${fmt(cpuToExec)}  (user+sys, ${1000 / clockTicks} ms ticks)`);
console.log(`whole no-op run (agent + build + PoC + test):  ${fmt(wholeRun)}`);
console.log(`  the same 4 no-op processes spawned directly: ${fmt(noopSpawns)}`);
console.log(`  minus the same processes spawned directly:   ${fmt(runOverhead)}  (${(median(wholeRun) / median(noopSpawns)).toFixed(1)}× baseline)`);
console.log(`start → agent exec without prepare (git squash + copy in the run): ${fmt(unprepared)}`);
rmSync(base, { recursive: true, force: true });
