/**
 * Wall time of a 12-trial job (the C and Rust demo tasks × {reference, dummy} × 3 attempts) at
 * --jobs 1 and --jobs 2, against the same 12 trials as separate `ssebench run` calls one after
 * another (the baseline, measured in the same run). Layers are built once beforehand, so every
 * mode measures runs, not builds. Needs the engine and the base images; build first.
 * Usage: bun scripts/bench-jobs.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const repo = join(import.meta.dir, "..");
const bin = join(repo, "dist", "ssebench");
const demo = join(repo, "datasets", "demo");
const tasks = ["htmlesc-quote-overflow", "fixedbuf-extend-overflow"];
const agents = ["reference", "dummy"];
const attempts = 3;
const results = mkdtempSync(join(tmpdir(), "ssebench-bench-jobs-"));

function run(args: string[]): number {
  const started = performance.now();
  const r = Bun.spawnSync([bin, "run", "--local", demo, "--results", results, ...args], { stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`ssebench run ${args.join(" ")}: exit ${r.exitCode}\n${r.stdout}\n${r.stderr}`);
  return performance.now() - started;
}

try {
  for (const task of tasks) for (const agent of agents) run(["--task", task, "--agent", agent]);
  const matrix = [...tasks.flatMap((t) => ["--task", t]), ...agents.flatMap((a) => ["--agent", a]), "--attempts", String(attempts)];
  const loop = () => {
    let total = 0;
    for (let a = 0; a < attempts; a++) for (const task of tasks) for (const agent of agents) total += run(["--task", task, "--agent", agent]);
    return total;
  };
  let job = 0;
  const modes: Record<string, () => number> = {
    loop,
    "jobs 1": () => run([...matrix, "--jobs", "1", "--job", `bench-${++job}`]),
    "jobs 2": () => run([...matrix, "--jobs", "2", "--job", `bench-${++job}`]),
  };
  // The machine is shared: the modes take turns, in a rotating order, and the median of the rounds counts.
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const times: Record<string, number[]> = { loop: [], "jobs 1": [], "jobs 2": [] };
  const names = Object.keys(modes);
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + r) % names.length] as string;
      times[name]?.push((modes[name] as () => number)());
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  const [l, one, two] = names.map((n) => median(times[n] as number[])) as [number, number, number];
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log(`12 trials (${tasks.join(", ")} × ${agents.join(", ")} × ${attempts}), median of ${rounds} rounds`);
  console.log(`12 separate ssebench run calls  ${s(l)} (baseline)`);
  console.log(`job --jobs 1                    ${s(one)} (${(one / l).toFixed(2)}x baseline)`);
  console.log(`job --jobs 2                    ${s(two)} (${(two / l).toFixed(2)}x baseline; --jobs 1 / --jobs 2 = ${(one / two).toFixed(2)})`);
  for (const n of names) console.log(`  ${n}: ${(times[n] as number[]).map(s).join(", ")}`);
} finally {
  rmSync(results, { recursive: true, force: true });
}
