/**
 * Wall time of a 12-trial job (the C and Rust demo tasks × {reference, dummy} × 3 attempts) at
 * --jobs 1 and --jobs 2, against the same 12 trials as separate `ssebench run` calls one after
 * another (the baseline, measured in the same run). Layers are built once beforehand, so every
 * mode measures runs, not builds. The job also runs at --jobs 1 and 2 with each trial limited to
 * --cpus 1: with the default --cpus 2 on a 2-core host two trials at once share the same cores, so
 * only this pair shows how the job scales in --jobs up to the host's cores.
 * Needs the engine and the base images; build first.
 * Usage: bun scripts/bench/jobs.ts   (BENCH_ROUNDS=N, default 3; BENCH_MODES=a,b to run some modes only)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const repo = join(import.meta.dir, "../..");
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
    "jobs 1 cpus 1": () => run([...matrix, "--cpus", "1", "--jobs", "1", "--job", `bench-${++job}`]),
    "jobs 2 cpus 1": () => run([...matrix, "--cpus", "1", "--jobs", "2", "--job", `bench-${++job}`]),
  };
  // The machine is shared: the modes take turns, in a rotating order, and the median of the rounds counts.
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const names = process.env.BENCH_MODES ? process.env.BENCH_MODES.split(",") : Object.keys(modes);
  for (const n of names) if (!modes[n]) throw new Error(`BENCH_MODES: unknown mode '${n}' (${Object.keys(modes).join(", ")})`);
  const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + r) % names.length] as string;
      times[name]?.push((modes[name] as () => number)());
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  const m = (n: string) => (times[n]?.length ? median(times[n]) : undefined);
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const l = m("loop");
  const vsLoop = (ms: number) => (l === undefined ? "" : ` (${(ms / l).toFixed(2)}x baseline)`);
  const speedUp = (one: string, two: string) => {
    const [a, b] = [m(one), m(two)];
    return a === undefined || b === undefined ? "" : `; ${one} / ${two} = ${(a / b).toFixed(2)}`;
  };
  const lines: Record<string, (ms: number) => string> = {
    loop: (ms) => `12 separate ssebench run calls        ${s(ms)} (baseline)`,
    "jobs 1": (ms) => `job --jobs 1                          ${s(ms)}${vsLoop(ms)}`,
    "jobs 2": (ms) => `job --jobs 2                          ${s(ms)}${vsLoop(ms)}${speedUp("jobs 1", "jobs 2")}`,
    "jobs 1 cpus 1": (ms) => `job --jobs 1, each trial --cpus 1     ${s(ms)}${vsLoop(ms)}`,
    "jobs 2 cpus 1": (ms) => `job --jobs 2, each trial --cpus 1     ${s(ms)}${vsLoop(ms)}${speedUp("jobs 1 cpus 1", "jobs 2 cpus 1")}`,
  };
  console.log(`12 trials (${tasks.join(", ")} × ${agents.join(", ")} × ${attempts}), median of ${rounds} rounds`);
  for (const n of names) console.log((lines[n] as (ms: number) => string)(m(n) as number));
  for (const n of names) console.log(`  ${n}: ${(times[n] as number[]).map(s).join(", ")}`);
} finally {
  rmSync(results, { recursive: true, force: true });
}
