/**
 * Verification records end to end (issue 28 item 5), on a real engine with a copy of a demo task:
 * `dataset verify --record` writes verified.json, `dataset records --check` finds it current; a
 * changed file makes it stale (one line naming the task and what changed); `--record-from` refuses
 * the finished verify then, and records it again once the file is back. Without an engine: the
 * CLI's one-line errors and exit codes.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ssebench, tempDir } from "../helpers/cli.ts";
import { DEMO_TASK, demoDir, E2E, SKIP_REASON } from "./helpers.ts";

setDefaultTimeout(1_200_000);
const work = tempDir("ssebench-e2e-records-");
afterAll(() => work.cleanup());
const env = { DOCKER_HOST: process.env.DOCKER_HOST };

function dataset(name: string): string {
  const dir = join(work.path, name);
  mkdirSync(dir);
  cpSync(join(demoDir, "dataset.yaml"), join(dir, "dataset.yaml"));
  cpSync(join(demoDir, DEMO_TASK), join(dir, DEMO_TASK), { recursive: true });
  return dir;
}

describe("records without an engine", () => {
  test("a dataset without verified.json: every task missing, exit 1; --sample prints one task; bad flags exit 2", async () => {
    const dir = dataset("plain");
    const r = await ssebench(["dataset", "records", dir, "--check"]);
    expect([r.exitCode, r.stderr]).toEqual([1, `${DEMO_TASK}: no record in ${join(dir, "verified.json")}; verify it with: ssebench dataset verify --dir ${dir} --record ${DEMO_TASK}\n`]);
    const sample = await ssebench(["dataset", "records", dir, "--sample", "0123abcd"]);
    expect([sample.exitCode, sample.stdout]).toEqual([0, `${DEMO_TASK}\n`]);
    const table = await ssebench(["dataset", "records", dir]);
    expect(table.stdout).toContain(`${DEMO_TASK}  -         -        -        missing`);
    const both = await ssebench(["dataset", "verify", "--dir", dir, "--record-from", dir, "--repeat", "2"]);
    expect([both.exitCode, both.stderr.trim()]).toEqual([2, "--record-from records a finished verify: it takes no --record, --repeat or --output"]);
    const notOut = await ssebench(["dataset", "verify", "--dir", dir, "--record-from", join(work.path, "nothing")]);
    expect([notOut.exitCode, notOut.stderr.trim()]).toEqual([1, `${join(work.path, "nothing")}: not a dataset verify --output folder (it has no tasks/)`]);
    writeFileSync(join(dir, "verified.json"), '{"dataset": "plain", "records": {"x": 1}}');
    const bad = await ssebench(["dataset", "records", dir, "--check"]);
    expect([bad.exitCode, bad.stderr.trim()]).toEqual([1, `${join(dir, "verified.json")}: records.x: must be a record (key, task_files, base_recipe, grading_code, recorded, ssebench, repeats, seconds, audit_seconds, ways)`]);
  });
});

describe.skipIf(!E2E)(`records on a real engine${SKIP_REASON}`, () => {
  test("verify --record, records --check, a stale record, --record-from", async () => {
    const dir = dataset("recorded");
    const out = join(work.path, "out");
    const v = await ssebench(["dataset", "verify", "--dir", dir, "--record", "--output", out, "--timeout", "600", DEMO_TASK], { env });
    if (v.exitCode !== 0) console.error(v.stdout, v.stderr);
    expect(v.exitCode).toBe(0);
    expect(v.stderr).toContain(`recorded 1 task(s) in ${join(dir, "verified.json")}`);
    const file = JSON.parse(readFileSync(join(dir, "verified.json"), "utf8"));
    const record = file.records[DEMO_TASK];
    expect(record.repeats).toBe(1);
    expect(record.ways.reference.checks.build.status).toBe("passed");
    expect(record.ways.dummy.checks["poc pocs/quotes.txt"].status).toBe("failed");
    expect(await ssebench(["dataset", "records", dir, "--check"])).toMatchObject({ exitCode: 0 });

    const issue = join(dir, DEMO_TASK, "sse", "reports", "issue.md");
    const text = readFileSync(issue, "utf8");
    writeFileSync(issue, `${text}more\n`);
    const stale = await ssebench(["dataset", "records", dir, "--check"]);
    expect(stale.exitCode).toBe(1);
    expect(stale.stderr).toStartWith(`${DEMO_TASK}: its record in ${join(dir, "verified.json")} is stale: its files changed since ${record.recorded}; `);
    const refused = await ssebench(["dataset", "verify", "--dir", dir, "--record-from", out], { env });
    expect([refused.exitCode, refused.stderr.trim()]).toEqual([1, `${DEMO_TASK}: the verify in ${out} graded other inputs than the checkout has now (its files changed); verify it again`]);

    writeFileSync(issue, text);
    const again = await ssebench(["dataset", "verify", "--dir", dir, "--record-from", out], { env });
    expect([again.exitCode, again.stdout.trim()]).toEqual([0, `recorded 1 task(s) in ${join(dir, "verified.json")}`]);
    expect(await ssebench(["dataset", "records", dir, "--check"])).toMatchObject({ exitCode: 0 });
  });
});
