/**
 * `ssebench results` on 10,000 synthetic trials (a job of 500 tasks × 4 agents × 5 attempts):
 * wall time of the compiled binary reading the job, and the folder scan of the same runs, against
 * `ssebench --version` (the start-up baseline) measured in the same run. Goal: under 1 s.
 * Usage: bun scripts/bench/results.ts (build first).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { syntheticRuns, writeJob } from "./synthetic-results.ts";

const bin = join(import.meta.dir, "../..", "dist", "ssebench");
const root = mkdtempSync(join(tmpdir(), "ssebench-bench-results-"));
try {
  const runs = syntheticRuns(500, 4, 5);
  writeJob(root, "bench", runs);
  const time = (args: string[]) => {
    const best: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      const r = Bun.spawnSync([bin, ...args], { stdout: "ignore", stderr: "pipe" });
      if (r.exitCode !== 0) throw new Error(`${args.join(" ")}: exit ${r.exitCode}: ${r.stderr}`);
      best.push(performance.now() - t);
    }
    return Math.min(...best);
  };
  const baseline = time(["--version"]);
  const job = time(["results", "bench", "--results", root]);
  const scan = time(["results", root]);
  const json = time(["results", "bench", "--results", root, "--json"]);
  console.log(`trials: ${runs.length}`);
  console.log(`ssebench --version          ${baseline.toFixed(0)} ms (baseline)`);
  console.log(`results JOB                 ${job.toFixed(0)} ms (${(job / baseline).toFixed(1)}x baseline)`);
  console.log(`results DIR (folder scan)   ${scan.toFixed(0)} ms (${(scan / baseline).toFixed(1)}x baseline)`);
  console.log(`results JOB --json          ${json.toFixed(0)} ms (${(json / baseline).toFixed(1)}x baseline)`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
