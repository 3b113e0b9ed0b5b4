/** The Debian dataset's README cards (scripts/dataset-cards.ts): generated from the configs, checked by --check. */
import { describe, expect, test } from "bun:test";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { renderCards, verdictSeconds } from "../../scripts/dataset-cards.ts";
import { repoRoot, tempDir } from "../helpers/cli.ts";

const dataset = join(repoRoot, "datasets", "debian");
const script = join(repoRoot, "scripts", "dataset-cards.ts");
const cards = (args: string[]) => Bun.spawnSync(["bun", script, ...args], { stdout: "pipe", stderr: "pipe" });

describe("dataset cards", () => {
  test("the committed README is what the configs give, one card per task with its CVE and class", () => {
    const text = renderCards(dataset);
    expect(readFileSync(join(dataset, "README.md"), "utf8")).toBe(text);
    const r = cards([dataset, "--check"]);
    expect([r.exitCode, r.stderr.toString()]).toEqual([0, ""]);
    const sources = readFileSync(join(dataset, "expat-cve-2024-45490", "upstream", "sources.yaml"), "utf8");
    expect(sources).toContain("cve: CVE-2024-45490");
    expect(text).toContain("## expat-cve-2024-45490\n");
    expect(text).toContain("| CVE | [CVE-2024-45490](https://security-tracker.debian.org/tracker/CVE-2024-45490) |");
    expect(text).toContain("| Published, fixed | 2024-08-30 (the CVE), 2024-09-08 (the Debian update) |");
    expect(text).toContain("| [expat-cve-2024-45490](#expat-cve-2024-45490) | CVE-2024-45490 | 2024-08-30 | 2024-09-08 | expat |");
  });

  test("a config change the README does not show fails --check with one line; a bad card field names the file", () => {
    const tmp = tempDir("ssebench-cards-");
    try {
      const copy = join(tmp.path, "debian");
      cpSync(dataset, copy, { recursive: true });
      const file = join(copy, "expat-cve-2024-45490", "upstream", "sources.yaml");
      writeFileSync(file, readFileSync(file, "utf8").replace("cwe: CWE-1284", "cwe: CWE-787"));
      const drifted = cards([copy, "--check"]);
      expect(drifted.exitCode).toBe(1);
      expect(drifted.stderr.toString()).toBe(`dataset-cards: ${join(copy, "README.md")} is not what the configs give; run bun scripts/dataset-cards.ts ${copy}\n`);
      writeFileSync(file, readFileSync(file, "utf8").replace("cwe: CWE-787", "cwe: memory"));
      const bad = cards([copy, "--check"]);
      expect([bad.exitCode, bad.stderr.toString()]).toEqual([1, `dataset-cards: ${file}: cwe: must look like CWE-787\n`]);
      writeFileSync(file, readFileSync(file, "utf8").replace("cwe: memory", "cwe: CWE-787").replace(/^fixed: .*\n/m, ""));
      const undated = cards([copy, "--check"]);
      expect([undated.exitCode, undated.stderr.toString()]).toEqual([1, `dataset-cards: ${file}: fixed: must be a date, YYYY-MM-DD\n`]);
      writeFileSync(file, "package: [\n");
      const yaml = cards([copy, "--check"]);
      expect([yaml.exitCode, yaml.stderr.toString()]).toEqual([
        1,
        `dataset-cards: ${file}: Flow sequence in block collection must be sufficiently indented and end with a ] at line 2, column 1:\n`,
      ]);
      const measurements = join(copy, "measurements.json");
      cpSync(join(dataset, "expat-cve-2024-45490", "upstream", "sources.yaml"), file);
      writeFileSync(measurements, "{bad");
      const json = cards([copy, "--check"]);
      expect([json.exitCode, json.stderr.toString()]).toEqual([1, `dataset-cards: ${measurements}: JSON Parse error: Expected '}'\n`]);
    } finally {
      tmp.cleanup();
    }
  });

  test("a folder that is not a dataset is one line, exit 1; a malformed command line is exit 2", () => {
    const missing = join(repoRoot, "no-such-dataset");
    const r = cards([missing, "--check"]);
    expect([r.exitCode, r.stderr.toString()]).toEqual([1, `dataset-cards: ${missing}: not a dataset folder\n`]);
    const usage = "usage: bun scripts/dataset-cards.ts [DIR] [--check] [--verified OUT] [--measure TASK...]";
    for (const [args, line] of [
      [[dataset, "--bogus"], `unknown option --bogus; ${usage}`],
      [[dataset, "--measure"], `--measure needs task IDs; ${usage}`],
      [[dataset, "--verified"], `--verified needs a folder; ${usage}`],
    ] as const) {
      const u = cards([...args]);
      expect([u.exitCode, u.stderr.toString()]).toEqual([2, `dataset-cards: ${line}\n`]);
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
