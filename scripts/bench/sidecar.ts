/**
 * What sidecar mode costs a run: a fully cached `ssebench run` of an agent that does nothing
 * (`true`) in sidecar mode (its own image, FROM the Debian root image), against the same agent in
 * sandbox mode (files FROM scratch, layered on the tool layer) as the baseline, in interleaved
 * rounds on the same task. Prints each mode's median wall time, the container phase
 * (summary.json timings_ms.docker_run: from the start of the task's container to its end, the
 * sidecar's start, handshake and end included) and the ratios.
 *
 *   bun scripts/bench/sidecar.ts [--task ID] [--runs N]     (needs the engine, the demo's base
 *                                                             images and ssebench/debian-root:bookworm;
 *                                                             builds nothing but the two agents)
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { task: { type: "string" }, runs: { type: "string" } } });
const task = values.task ?? "htmlesc-quote-overflow";
const runs = Number(values.runs ?? 5);
const repo = resolve(import.meta.dir, "../..");
const work = mkdtempSync(join(tmpdir(), "ssebench-bench-sidecar-"));
const env = { ...process.env, SSEBENCH_HOME: repo };

/** Two agents that do the same nothing, one per mode. */
const agents = {
  sandbox: { yaml: "name: noop-sandbox\nuses_model: false\n", dockerfile: 'FROM scratch\nCOPY agent.yaml /opt/agent/agent.yaml\nCMD ["true"]\n' },
  sidecar: { yaml: "name: noop-sidecar\nmode: sidecar\nuses_model: false\n", dockerfile: 'FROM ssebench/debian-root:bookworm\nCMD ["true"]\n' },
} as const;
type Mode = keyof typeof agents;
for (const [mode, a] of Object.entries(agents)) {
  const dir = join(work, `noop-${mode}`);
  mkdirSync(dir);
  writeFileSync(join(dir, "agent.yaml"), a.yaml);
  writeFileSync(join(dir, "Dockerfile"), a.dockerfile);
}

interface Sample {
  wallMs: number;
  containerMs: number;
}

function run(mode: Mode, id: string): Sample {
  const started = performance.now();
  const argv = [join(repo, "dist", "ssebench"), "run", "--local", join(repo, "datasets", "demo"), "--task", task, "--agent", join(work, `noop-${mode}`), "--results", join(work, "results"), "--run-id", id];
  const r = Bun.spawnSync(argv, { env, stdout: "pipe", stderr: "pipe" });
  const wallMs = performance.now() - started;
  if (r.exitCode !== 0) throw new Error(`${mode} run ${id} failed (${r.exitCode}): ${r.stderr.toString().trim().split("\n").at(-1)}`);
  const summary = JSON.parse(readFileSync(join(work, "results", task, "none", `noop-${mode}`, id, "summary.json"), "utf8")) as { timings_ms: Record<string, number> };
  return { wallMs, containerMs: summary.timings_ms.docker_run ?? NaN };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const samples: Record<Mode, Sample[]> = { sandbox: [], sidecar: [] };
try {
  // Untimed: builds the two agents' images and brings the task's layers up to date.
  for (const mode of ["sandbox", "sidecar"] as const) run(mode, `warm-${mode}`);
  for (let i = 0; i < runs; i++) {
    const order: Mode[] = i % 2 === 0 ? ["sandbox", "sidecar"] : ["sidecar", "sandbox"];
    for (const mode of order) samples[mode].push(run(mode, `${mode}-${i}`));
  }
  const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  const wall = { sandbox: median(samples.sandbox.map((s) => s.wallMs)), sidecar: median(samples.sidecar.map((s) => s.wallMs)) };
  const container = { sandbox: median(samples.sandbox.map((s) => s.containerMs)), sidecar: median(samples.sidecar.map((s) => s.containerMs)) };
  console.log(`task ${task}, ${runs} interleaved rounds, load average ${load}`);
  console.log(`mode     wall (median)  container phase (median)`);
  for (const mode of ["sandbox", "sidecar"] as const) console.log(`${mode.padEnd(8)} ${(wall[mode] / 1000).toFixed(2).padStart(8)} s  ${(container[mode] / 1000).toFixed(2).padStart(8)} s`);
  console.log(`sidecar / sandbox: wall ${(wall.sidecar / wall.sandbox).toFixed(2)}x (+${((wall.sidecar - wall.sandbox) / 1000).toFixed(2)} s), container phase ${(container.sidecar / container.sandbox).toFixed(2)}x (+${((container.sidecar - container.sandbox) / 1000).toFixed(2)} s)`);
} finally {
  // The two agents' images stay (small; `ssebench images prune` removes them: their agents are not the home's).
  rmSync(work, { recursive: true, force: true });
}
