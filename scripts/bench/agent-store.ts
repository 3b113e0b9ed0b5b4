/**
 * Agent stores (docs/images.md "Agent stores", issue 29 item 5), on the real engine, against a build
 * from before them (its agent layer copies the CLI onto each task's tool layer) in the same run:
 * 1. disk: every agent of AGENTS on every task of TASKS with this build (a scripted model that
 *    gives up at once), then what the agents take on the engine — each task's agent layer's own
 *    bytes, the stores, the markers (`ssebench images --json`) — against one copy of each CLI (the
 *    agent layer the old build makes on one task: its unique size is the CLI once);
 * 2. start-up: claude-code on the first task, cached, old and new builds interleaved: the command's
 *    start to the container's (docker's StartedAt), median of N each, and the difference.
 * Each build gets image names of its own (SSEBENCH_REGISTRY), so neither rebuilds the other's layers.
 *
 *   bun scripts/bench/agent-store.ts --before CHECKOUT [--runs N] [--agents a,b,c] [--tasks t1,t2,t3]
 * CHECKOUT: a checkout of the old commit with `bun run build` done in it (its dist/ and agents/).
 * Needs the engine and the demo base images; removes the image names it made, keeps the stores.
 */
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_REGISTRY } from "../../src/formats/patterns.ts";
import { baseImages } from "../../src/run/layers/case-image.ts";

const { values } = parseArgs({ options: { before: { type: "string" }, runs: { type: "string" }, agents: { type: "string" }, tasks: { type: "string" } } });
if (!values.before) throw new Error("--before CHECKOUT: a checkout of a commit before the agent stores, built (bun run build)");
const RUNS = Number(values.runs ?? 3);
const AGENTS = (values.agents ?? "claude-code,codex,opencode").split(",");
const TASKS = (values.tasks ?? "htmlesc-quote-overflow,fixedbuf-extend-overflow,staticfs-encoded-traversal").split(",");
const repo = resolve(import.meta.dir, "../..");
const tmp = mkdtempSync(join(tmpdir(), "ssebench-bench-store-"));
const demo = join(repo, "datasets", "demo");
const MB = 1e6;

interface Build {
  name: string;
  bin: string;
  home: string;
  registry: string;
}

/** A snapshot of a checkout's two binaries and a home of its own with the test models (scripted-give-up). */
function build(name: string, checkout: string): Build {
  const bin = join(tmp, name, "bin");
  mkdirSync(bin, { recursive: true });
  for (const f of ["ssebench", "ssebench-entrypoint"]) {
    copyFileSync(join(checkout, "dist", f), join(bin, f));
    chmodSync(join(bin, f), 0o755);
  }
  const home = join(tmp, name, "home");
  mkdirSync(join(home, "models"), { recursive: true });
  for (const n of ["images", "runtime", "datasets", "agents"]) symlinkSync(join(checkout, n), join(home, n));
  const fixtures = join(repo, "test", "e2e", "fixtures", "agent-models");
  for (const f of readdirSync(join(checkout, "models"))) symlinkSync(join(checkout, "models", f), join(home, "models", f));
  for (const f of readdirSync(fixtures).filter((f) => f.endsWith(".yaml"))) symlinkSync(join(fixtures, f), join(home, "models", f));
  symlinkSync(join(fixtures, "fixture-scripts"), join(home, "models", "fixture-scripts"));
  return { name, bin: join(bin, "ssebench"), home, registry: `bench-${name}.invalid/ssebench` };
}

const docker = (args: string[]) => {
  const r = Bun.spawnSync(["docker", ...args], { stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`docker ${args.join(" ")}: ${r.stderr.toString().trim()}`);
  return r.stdout.toString().trim();
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
let n = 0;

/** One run (the scripted model gives up at once); its start-up: spawn to the container's start, in ms. */
function run(b: Build, task: string, agent: string): { startupMs: number; stderr: string; dir: string; image: string } {
  const id = `bench-${b.name}-${++n}`;
  const env = { ...process.env, SSEBENCH_HOME: b.home, SSEBENCH_REGISTRY: b.registry };
  const results = join(tmp, "results");
  const t0 = Date.now();
  const r = Bun.spawnSync([b.bin, "run", "--local", demo, "--task", task, "--agent", agent, "--model", "scripted-give-up", "--results", results, "--run-id", id, "--timeout", "600"], { env, stdout: "pipe", stderr: "pipe" });
  const dir = join(results, task, "scripted-give-up", agent, id);
  let summary: { container: { started_at: string; image: string } };
  try {
    summary = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8"));
  } catch {
    throw new Error(`${b.name} run ${id} left no summary:\n${r.stdout}\n${r.stderr}`);
  }
  return { startupMs: new Date(summary.container.started_at).getTime() - t0, stderr: r.stderr.toString(), dir, image: summary.container.image };
}

const after = build("new", repo);
const before = build("old", resolve(values.before));
// Each build's image names of its own: the tasks' base images tagged under both.
for (const task of TASKS) {
  for (const base of baseImages(readFileSync(join(demo, task, "Dockerfile"), "utf8"), DEFAULT_REGISTRY)) {
    for (const b of [after, before]) docker(["tag", base, `${b.registry}${base.slice(DEFAULT_REGISTRY.length)}`]);
  }
}

interface Listed {
  id: string;
  tags: string[];
  kind: string;
  agent: string | null;
  task: string | null;
  unique_size: number;
}
const listed = (b: Build): Listed[] =>
  JSON.parse(Bun.spawnSync([b.bin, "images", "--json"], { env: { ...process.env, SSEBENCH_HOME: b.home }, stdout: "pipe" }).stdout.toString()) as Listed[];
const mine = (b: Build) => (i: Listed) => i.tags.some((t) => t.startsWith(`${b.registry}/`));

try {
  console.log(`agents ${AGENTS.join(", ")}; tasks ${TASKS.join(", ")}; ${RUNS} timed runs per build`);
  // 1. Disk. The new build on every task × agent.
  const volumes = new Map<string, string>();
  let fills = 0;
  for (const agent of AGENTS) {
    for (const task of TASKS) {
      const r = run(after, task, agent);
      fills += (r.stderr.match(/Filling the agent store/g) ?? []).length;
      volumes.set(agent, JSON.parse(docker(["image", "inspect", "--format", "{{json .Config.Labels}}", r.image]))["ssebench.agent-store"]);
    }
  }
  const now = listed(after);
  const layers = now.filter((i) => i.kind === "agent layer" && AGENTS.includes(i.agent ?? "") && TASKS.includes(i.task ?? "") && mine(after)(i));
  const markers = now.filter((i) => i.kind === "agent files" && AGENTS.includes(i.agent ?? "") && mine(after)(i));
  const stores = now.filter((i) => i.kind === "agent store" && [...volumes.values()].includes(i.id));
  // One copy of each CLI: the old build's agent layer on one task (it copies the agent's files once).
  const oldCopy = new Map<string, number>();
  for (const agent of AGENTS) run(before, TASKS[0] as string, agent);
  const old = listed(before);
  for (const agent of AGENTS) {
    const layer = old.find((i) => i.kind === "agent layer" && i.agent === agent && i.task === TASKS[0] && mine(before)(i));
    oldCopy.set(agent, layer?.unique_size ?? Number.NaN);
  }
  const sum = (xs: Listed[]) => xs.reduce((s, i) => s + i.unique_size, 0);
  const total = sum(layers) + sum(markers) + sum(stores);
  const once = [...oldCopy.values()].reduce((s, x) => s + x, 0);
  console.log(`\n1. disk (${layers.length} agent layers, ${markers.length} markers, ${stores.length} stores; stores filled by these runs: ${fills})`);
  for (const agent of AGENTS) {
    const own = layers.filter((i) => i.agent === agent);
    const store = stores.find((i) => i.id === volumes.get(agent));
    console.log(
      `  ${agent.padEnd(12)} store ${((store?.unique_size ?? 0) / MB).toFixed(1)} MB; agent layers' own ${own.map((i) => `${i.unique_size} B`).join(", ")}; old build's layer on one task ${((oldCopy.get(agent) ?? 0) / MB).toFixed(1)} MB`,
    );
  }
  const largest = Math.max(...layers.map((i) => i.unique_size));
  console.log(`  the agents take ${(total / MB).toFixed(1)} MB for ${TASKS.length} tasks; one copy of each CLI ${(once / MB).toFixed(1)} MB: ${(total / once).toFixed(3)}x (goal ≤ 1.1x)`);
  console.log(`  largest agent layer's own bytes: ${largest} B (goal ≤ 16 MiB); the old build's would take ${((once * TASKS.length) / MB).toFixed(1)} MB`);

  // 2. Start-up, cached, interleaved.
  const task = TASKS[0] as string;
  const times: Record<string, number[]> = { old: [], new: [] };
  for (let i = 0; i < RUNS; i++) {
    for (const b of [before, after]) {
      const r = run(b, task, "claude-code");
      if (/Building the |Filling the agent store/.test(r.stderr)) console.log(`  (${b.name} run ${i} built something: not counted)`);
      else times[b.name]?.push(r.startupMs);
    }
  }
  const [o, w] = [median(times.old as number[]), median(times.new as number[])];
  console.log(`\n2. start-up of a cached claude-code run on ${task} (command start → container start, median of ${RUNS})`);
  console.log(`  old build (CLI in the agent layer) ${o.toFixed(0)} ms; new build (store mounted) ${w.toFixed(0)} ms: ${(w / o).toFixed(2)}x, ${((w - o) / 1000).toFixed(2)} s more (goal ≤ 0.5 s)`);
  console.log(`  samples old ${(times.old as number[]).join(", ")}; new ${(times.new as number[]).join(", ")}`);
} finally {
  for (const b of [after, before]) {
    const tags = docker(["image", "ls", "--format", "{{.Repository}}:{{.Tag}}"]).split("\n").filter((t) => t.startsWith(`${b.registry}/`));
    if (tags.length > 0) Bun.spawnSync(["docker", "image", "rm", ...tags], { stdout: "ignore", stderr: "ignore" });
  }
  rmSync(tmp, { recursive: true, force: true });
}
