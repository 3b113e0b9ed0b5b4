/**
 * A case image that fails to build, on a real engine: `ssebench run` keeps the build's whole output
 * in the run folder and names that file in result.json; `dataset verify`'s records name it and the
 * run folder.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Summary } from "../../src/formats/run/summary.ts";
import type { TaskVerdict } from "../../src/run/verify/verify.ts";
import { ssebench, tempDir } from "../helpers/cli.ts";
import { E2E, readJson, SKIP_REASON } from "./helpers.ts";

setDefaultTimeout(300_000);
const work = tempDir("ssebench-e2e-build-log-");
afterAll(work.cleanup);
const env = { DOCKER_HOST: process.env.DOCKER_HOST };

/** The fixture dataset of test/run, with tiny-task's Dockerfile failing at a step that prints a marker. */
function brokenDataset(): string {
  const dir = join(work.path, "dataset");
  cpSync(join(import.meta.dir, "..", "run", "fixtures", "dataset"), dir, { recursive: true });
  const dockerfile = join(dir, "tiny-task", "Dockerfile");
  const marker = `echo build-log-marker-$(( 6 * 7 )) && echo to-stderr >&2 && exit 3`;
  writeFileSync(dockerfile, `${readFileSync(dockerfile, "utf8")}RUN ${marker}\n`);
  return dir;
}

describe.skipIf(!E2E)(`a failed case image build keeps its log${SKIP_REASON}`, () => {
  const dataset = brokenDataset();

  test("ssebench run: case-image-build.log in the run folder, named by result.json", async () => {
    const results = join(work.path, "results");
    const r = await ssebench(["run", "--local", dataset, "--task", "tiny-task", "--agent", "dummy", "--results", results, "--run-id", "broken-1"], { env });
    expect(r.exitCode).toBe(1);
    const runDir = join(results, "tiny-task", "none", "dummy", "broken-1");
    const log = join(runDir, "case-image-build.log");
    const message = `Building the case image failed: \`docker build\` exited with status 3 (its output is in ${log})`;
    expect(r.stderr.trimEnd().split("\n").at(-1)).toBe(message);
    const text = readFileSync(log, "utf8");
    expect(text).toContain("build-log-marker-42");
    expect(text).toContain("to-stderr");
    expect(text).toMatch(/Step \d+\/\d+ : RUN echo build-log-marker/);
    const summary = readJson<Summary>(join(runDir, "summary.json"));
    expect(summary.patch_result.status).toBe("error");
    expect(summary.patch_result.error_msg).toBe(message);
    expect(readJson<Summary>(join(runDir, "result.json")).patch_result.error_msg).toBe(message);
    expect(existsSync(join(runDir, "tool-layer-build.log"))).toBe(false);
  });

  test("dataset verify: the task's record names the kept log of each run", async () => {
    const output = join(work.path, "verify");
    const r = await ssebench(["dataset", "verify", "tiny-task", "--dir", dataset, "--output", output], { env });
    expect(r.exitCode).toBe(1);
    const verdict = readJson<TaskVerdict>(join(output, "tasks", "tiny-task.json"));
    const dummy = verdict.runs.dummy;
    expect(dummy?.failures).toHaveLength(1);
    const log = /its output is in (\S+)\)$/.exec(dummy?.failures[0] ?? "")?.[1] ?? "";
    expect(log).toBe(join(dummy?.run_dir ?? "no run_dir", "case-image-build.log"));
    expect(dummy?.run_dir).toStartWith(join(output, "runs", "tiny-task", "none", "dummy", ""));
    expect(readFileSync(log, "utf8")).toContain("build-log-marker-42");
    expect(r.stdout).toContain("FAILED: reference: Building the case image failed");
  });
});
