/**
 * Agent layers and driver start-up on the real engine (docs/agents.md, "Performance"):
 * 1. per demo task, the agent layer of each real agent (REAL below; since agent stores its CLI is
 *    in the store, filled once per engine, and the layer adds 0 B) built from scratch — time (summary.json timings_ms.layers)
 *    and the size it adds over the tool layer — against the dummy agent's layer built the same way
 *    (baseline);
 * 2. start-to-first-model-call: the container's start (docker's StartedAt) to the gateway's first
 *    ledger line, for each real agent's driver against a bash agent that calls the model at once
 *    (test/e2e/fixtures/model-agent, baseline), all on the same task and scripted model.
 * Needs the engine and the demo base images; removes only the agent-layer tags it rebuilds.
 *   bun scripts/bench/agents.ts [repeats=3] [--first-call] [agent…]   (default: every agent of REAL;
 *   --first-call measures only 2.)
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dir, "../..");
const repeats = Number(process.argv[2] ?? 3);
const home = mkdtempSync(join(tmpdir(), "ssebench-bench-agents-"));
for (const n of ["images", "runtime", "datasets", "models"]) symlinkSync(join(root, n), join(home, n));
mkdirSync(join(home, "agents"));
for (const a of readdirSync(join(root, "agents"))) symlinkSync(join(root, "agents", a), join(home, "agents", a));
symlinkSync(join(root, "test", "e2e", "fixtures", "model-agent"), join(home, "agents", "model-agent"));
const results = join(home, "results");
const docker = (args: string[]) => Bun.spawnSync(["docker", ...args], { stdout: "pipe", stderr: "pipe" }).stdout.toString().trim();
const REGISTRY = "ghcr.io/42-b3yond-6ug/ssebench";
let n = 0;
/** The real agents measured (name → agent layer tag). */
const ALL_REAL: Record<string, string> = { "claude-code": "2.1.332", codex: "0.171.0", opencode: "1.18.33", "gemini-cli": "0.61.0", "qwen-code": "0.24.4", pi: "0.73.1", cline: "3.0.65", kilo: "7.7.9" };
const firstCallOnly = process.argv.includes("--first-call");
const picked = process.argv.slice(3).filter((a) => a !== "--first-call");
const REAL = Object.fromEntries(Object.entries(ALL_REAL).filter(([a]) => picked.length === 0 || picked.includes(a)));

async function run(task: string, agent: string, model: string | undefined): Promise<{ dir: string; layersMs: number }> {
  const id = `bench-${++n}`;
  const args = [join(root, "dist", "ssebench"), "run", "--local", join(root, "datasets", "demo"), "--task", task, "--results", results, "--agent", agent, "--run-id", id, "--timeout", "300"];
  if (model) args.push("--model", model);
  const p = Bun.spawn(args, { env: { ...process.env, SSEBENCH_HOME: home }, stdout: "pipe", stderr: "pipe" });
  const [out, err] = [await new Response(p.stdout).text(), await new Response(p.stderr).text()];
  await p.exited;
  const dir = join(results, task, model ?? "none", agent, id);
  let summary: { timings_ms: Record<string, number> };
  try {
    summary = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8"));
  } catch {
    throw new Error(`run ${id} left no summary:\n${out}\n${err}`);
  }
  return { dir, layersMs: summary.timings_ms.layers ?? 0 };
}

const size = (ref: string) => Number(docker(["image", "inspect", "--format", "{{.Size}}", ref]) || 0);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const mb = (b: number) => `${(b / 1e6).toFixed(1)} MB`;

try {
  const tasks = firstCallOnly ? [] : readdirSync(join(root, "datasets", "demo"), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  if (tasks.length > 0) console.log("| task | agent layer | build (median) | adds over the tool layer | dummy's layer (baseline) | ratio |\n|---|---|---|---|---|---|");
  for (const task of tasks) {
    const builds: Record<string, number[]> = { dummy: [] };
    // Untimed: brings the task's tool layer up to date, so that no agent's time includes it.
    await run(task, "dummy", undefined);
    for (let i = 0; i < repeats; i++) {
      for (const [agent, version, model] of [...Object.entries(REAL).map(([a, v]) => [a, v, "scripted"] as const), ["dummy", "1.0.0", undefined] as const]) {
        docker(["image", "rm", `${REGISTRY}/agent-${agent}/${task}:${version}`]);
        (builds[agent] ??= []).push((await run(task, agent, model)).layersMs);
      }
    }
    const tool = size(`${REGISTRY}/tool/${task}:0.1.0`);
    const dm = median(builds.dummy as number[]);
    for (const [agent, version] of Object.entries(REAL)) {
      const added = size(`${REGISTRY}/agent-${agent}/${task}:${version}`) - tool;
      const ms = median(builds[agent] as number[]);
      console.log(`| ${task} | ${agent} | ${(ms / 1000).toFixed(1)} s | ${mb(added)} | ${(dm / 1000).toFixed(1)} s | ${(ms / dm).toFixed(1)}× |`);
    }
  }

  const firstCall = (dir: string) => {
    const summary = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")) as { container: { started_at: string } };
    const first = JSON.parse(readFileSync(join(dir, "model-calls.jsonl"), "utf8").split("\n")[0] as string) as { time: string };
    return Date.parse(first.time) - Date.parse(summary.container.started_at);
  };
  const task = "htmlesc-quote-overflow";
  const times: Record<string, number[]> = { "model-agent": [] };
  for (let i = 0; i < repeats; i++) {
    for (const agent of [...Object.keys(REAL), "model-agent"]) (times[agent] ??= []).push(firstCall((await run(task, agent, "scripted")).dir));
  }
  const base = median(times["model-agent"] as number[]);
  console.log("\n| driver | container start → first model call (median) | bash agent (baseline) | ratio |");
  console.log("|---|---|---|---|");
  for (const agent of Object.keys(REAL)) {
    const ms = median(times[agent] as number[]);
    console.log(`| ${agent} | ${ms} ms | ${base} ms | ${(ms / base).toFixed(1)}× |`);
  }
} finally {
  rmSync(home, { recursive: true, force: true });
}
