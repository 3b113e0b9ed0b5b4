/** Progress renderings of a job's events: plain lines, JSON lines and the live terminal block, exact text. */
import { describe, expect, test } from "bun:test";
import { type JobEvent, jsonProgress, overallLine, plainProgress, terminalProgress } from "../../src/jobs/progress.ts";

const events: JobEvent[] = [
  { event: "planned", job: "j", total: 3, todo: 3, jobs: 2 },
  { event: "started", trial: "t/none/dummy/1", try: 1 },
  { event: "started", trial: "t/m1/coder/1", try: 1 },
  { event: "ended", trial: "t/none/dummy/1", try: 1, status: "failed", error_type: null, error_msg: "PoC failed", run_dir: "t/none/dummy/r1", duration_ms: 4000, final: true, done: 1, total: 3, spend: 0, passed: 0, spent: 0 },
  { event: "ended", trial: "t/m1/coder/1", try: 1, status: "error", error_type: "infra", error_msg: "engine down", run_dir: null, duration_ms: 2000, final: false, done: 1, total: 3, spend: 0.0123, passed: 0, spent: 0.0123 },
  { event: "started", trial: "t/m1/coder/1", try: 2 },
  { event: "ended", trial: "t/m1/coder/1", try: 2, status: "passed", error_type: null, error_msg: null, run_dir: "t/m1/coder/r2", duration_ms: 30_000, final: true, done: 2, total: 3, spend: 0.5, passed: 1, spent: 0.5123 },
];
// (the retry comes between the two runs of t coder)
events.splice(5, 0, { event: "retry", trial: "t/m1/coder/1", retry: 1, retries: 2, wait_s: 5 });

describe("job progress", () => {
  test("plain lines", () => {
    const lines: string[] = [];
    const emit = plainProgress((l) => lines.push(l));
    for (const e of events) emit(e);
    expect(lines).toEqual([
      "Job j: 3 trials, 3 to run, 2 at once",
      "[1/3] t dummy #1: failed in 4.0s; 0/1 passed so far (0.0%)",
      "[1/3] t coder(m1) #1: error (infra: engine down) in 2.0s; 0/1 passed so far (0.0%), $0.0123 spent",
      "t coder(m1) #1: infrastructure error; retry 1 of 2 in 5s",
      "[2/3] t coder(m1) #1: passed in 30.0s; 1/2 passed so far (50.0%), $0.5123 spent",
    ]);
  });

  test("JSON lines are the events as they are", () => {
    const lines: string[] = [];
    const emit = jsonProgress((l) => lines.push(l));
    for (const e of events) emit(e);
    expect(lines.map((l) => JSON.parse(l))).toEqual(events);
  });

  test("the overall line: the pass rate and spend so far, and the ETA", () => {
    expect(overallLine({ done: 1, total: 3, running: 1, passed: 0, failed: 1, errors: 0, spent: 0, meanMs: 60_000, jobs: 2 })).toBe("1/3 done, 1 running, 0 passed (0.0%), 1 failed, 0 errors, ETA 1m00s");
    expect(overallLine({ done: 0, total: 3, running: 2, passed: 0, failed: 0, errors: 0, spent: 0, meanMs: null, jobs: 2 })).toBe("0/3 done, 2 running, 0 passed, 0 failed, 0 errors");
    expect(overallLine({ done: 3, total: 4, running: 1, passed: 2, failed: 1, errors: 0, spent: 1.25, meanMs: 10_000, jobs: 1 })).toBe("3/4 done, 1 running, 2 passed (66.7%), 1 failed, 0 errors, $1.2500 spent, ETA 10s");
  });

  test("on a terminal: ended trials scroll above a redrawn block of running trials and the overall line", () => {
    let written = "";
    let time = 0;
    const stream = { columns: 120, write: (s: string) => ((written += s), true) } as unknown as NodeJS.WriteStream;
    const live = terminalProgress(stream, () => time);
    live(events[0] as JobEvent);
    live(events[1] as JobEvent);
    time = 3000;
    live(events[2] as JobEvent);
    time = 7000;
    live(events[3] as JobEvent);
    live(events[4] as JobEvent);
    live.close();
    const up = (n: number) => `\x1b[${n}A\x1b[J`;
    expect(written).toBe(
      [
        "Job j: 3 trials, 3 to run, 2 at once\n",
        "0/3 done, 0 running, 0 passed, 0 failed, 0 errors\n",
        up(1), "  t dummy #1  0s\n0/3 done, 1 running, 0 passed, 0 failed, 0 errors\n",
        up(2), "  t dummy #1  3s\n  t coder(m1) #1  0s\n0/3 done, 2 running, 0 passed, 0 failed, 0 errors\n",
        up(3), "[1/3] t dummy #1: failed in 4.0s; 0/1 passed so far (0.0%)\n", "  t coder(m1) #1  4s\n1/3 done, 1 running, 0 passed (0.0%), 1 failed, 0 errors, ETA 4s\n",
        up(2), "[1/3] t coder(m1) #1: error (infra: engine down) in 2.0s; 0/1 passed so far (0.0%), $0.0123 spent\n", "1/3 done, 0 running, 0 passed (0.0%), 1 failed, 0 errors, $0.0123 spent, ETA 3s\n",
        up(1),
      ].join(""),
    );
  });
});
