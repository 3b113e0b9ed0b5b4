/**
 * scripts/check-pinned-sources.ts with bad input: one line, exit 1, and no request to the archive
 * (a malformed sources.yaml is refused before its files are asked for).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot, tempDir } from "../helpers/cli.ts";

const scratch = tempDir("ssebench-bad-pins-");
afterAll(() => scratch.cleanup());
const check = (dir: string) => Bun.spawnSync([process.execPath, join(repoRoot, "scripts", "check-pinned-sources.ts"), dir], { stdout: "pipe", stderr: "pipe" });

describe("check-pinned-sources: bad input", () => {
  test("a folder that is not there is one line", () => {
    const missing = join(scratch.path, "none");
    const r = check(missing);
    expect([r.exitCode, r.stderr.toString()]).toEqual([1, `check-pinned-sources: ${missing}: not a dataset folder\n`]);
  });

  test("a sources.yaml with a bad hash names the file and key", () => {
    const task = join(scratch.path, "ds", "expat-cve-2024-45490");
    cpSync(join(repoRoot, "datasets", "debian", "expat-cve-2024-45490"), task, { recursive: true });
    const file = join(task, "upstream", "sources.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace(/sha256: [0-9a-f]{4}/, "sha256: zzzz"));
    const r = check(join(scratch.path, "ds"));
    expect([r.exitCode, r.stderr.toString()]).toEqual([1, `${file}: files[0].sha256: must be 64 lowercase hex digits\n`]);
  });
});
