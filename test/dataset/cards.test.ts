/** The Debian dataset's README cards (`ssebench dataset cards`): generated from the configs, checked by --check. */
import { describe, expect, test } from "bun:test";
import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { renderCards } from "../../src/dataset/cards.ts";
import { verdictSeconds } from "../../scripts/dev/measure-tasks.ts";
import { repoRoot, ssebench, tempDir } from "../helpers/cli.ts";

const dataset = join(repoRoot, "datasets", "debian");
const cards = (args: string[]) => ssebench(["dataset", "cards", ...args]);
const measureTasks = (args: string[]) =>
  Bun.spawnSync([process.execPath, join(repoRoot, "scripts", "dev", "measure-tasks.ts"), ...args], { stdout: "pipe", stderr: "pipe" });

describe("dataset cards", () => {
  test("the committed README is what the configs give, one card per task with its CVE and class", async () => {
    const text = renderCards(dataset);
    expect(readFileSync(join(dataset, "README.md"), "utf8")).toBe(text);
    const r = await cards([dataset, "--check"]);
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([0, `${join(dataset, "README.md")}: the cards match the configs\n`, ""]);
    const sources = readFileSync(join(dataset, "expat-cve-2024-45490", "upstream", "sources.yaml"), "utf8");
    expect(sources).toContain("cve: CVE-2024-45490");
    expect(text).toContain("## expat-cve-2024-45490\n");
    expect(text).toContain("| CVE | [CVE-2024-45490](https://security-tracker.debian.org/tracker/CVE-2024-45490) |");
    expect(text).toContain("| Published, fixed | 2024-08-30 (the CVE), 2024-09-08 (the Debian update) |");
    expect(text).toContain("| [expat-cve-2024-45490](#expat-cve-2024-45490) | CVE-2024-45490 | 2024-08-30 | 2024-09-08 | expat |");
  });

  test("a config change the README does not show fails --check with one line; a bad card field names the file", async () => {
    const tmp = tempDir("ssebench-cards-");
    try {
      const copy = join(tmp.path, "debian");
      cpSync(dataset, copy, { recursive: true });
      const file = join(copy, "expat-cve-2024-45490", "upstream", "sources.yaml");
      writeFileSync(file, readFileSync(file, "utf8").replace("cwe: CWE-1284", "cwe: CWE-787"));
      const drifted = await cards([copy, "--check"]);
      expect([drifted.exitCode, drifted.stderr]).toEqual([1, `${join(copy, "README.md")} is not what the configs give; run ssebench dataset cards ${copy}\n`]);
      const written = await cards([copy]);
      const tasks = readdirSync(copy, { withFileTypes: true }).filter((e) => e.isDirectory()).length;
      expect([written.exitCode, written.stdout]).toEqual([0, `wrote ${join(copy, "README.md")} with ${tasks} cards\n`]);
      expect((await cards([copy, "--check"])).exitCode).toBe(0);
      writeFileSync(file, readFileSync(file, "utf8").replace("cwe: CWE-787", "cwe: memory"));
      const bad = await cards([copy, "--check"]);
      expect([bad.exitCode, bad.stderr]).toEqual([1, `${file}: cwe: must look like CWE-787\n`]);
      writeFileSync(file, readFileSync(file, "utf8").replace("cwe: memory", "cwe: CWE-787").replace(/^fixed: .*\n/m, ""));
      const undated = await cards([copy, "--check"]);
      expect([undated.exitCode, undated.stderr]).toEqual([1, `${file}: fixed: must be a date, YYYY-MM-DD\n`]);
      writeFileSync(file, "package: [\n");
      const yaml = await cards([copy, "--check"]);
      expect([yaml.exitCode, yaml.stderr]).toEqual([
        1,
        `${file}: Flow sequence in block collection must be sufficiently indented and end with a ] at line 2, column 1:\n`,
      ]);
      const measurements = join(copy, "measurements.json");
      cpSync(join(dataset, "expat-cve-2024-45490", "upstream", "sources.yaml"), file);
      writeFileSync(measurements, "{bad");
      const json = await cards([copy, "--check"]);
      expect([json.exitCode, json.stderr]).toEqual([1, `${measurements}: JSON Parse error: Expected '}'\n`]);
    } finally {
      tmp.cleanup();
    }
  });

  test("a task's verify time comes from its verification record when it has one; a bad verified.json is one line", async () => {
    const tmp = tempDir("ssebench-cards-verified-");
    try {
      const copy = join(tmp.path, "debian");
      cpSync(dataset, copy, { recursive: true, filter: (src) => !src.endsWith("/verified.json") });
      const h = "a".repeat(64);
      const way = { run_seconds: [60, 62, 58], checks: { build: { status: "passed", check_seconds: [10, 11, 9] } } };
      const record = { key: h, task_files: h, base_recipe: h, grading_code: h, recorded: "2026-12-04T19:00:00Z", ssebench: "0.1.0", repeats: 3, seconds: 123.4, audit_seconds: 4, ways: { reference: way, dummy: way } };
      writeFileSync(join(copy, "verified.json"), JSON.stringify({ dataset: "debian", records: { "expat-cve-2024-45490": record } }));
      const text = renderCards(copy);
      expect(text).toContain("| Verify time | 123 s (the mean of 3 agreeing verifies, recorded 2026-12-04) |");
      expect(text).toContain("| [expat-cve-2024-45490](#expat-cve-2024-45490) | CVE-2024-45490 | 2024-08-30 | 2024-09-08 | expat | CWE-1284 |");
      expect(text.split("\n").find((l) => l.startsWith("| [expat-cve-2024-45490]"))).toEndWith(" | 123 s |");
      writeFileSync(join(copy, "verified.json"), JSON.stringify({ dataset: "debian", records: { x: { ...record, repeats: 0 } } }));
      const bad = await cards([copy, "--check"]);
      expect([bad.exitCode, bad.stderr]).toEqual([1, `${join(copy, "verified.json")}: records.x.repeats: must be a whole number of at least 1\n`]);
    } finally {
      tmp.cleanup();
    }
  });

  test("a folder that is not a dataset is one line, exit 1; a malformed command line is exit 2", async () => {
    const missing = join(repoRoot, "no-such-dataset");
    const r = await cards([missing, "--check"]);
    expect([r.exitCode, r.stderr]).toEqual([1, `${missing}: not a dataset folder\n`]);
    const u = await cards([dataset, "--bogus"]);
    expect([u.exitCode, u.stderr]).toEqual([2, "ssebench dataset cards: unknown option '--bogus' (see 'ssebench dataset cards --help')\n"]);
  });
});

describe("scripts/dev/measure-tasks.ts", () => {
  test("a malformed command line is one line, exit 2", () => {
    const usage = "usage: bun scripts/dev/measure-tasks.ts DIR [--verified OUT] TASK...";
    for (const [args, line] of [
      [[dataset, "--bogus", "t"], `unknown option --bogus; ${usage}`],
      [[dataset], `a dataset folder and task IDs; ${usage}`],
      [[dataset, "t", "--verified"], `--verified needs a folder; ${usage}`],
    ] as const) {
      const u = measureTasks([...args]);
      expect([u.exitCode, u.stderr.toString()]).toEqual([2, `measure-tasks: ${line}\n`]);
    }
  });

  test("a verdict of verify --repeat 3 gives the mean seconds of one verify; a single verify its own", () => {
    const tmp = tempDir("ssebench-cards-");
    try {
      const repeated = join(tmp.path, "repeated.json");
      writeFileSync(repeated, JSON.stringify({ task: "t", ok: true, seconds: 90, repetitions: [{}, {}, {}] }));
      expect(verdictSeconds(repeated, "t")).toBe(30);
      const once = join(tmp.path, "once.json");
      writeFileSync(once, JSON.stringify({ task: "t", ok: true, seconds: 42 }));
      expect(verdictSeconds(once, "t")).toBe(42);
    } finally {
      tmp.cleanup();
    }
  });
});
