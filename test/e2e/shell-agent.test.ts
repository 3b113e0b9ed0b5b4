/**
 * docs/examples/shell-agent, the "writing your own agent" example (docs/agents.md), run from its
 * folder with `--agent PATH` against the scripted model on a real engine: it asks the model once
 * through the gateway (SSE_BASE_URL, SSE_API_KEY), runs the tool API's build check, and changes
 * nothing, so the grade is `failed` (the PoC still triggers) with the build passing. Then the same
 * folder in a job, run from another working directory.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { Summary } from "../../src/formats/run/summary.ts";
import type { JobFile } from "../../src/jobs/plan.ts";
import { readTrials } from "../../src/jobs/store.ts";
import { repoRoot, ssebench, tempDir } from "../helpers/cli.ts";
import { DEMO_TASK, demoDir, E2E, readJson, SKIP_REASON } from "./helpers.ts";

setDefaultTimeout(900_000);
const results = tempDir("ssebench-e2e-shell-agent-");
afterAll(() => results.cleanup());
const env = { DOCKER_HOST: process.env.DOCKER_HOST };
const example = join(repoRoot, "docs", "examples", "shell-agent");

describe.skipIf(!E2E)(`the shell-agent example with --agent PATH${SKIP_REASON}`, () => {
  test("asks the scripted model, runs the build check, changes nothing: Grade: failed, the PoC still triggers", async () => {
    const r = await ssebench(["run", "--local", demoDir, "--task", DEMO_TASK, "--agent", "docs/examples/shell-agent", "--model", "scripted", "--results", results.path, "--run-id", "shell-1"], { env });
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe(`Result: shell-agent agent (scripted) on ${DEMO_TASK}: build passed, the PoC still triggers, tests passed, hidden tests failed`);
    expect(lines[1]).toBe("Grade: failed");
    expect(r.exitCode).toBe(0);
    const runDir = join(results.path, DEMO_TASK, "scripted", "shell-agent", "shell-1");
    const summary = readJson<Summary>(join(runDir, "summary.json"));
    expect(summary.patch_result.status).toBe("failed");
    expect(summary.config.agent).toBe("shell-agent");
    // One chat call through the gateway with the run's key, answered by the script's no-tools text.
    const answer = readJson<{ choices: { message: { content: string } }[] }>(join(runDir, "archive", "answer.json"));
    expect(answer.choices[0]?.message.content).toBe("Scripted smoke test");
    const calls = readFileSync(join(runDir, "model-calls.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { wire?: string; status?: number });
    expect(calls).toHaveLength(1);
    // The HTTP check API built the untouched tree.
    const check = readJson<{ code: number; stdout: string }>(join(runDir, "archive", "build-check.json"));
    expect(check.code).toBe(0);
    expect(check.stdout).toContain("htmlesc");
    expect(readFileSync(join(runDir, "agent.log"), "utf8")).toContain(`task: "id": "${DEMO_TASK}"`);
  });

  test("in a job, planned from another working directory: the trial runs the folder, job.json keeps its absolute path", async () => {
    const r = await ssebench(["run", "--local", demoDir, "--task", DEMO_TASK, "--agent", relative(results.path, example), "--model", "scripted", "--attempts", "1", "--job", "shell-job", "--results", results.path], { env, cwd: results.path });
    expect(r.stdout).toMatch(/^Job shell-job: 1 trials: 0 passed, 1 failed, 0 errors; \$0\.\d{4} spent\n/);
    expect(r.stdout).toEndWith(`\nJob directory: ${join(results.path, "jobs", "shell-job")}\n`);
    expect(r.stdout.split("\n")).toHaveLength(3);
    expect(r.exitCode).toBe(0);
    const job = readJson<JobFile>(join(results.path, "jobs", "shell-job", "job.json"));
    expect(job.trials).toEqual([{ trial: `${DEMO_TASK}/scripted/shell-agent/1`, task: DEMO_TASK, agent: "shell-agent", agent_dir: example, model: "scripted", attempt: 1 }]);
    expect(job.argv).toContain(example);
    expect(job.agents).toEqual({ "shell-agent": { version: "0.1.0", uses_model: true } });
    expect(readTrials(join(results.path, "jobs", "shell-job")).map((t) => t.status)).toEqual(["failed"]);
  });
});
