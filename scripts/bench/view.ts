/**
 * `ssebench view` over 10,000 synthetic trials (a job of 500 tasks × 4 agents × 5 attempts): from
 * the process's start to its first page (`/`) received whole, then the job's page (every run
 * folder's summary read the first time, then from memory) and a trial's page, and the process's
 * peak memory (VmHWM) after all of them; against `ssebench --version` (the start-up baseline)
 * measured in the same run. Goals: the first page in ≤ 1 s, ≤ 300 MB.
 * Usage: bun scripts/bench/view.ts (build first). BENCH_ROUNDS (5) rounds; the best time counts.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { syntheticRuns, writeJob, writeRunDetails } from "./synthetic-results.ts";

const bin = join(import.meta.dir, "../..", "dist", "ssebench");
const root = mkdtempSync(join(tmpdir(), "ssebench-bench-view-"));
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);

const memory = (pid: number, key: "VmHWM" | "VmRSS") => Number(/(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith(key)) ?? "")?.[1] ?? 0) / 1024;

interface Round {
  first: number;
  job: number;
  jobAgain: number;
  trial: number;
  peak: number;
  bytes: number;
}

async function round(): Promise<Round> {
  const t0 = performance.now();
  const proc = Bun.spawn([bin, "view", root, "--port", "0"], { stdout: "ignore", stderr: "pipe" });
  const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader();
  let said = "";
  let url: string | undefined;
  while (!url) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`ssebench view did not start: ${said}`);
    said += new TextDecoder().decode(value);
    url = / at (http:\/\/\S+) /.exec(said)?.[1];
  }
  const page = async (path: string) => {
    const r = await fetch(`${url}${path}`);
    const body = await r.text();
    if (r.status !== 200) throw new Error(`${path}: ${r.status} ${body.slice(0, 200)}`);
    return body.length;
  };
  const bytes = await page("/");
  const first = performance.now() - t0;
  let t = performance.now();
  await page("/jobs/bench");
  const job = performance.now() - t;
  t = performance.now();
  await page("/jobs/bench?agent=agent-1&grade=passed");
  const jobAgain = performance.now() - t;
  t = performance.now();
  await page("/runs/0/task-0/model-0/agent-0/bench-0");
  const trial = performance.now() - t;
  const peak = memory(proc.pid, "VmHWM");
  proc.kill("SIGTERM");
  await proc.exited;
  return { first, job, jobAgain, trial, peak, bytes };
}

try {
  const runs = syntheticRuns(500, 4, 5);
  writeJob(root, "bench", runs);
  writeRunDetails(root, "task-0/model-0/agent-0/bench-0");
  const version: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    Bun.spawnSync([bin, "--version"], { stdout: "ignore" });
    version.push(performance.now() - t);
  }
  const results: Round[] = [];
  for (let i = 0; i < rounds; i++) results.push(await round());
  const best = (k: "first" | "job" | "jobAgain" | "trial") => Math.min(...results.map((r) => r[k]));
  const baseline = Math.min(...version);
  const peak = Math.max(...results.map((r) => r.peak));
  console.log(`trials: ${runs.length}; ${rounds} rounds, best time of each, peak memory the largest`);
  console.log(`ssebench --version                      ${baseline.toFixed(0)} ms (baseline)`);
  console.log(`view: start to first page (/) received   ${best("first").toFixed(0)} ms (${(best("first") / baseline).toFixed(1)}x baseline; ${results[0]?.bytes} bytes)`);
  console.log(`view: the job's page, first time         ${best("job").toFixed(0)} ms (10,000 summaries read)`);
  console.log(`view: the job's page filtered, again     ${best("jobAgain").toFixed(0)} ms`);
  console.log(`view: a trial's page                     ${best("trial").toFixed(0)} ms`);
  console.log(`view: peak memory (VmHWM) after them     ${peak.toFixed(0)} MB`);
  console.log(`first pages: ${results.map((r) => r.first.toFixed(0)).join(", ")} ms; peaks: ${results.map((r) => r.peak.toFixed(0)).join(", ")} MB`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
