/**
 * Verification records (src/run/verify/records.ts, record-key.ts, formats/verified/): the key of a
 * task and what changes it, the record of a verdict, the file's text and its merge by concurrent
 * writers (real processes), the one-line problems of a stale, missing or extra record, the sample.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { verifiedProblems } from "../../../src/formats/verified/verified.ts";
import { baseLanguages, gradingCodeDigest, keyChanges, normalisedSource, recordKey } from "../../../src/run/verify/record-key.ts";
import { readRecords, recordOf, recordProblems, recordsText, sampleTask, updateRecords } from "../../../src/run/verify/records.ts";
import type { TaskVerdict } from "../../../src/run/verify/verify.ts";
import { repoRoot, ssebench, tempDir } from "../../helpers/cli.ts";

const work = tempDir("ssebench-records-");
afterAll(() => work.cleanup());
const demo = join(repoRoot, "datasets", "demo");
const TASK = "htmlesc-quote-overflow";

/** A checkout-like folder with the grading code and base-image recipe copied from this one. */
function checkoutCopy(name: string): string {
  const root = join(work.path, name);
  for (const p of ["src/runtime/grading", "src/runtime/sandbox/grading-phase.ts", "images/sandbox/Dockerfile", "images/base-images"]) cpSync(join(repoRoot, p), join(root, p), { recursive: true });
  cpSync(join(demo, TASK), join(root, "datasets", "demo", TASK), { recursive: true });
  return root;
}

const check = (check: string, status: string, seconds: number, poc: string | null = null) => ({ check, poc, tree: "patched", status, exit_code: 0, duration_seconds: seconds, log: null });
function verdict(reps: number): TaskVerdict {
  const run = (agent: string, i: number) => ({
    agent,
    exit_code: 0,
    seconds: 10 + i,
    log: "",
    run_dir: null,
    image: "sha256:c",
    agent_image: "sha256:a",
    failures: [],
    result: { checks: agent === "reference" ? [check("build", "passed", 2 + i), check("poc", "passed", 1, "pocs/q.txt")] : [check("build", "passed", 3), check("poc", "failed", 1, "pocs/q.txt")] },
  });
  const repetitions = Array.from({ length: reps }, (_, i) => ({ runs: { reference: run("reference", i), dummy: run("dummy", i) }, failures: [] }));
  return { task: TASK, checks: ["build", "poc"], ok: true, seconds: 30 * reps, failures: [], leaks: [], audit_seconds: 4.04, runs: repetitions[0]!.runs, repetitions, disagreements: [], key: null } as unknown as TaskVerdict;
}

describe("the record key", () => {
  test("task files, base recipe and grading code each change it; a comment, an import or a move of grading code does not", () => {
    const root = checkoutCopy("key");
    const folder = join(root, "datasets", "demo", TASK);
    const before = recordKey(root, folder);
    expect(before.key).toMatch(/^[0-9a-f]{64}$/);
    expect(recordKey(root, folder)).toEqual(before);

    const checks = join(root, "src/runtime/grading/checks.ts");
    const text = readFileSync(checks, "utf8");
    writeFileSync(checks, `// a new comment\nimport { join as j2 } from "node:path";\n${text}\n/* a block comment */\n`);
    mkdirSync(join(root, "src/runtime/grading/sub"));
    renameSync(join(root, "src/runtime/grading/git.ts"), join(root, "src/runtime/grading/sub/git-moved.ts"));
    expect(recordKey(root, folder)).toEqual(before);

    writeFileSync(checks, text.replace("LOG_TAIL = 8000", "LOG_TAIL = 9000"));
    expect(keyChanges(before, recordKey(root, folder))).toEqual(["ssebench's grading code"]);
    writeFileSync(checks, text);

    writeFileSync(join(folder, "sse", "reports", "issue.md"), "changed\n");
    writeFileSync(join(root, "images/base-images/common/apt-install.sh"), "changed\n");
    const after = recordKey(root, folder);
    expect(keyChanges(before, after)).toEqual(["its files", "its base image's recipe"]);
    expect(after.key).not.toBe(before.key);
  });

  test("normalised source: no comments, types or import lines; the base image's language from FROM", () => {
    const a = normalisedSource("x.ts", 'import { a } from "./a.ts";\n// why\nexport const x: number = a + 1; /* note */\n');
    const b = normalisedSource("y.ts", 'import { a } from "../moved/a.ts";\nexport const x = a + 1;\n');
    expect(a).toBe(b);
    expect(normalisedSource("Dockerfile", "# kept\nFROM x\n")).toBe("# kept\nFROM x\n");
    expect(baseLanguages("ARG R\nFROM ${R}/base-generic-c:1.0.0 AS b\nFROM ${SSEBENCH_REGISTRY}/base-generic-go:1.0.0\nFROM scratch\n")).toEqual(["c", "go"]);
    expect(gradingCodeDigest(join(work.path, "no-checkout"))).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("records", () => {
  test("a verdict's record: each way's checks with their outcome and seconds per repetition; valid by the model", () => {
    const key = { key: "a".repeat(64), task_files: "b".repeat(64), base_recipe: "c".repeat(64), grading_code: "d".repeat(64) };
    const r = recordOf(verdict(3), key, new Date("2026-12-04T19:00:00.123Z"));
    expect(r).toMatchObject({ ...key, recorded: "2026-12-04T19:00:00Z", repeats: 3, seconds: 30, audit_seconds: 4 });
    expect(r.ways.reference).toEqual({ run_seconds: [10, 11, 12], checks: { build: { status: "passed", check_seconds: [2, 3, 4] }, "poc pocs/q.txt": { status: "passed", check_seconds: [1, 1, 1] } } });
    expect(r.ways.dummy.checks["poc pocs/q.txt"]).toEqual({ status: "failed", check_seconds: [1, 1, 1] });
    expect(verifiedProblems({ dataset: "demo", records: { [TASK]: r } })).toEqual([]);
  });

  test("the file: one record per line by task id; a bad one is one line naming the file and the key", () => {
    const dir = join(work.path, "text");
    mkdirSync(dir);
    expect(readRecords(dir)).toEqual({ dataset: "text", records: {} });
    const key = { key: "a".repeat(64), task_files: "b".repeat(64), base_recipe: "c".repeat(64), grading_code: "d".repeat(64) };
    const r = recordOf(verdict(1), key, new Date("2026-12-04T19:00:00Z"));
    const text = recordsText({ dataset: "text", records: { b: r, a: r } });
    expect(text.split("\n").slice(0, 4)).toEqual(["{", '  "dataset": "text",', '  "records": {', `    "a": ${JSON.stringify(r)},`]);
    expect(text.split("\n").slice(4)).toEqual([`    "b": ${JSON.stringify(r)}`, "  }", "}", ""]);
    expect(JSON.parse(text)).toEqual({ dataset: "text", records: { a: r, b: r } });
    expect(recordsText({ dataset: "e", records: {} })).toBe('{\n  "dataset": "e",\n  "records": {}\n}\n');
    writeFileSync(join(dir, "verified.json"), JSON.stringify({ dataset: "text", records: { a: { ...r, repeats: 0 } } }));
    expect(() => readRecords(dir)).toThrow(`${join(dir, "verified.json")}: records.a.repeats: must be a whole number of at least 1`);
    writeFileSync(join(dir, "verified.json"), "{");
    expect(() => readRecords(dir)).toThrow(`${join(dir, "verified.json")}: cannot read it: JSON Parse error: Expected '}'`);
  });

  test("writers in separate processes at once keep each other's records (lock file, rename)", async () => {
    const dir = join(work.path, "concurrent");
    mkdirSync(dir);
    const script = join(work.path, "writer.ts");
    writeFileSync(
      script,
      `import { recordOf, updateRecords } from ${JSON.stringify(join(repoRoot, "src/run/verify/records.ts"))};
       const v = JSON.parse(process.argv[3]); const key = { key: "a".repeat(64), task_files: "b".repeat(64), base_recipe: "c".repeat(64), grading_code: "d".repeat(64) };
       for (let i = 0; i < 5; i++) await updateRecords(process.argv[2], { [\`t\${process.argv[4]}-\${i}\`]: recordOf(v, key) });`,
    );
    const procs = Array.from({ length: 4 }, (_, n) => Bun.spawn(["bun", script, dir, JSON.stringify(verdict(1)), String(n)], { stderr: "pipe" }));
    const codes = await Promise.all(procs.map((p) => p.exited));
    expect(codes).toEqual([0, 0, 0, 0]);
    expect(Object.keys(readRecords(dir).records).sort()).toEqual(Array.from({ length: 4 }, (_, n) => Array.from({ length: 5 }, (_, i) => `t${n}-${i}`)).flat().sort());
    await updateRecords(dir, {}, ["t0-0"]);
    expect(Object.keys(readRecords(dir).records)).not.toContain("t0-0");
  });

  test("problems: missing, stale (saying what changed) and a record of no task, one line each; the sample is stable", () => {
    const key = (c: string) => ({ key: c.repeat(64), task_files: c.repeat(64), base_recipe: "c".repeat(64), grading_code: "d".repeat(64) });
    const r = (k: ReturnType<typeof key>) => recordOf(verdict(1), k, new Date("2026-12-04T19:00:00Z"));
    const file = "datasets/x/verified.json";
    const current = new Map([["a", key("1")], ["b", key("2")], ["c", key("3")]]);
    const lines = recordProblems("datasets/x", file, { dataset: "x", records: { a: r(key("1")), b: r(key("9")), z: r(key("1")) } }, current);
    expect(lines).toEqual([
      "b: its record in datasets/x/verified.json is stale: its files changed since 2026-12-04T19:00:00Z; verify it again with: ssebench dataset verify --dir datasets/x --record b",
      "c: no record in datasets/x/verified.json; verify it with: ssebench dataset verify --dir datasets/x --record c",
      "z: datasets/x/verified.json has a record of a task the dataset does not have; drop it with: ssebench dataset records datasets/x --prune",
    ]);
    const ids = ["b", "a", "c"];
    expect(sampleTask(ids, "00000004deadbeef")).toBe("b"); // 4 % 3 = 1 → the second of a, b, c
    expect(sampleTask(ids, "not-hex")).toBe(sampleTask(["c", "b", "a"], "not-hex"));
    expect(sampleTask([], "x")).toBeUndefined();
  });
});

describe("dataset records --sample --within (the compiled binary)", () => {
  const debian = join(repoRoot, "datasets", "debian");
  const seconds = readRecords(debian).records;
  test("chooses among the tasks whose recorded verify fits, the same for the same seed; nothing fits: one line, exit 1", async () => {
    const budget = 200;
    const fits = Object.keys(seconds).filter((id) => (seconds[id]?.seconds ?? Number.POSITIVE_INFINITY) <= budget).sort();
    expect(fits.length).toBeGreaterThan(1);
    const chosen = new Set<string>();
    for (const seed of ["00000000", "00000001", "00000002", "0123abcd", "fedcba98"]) {
      const r = await ssebench(["dataset", "records", debian, "--sample", seed, "--within", String(budget)]);
      expect(r.exitCode).toBe(0);
      expect(r.stdout.trim()).toBe(sampleTask(fits, seed) as string);
      chosen.add(r.stdout.trim());
    }
    expect(chosen.size).toBeGreaterThan(1);
    const none = await ssebench(["dataset", "records", debian, "--sample", "00", "--within", "0.001"]);
    expect([none.exitCode, none.stderr]).toEqual([1, `${debian}: no task's record says its verify took at most 0.001 s (--within)\n`]);
  });

  test("--within without --sample, or not a number of seconds: a usage error", async () => {
    const alone = await ssebench(["dataset", "records", debian, "--within", "300"]);
    expect([alone.exitCode, alone.stderr]).toEqual([2, "--within SECONDS chooses among the tasks for --sample SEED; give --sample too\n"]);
    const bad = await ssebench(["dataset", "records", debian, "--sample", "00", "--within", "5m"]);
    expect([bad.exitCode, bad.stderr]).toEqual([2, "--within 5m: expected a number of seconds above 0\n"]);
  });
});
