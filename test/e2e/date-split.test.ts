/**
 * `results --split-by date` end to end: two demo tasks that pin an upstream file (served on
 * loopback, as datasets/debian's come from Debian's archive) with the days they were published;
 * a real job of the reference and dummy agents records each task's days in summary.json
 * (provenance.task_dates), and the split puts each task on its side of the cutoff.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readTrials } from "../../src/jobs/store.ts";
import { ssebench, tempDir } from "../helpers/cli.ts";
import { demoDir, E2E, SKIP_REASON } from "./helpers.ts";

setDefaultTimeout(1_200_000);
const work = tempDir("ssebench-e2e-dates-");
const body = "a pinned upstream file\n";
let server: ReturnType<typeof Bun.serve> | undefined;
const DAYS: Record<string, [string, string]> = { "htmlesc-quote-overflow": ["2024-03-01", "2024-04-15"], "fixedbuf-extend-overflow": ["2025-02-10", "2025-03-01"] };

beforeAll(() => {
  if (!E2E) return;
  server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response(body) });
  const dir = join(work.path, "dated");
  mkdirSync(dir);
  cpSync(join(demoDir, "dataset.yaml"), join(dir, "dataset.yaml"));
  for (const [task, [published, fixed]] of Object.entries(DAYS)) {
    cpSync(join(demoDir, task), join(dir, task), { recursive: true });
    mkdirSync(join(dir, task, "upstream"));
    const sha = createHash("sha256").update(body).digest("hex");
    writeFileSync(join(dir, task, "upstream", "sources.yaml"), `package: ${task}\nversion: 1.0-1\npublished: ${published}\nfixed: ${fixed}\nfiles:\n- url: http://127.0.0.1:${server.port}/pool/${task}_1.0.orig.tar.gz\n  sha256: ${sha}\n`);
  }
});
afterAll(() => {
  server?.stop(true);
  work.cleanup();
});

describe.skipIf(!E2E)(`the days of a task's vulnerability, from its run to the split${SKIP_REASON}`, () => {
  test("a job records each task's days; --split-by date puts each task on its side of the cutoff", async () => {
    const results = join(work.path, "results");
    const env = { DOCKER_HOST: process.env.DOCKER_HOST, SSEBENCH_SOURCES_CACHE: join(work.path, "cache") };
    const tasks = Object.keys(DAYS).flatMap((t) => ["--task", t]);
    const run = await ssebench(["run", "--local", join(work.path, "dated"), ...tasks, "--agent", "reference", "--agent", "dummy", "--job", "dated", "--jobs", "1", "--results", results], { env });
    if (run.exitCode !== 0) console.error(run.stdout, run.stderr);
    expect(run.stdout).toStartWith("Job dated: 4 trials: 2 passed, 2 failed, 0 errors\n");
    for (const r of readTrials(join(results, "jobs", "dated"))) {
      const summary = JSON.parse(readFileSync(join(results, r.run_dir as string, "summary.json"), "utf8"));
      const [published, fixed] = DAYS[r.task] as [string, string];
      expect(summary.provenance.task_dates).toEqual({ published, fixed });
    }
    const split = await ssebench(["results", "dated", "--results", results, "--split-by", "date", "--cutoff", "2025-01-01", "--json"]);
    expect(split.stderr).toBe("");
    const json = JSON.parse(split.stdout);
    expect([Object.keys(json.before.tasks), Object.keys(json.after.tasks), json.undated]).toEqual([["htmlesc-quote-overflow"], ["fixedbuf-extend-overflow"], []]);
    expect(json.differences.map((d: { agent: string; before: number; after: number; difference: number }) => [d.agent, d.before, d.after, d.difference])).toEqual([
      ["dummy", 0, 0, 0],
      ["reference", 1, 1, 0],
    ]);
    const text = await ssebench(["results", "dated", "--results", results, "--split-by", "date", "--cutoff", "2025-01-01"]);
    expect(text.stdout.split("\n")[0]).toBe("Tasks by the day they were published: 1 before 2025-01-01, 1 on or after it");
  });
});
