/**
 * The job lock raced by real processes: two `ssebench run --job X` started at once, many rounds;
 * exactly one runs the job and the other refuses naming it. The one that runs is then killed with
 * SIGKILL, so every round after the first starts from the lock of a dead process (the case where a
 * lock file with a pid in it was taken by both). The job's one trial waits on an engine socket that
 * never answers, so the winner holds the lock until it is killed.
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

interface Racer {
  proc: ReturnType<typeof Bun.spawn>;
  stderr: string;
  /** resolves when the process printed its plan (it holds the lock) or exited */
  settled: Promise<"running" | "exited">;
}

function racer(): Racer {
  const proc = Bun.spawn([ssebenchBin, "run", "--job", "race", "--results", results, "--retries", "0"], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DOCKER_HOST: `unix://${engine}`, XDG_CACHE_HOME: join(scratch.path, "cache") },
    stdout: "ignore",
    stderr: "pipe",
  });
  const r = { proc, stderr: "" } as Racer;
  r.settled = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of proc.stderr as ReadableStream<Uint8Array>) {
      r.stderr += decoder.decode(chunk);
      if (r.stderr.includes("Job race: 1 trials, 1 to run")) return "running";
    }
    await proc.exited;
    return "exited";
  })();
  return r;
}

describe("the job lock, raced", () => {
  test(`two processes started at once on one job: exactly one runs it, ${ROUNDS} rounds, each after a kill -9`, async () => {
    const shared: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const pair = [racer(), racer()] as const;
      const states = await Promise.all(pair.map((r) => r.settled));
      const winners = pair.filter((_, i) => states[i] === "running");
      const losers = pair.filter((_, i) => states[i] === "exited");
      if (winners.length !== 1) shared.push(`round ${round}: ${winners.length} ran (${pair.map((r) => r.stderr.trim()).join(" | ")})`);
      for (const loser of losers) {
        expect(await loser.proc.exited).toBe(1);
        const other = pair.find((r) => r !== loser) as Racer;
        expect(loser.stderr).toBe(`Job race is being run by process ${other.proc.pid} (${join(dir, "lock")}); wait for it, or stop it first\n`);
      }
      for (const r of pair) r.proc.kill("SIGKILL");
      await Promise.all(pair.map((r) => r.proc.exited));
      // The killed process's docker client, waiting on the silent engine, ends with its connection.
      for (const s of held) s.end();
    }
    expect(shared).toEqual([]);
  });
});
