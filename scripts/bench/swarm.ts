/**
 * The swarm backend's cost per trial against the local backend, measured in the same run: the same
 * trial (dummy on htmlesc-quote-overflow, --cpus 1, layers and node images warm) as `ssebench run`
 * locally and with --backend swarm, taking turns; the difference of the medians is the per-trial
 * overhead (goal ≤ 2 s). Then a job of 6 trials with no constraint, counted per node from each
 * node engine's own events (do trials spread over both nodes?), and the cost of bringing one agent
 * layer to a node that lacks it (`docker save | docker load`), the registry's stand-in.
 * Needs the shared engine with the base images, the test swarm (setup/swarm-two-node.sh start;
 * eval "$(bash setup/swarm-two-node.sh env)"), and a build.
 * Usage: bun scripts/bench/swarm.ts   (BENCH_ROUNDS=N, default 5; BENCH_ONLY_OVERHEAD=1: the first part
 * only; BENCH_NO_LOAD=1: without the last part)
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const repo = join(import.meta.dir, "../..");
const bin = join(repo, "dist", "ssebench");
const demo = join(repo, "datasets", "demo");
const task = "htmlesc-quote-overflow";
const results = mkdtempSync(join(tmpdir(), "ssebench-bench-swarm-"));
const manager = process.env.SSEBENCH_SWARM_HOST;
const nodes = new Map((process.env.SSEBENCH_SWARM_NODES ?? "").split(",").filter(Boolean).map((p) => p.split("=") as [string, string]));
if (!manager || nodes.size < 2) {
  console.error('bench-swarm: start the test swarm and eval "$(bash setup/swarm-two-node.sh env)" first');
  process.exit(2);
}

function docker(host: string | undefined, args: string[]): string {
  const r = Bun.spawnSync(["docker", ...args], { env: { ...process.env, ...(host ? { DOCKER_HOST: host } : {}) }, stdout: "pipe", stderr: "pipe" });
  return r.stdout.toString().trim();
}

interface Timed {
  ms: number;
  timings: Record<string, number>;
}

function run(args: string[]): Timed {
  const started = performance.now();
  const r = Bun.spawnSync([bin, "run", "--local", demo, "--results", results, "--cpus", "1", "--memory", "2g", ...args], { stdout: "pipe", stderr: "pipe" });
  const ms = performance.now() - started;
  if (r.exitCode !== 0) throw new Error(`ssebench run ${args.join(" ")}: exit ${r.exitCode}\n${r.stdout}\n${r.stderr}`);
  const runDir = /Run directory: (.*)/.exec(r.stdout.toString())?.[1];
  const timings = runDir ? (JSON.parse(readFileSync(join(runDir, "summary.json"), "utf8")).timings_ms as Record<string, number>) : {};
  return { ms, timings };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

try {
  const one = ["--task", task, "--agent", "dummy"];
  const modes: Record<string, string[]> = { local: one, swarm: [...one, "--backend", "swarm", "--constraint", "node.labels.ssebench.role==runner"] };
  // Warm-up: layers built, the agent layer loaded into both nodes.
  for (const args of Object.values(modes)) run(args);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
  const times: Record<string, Timed[]> = { local: [], swarm: [] };
  for (let r = 0; r < rounds; r++) for (const name of r % 2 ? ["swarm", "local"] : ["local", "swarm"]) times[name]?.push(run(modes[name] as string[]));
  const med = (name: string, key?: string) => median((times[name] as Timed[]).map((t) => (key ? (t.timings[key] ?? 0) : t.ms)));
  const [local, swarm] = [med("local"), med("swarm")];
  console.log(`one trial (dummy on ${task}, --cpus 1), median of ${rounds} rounds`);
  console.log(`local  ${s(local)} (baseline)   container ${s(med("local", "docker_run"))}, teardown ${s(med("local", "teardown"))}`);
  console.log(`swarm  ${s(swarm)} (${(swarm / local).toFixed(2)}x)   container ${s(med("swarm", "docker_run"))}, teardown ${s(med("swarm", "teardown"))}`);
  console.log(`per-trial overhead of the swarm backend: ${s(swarm - local)} (goal ≤ 2 s)`);
  for (const name of ["local", "swarm"]) console.log(`  ${name}: ${(times[name] as Timed[]).map((t) => s(t.ms)).join(", ")}`);

  if (process.env.BENCH_ONLY_OVERHEAD !== "1") {
    // Spread: 6 trials, 2 at once, no constraint; each node's engine says which run IDs it started.
    const since = new Date().toISOString();
    const jobStarted = performance.now();
    const job = Bun.spawnSync([bin, "run", "--local", demo, "--results", results, "--cpus", "1", "--memory", "2g", "--task", task, "--agent", "dummy", "--attempts", "6", "--jobs", "2", "--job", "bench-spread", "--backend", "swarm"], { stdout: "pipe", stderr: "pipe" });
    const jobMs = performance.now() - jobStarted;
    if (job.exitCode !== 0) throw new Error(`spread job: exit ${job.exitCode}\n${job.stdout}\n${job.stderr}`);
    const perNode = [...nodes].map(([id, host]) => {
      const label = docker(manager, ["node", "inspect", "--format", '{{index .Spec.Labels "ssebench.node"}}', id]) || id.slice(0, 8);
      const started = docker(host, ["events", "--since", since, "--until", new Date().toISOString(), "--filter", "type=container", "--filter", "event=start", "--filter", "label=ssebench.task-id", "--format", "x"]);
      return `${label} ${started.split("\n").filter(Boolean).length}`;
    });
    console.log(`job of 6 trials, --jobs 2, no constraint: ${s(jobMs)}; trials per node: ${perNode.join(", ")}`);

    if (process.env.BENCH_NO_LOAD !== "1") {
      // An agent layer to a node that lacks it: the manager's copy is removed (its engine is the test swarm's own).
      const [mgrId, mgrHost] = [...nodes].find(([id]) => docker(manager, ["node", "inspect", "--format", "{{.Spec.Role}}", id]) === "manager") as [string, string];
      const image = docker(undefined, ["image", "inspect", "--format", "{{.Id}}", `ghcr.io/42-b3yond-6ug/ssebench/agent-dummy/${task}:1.0.0`]);
      const bytes = Number(docker(undefined, ["image", "inspect", "--format", "{{.Size}}", image]));
      docker(mgrHost, ["image", "rm", "--force", image]);
      const loadStarted = performance.now();
      const load = Bun.spawnSync(["sh", "-c", `docker save ${image} | DOCKER_HOST=${mgrHost} docker load --quiet`], { stdout: "pipe", stderr: "pipe" });
      const loadMs = performance.now() - loadStarted;
      if (load.exitCode !== 0) throw new Error(`save | load: ${load.stderr}`);
      console.log(`agent layer (${(bytes / 1e9).toFixed(2)} GB with its bases) into node ${mgrId.slice(0, 8)} after removing it there: ${s(loadMs)}`);
    }
    const runDirs = readdirSync(join(results, task, "none", "dummy")).filter((d) => d !== "latest");
    console.log(`(${runDirs.length} run folders written)`);
  }
} finally {
  rmSync(results, { recursive: true, force: true });
}
