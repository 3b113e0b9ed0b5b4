/**
 * The job lock raced by real processes: two `ssebench run --job X` started at once, many rounds;
 * exactly one runs the job and the other refuses naming it. The one that runs is then killed with
 * SIGKILL, so every round after the first starts from the lock of a dead process (the case where a
 * lock file with a pid in it was taken by both). The winner's first call to the engine waits on a
 * socket that never answers, so it holds the lock until it is killed.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Socket } from "bun";
import { ssebenchBin, repoRoot, tempDir } from "../helpers/cli.ts";

setDefaultTimeout(600_000);
const ROUNDS = Number(process.env.SSEBENCH_LOCK_ROUNDS ?? 60);
const scratch = tempDir("ssebench-lock-race-");
const results = join(scratch.path, "results");
const engine = join(scratch.path, "engine.sock");
const held = new Set<Socket>();
// An engine that takes connections and never answers: the winner's first docker call waits there.
const silent = Bun.listen({ unix: engine, socket: { open: (s) => void held.add(s), data() {}, close: (s) => void held.delete(s) } });
afterAll(() => {
  silent.stop(true);
  scratch.cleanup();
});

const dir = join(results, "jobs", "race");
mkdirSync(join(dir, "logs"), { recursive: true });
const demo = join(repoRoot, "datasets", "demo");
const trial = { trial: "htmlesc-quote-overflow/none/dummy/1", task: "htmlesc-quote-overflow", agent: "dummy", model: "none", attempt: 1 };
writeFileSync(join(dir, "job.json"), JSON.stringify({ name: "race", dataset: { name: "demo", version: "demo-v1" }, trials: [trial], argv: ["--local", demo, "--task", trial.task, "--agent", "dummy"] }));

/** How long a round waits for the loser's refusal; none by then means both took the lock. */
const REFUSAL_WITHIN_MS = 10_000;

function racer(): { proc: ReturnType<typeof Bun.spawn>; stderr: Promise<string> } {
  const proc = Bun.spawn([ssebenchBin, "run", "--job", "race", "--results", results, "--retries", "0"], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DOCKER_HOST: `unix://${engine}`, XDG_CACHE_HOME: join(scratch.path, "cache") },
    stdout: "ignore",
    stderr: "pipe",
  });
  return { proc, stderr: new Response(proc.stderr as ReadableStream).text() };
}

describe("the job lock, raced", () => {
  test(`two processes started at once on one job: exactly one runs it, ${ROUNDS} rounds, each after a kill -9`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const pair = [racer(), racer()] as const;
      // The winner waits on the silent engine; the loser refuses at once.
      await Promise.race([Promise.any(pair.map((r) => r.proc.exited)), Bun.sleep(REFUSAL_WITHIN_MS)]);
      const losers = pair.filter((r) => r.proc.exitCode !== null);
      expect(losers.length, `round ${round}: ${losers.length === 0 ? "both took the lock" : "both ended"}`).toBe(1);
      const loser = losers[0] as (typeof pair)[number];
      const winner = pair.find((r) => r !== loser) as (typeof pair)[number];
      expect(loser.proc.exitCode).toBe(1);
      expect(await loser.stderr).toBe(`Job race is being run by process ${winner.proc.pid} (${join(dir, "lock")}); wait for it, or stop it first\n`);
      winner.proc.kill("SIGKILL");
      await winner.proc.exited;
      // The killed process's docker client, waiting on the silent engine, ends with its connection.
      for (const s of held) s.end();
    }
  });
});
