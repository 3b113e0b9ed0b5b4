/** `npm run release` (scripts/build/release.ts) with a malformed command line: one line, exit 2, before anything is built. */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { repoRoot } from "../helpers/cli.ts";

const release = (args: string[]) => Bun.spawnSync([process.execPath, join(repoRoot, "scripts", "build", "release.ts"), ...args], { stdout: "pipe", stderr: "pipe" });
const usage = "usage: bun scripts/build/release.ts [--target linux-x64|linux-arm64]...";

describe("release: bad command lines", () => {
  test("an unknown option, a --target without a value and a stray argument are exit 2 with node's wording and the usage", () => {
    for (const [args, line] of [
      [["--bogus"], `Unknown option '--bogus'; ${usage}`],
      [["--target"], `Option '--target <value>' argument missing; ${usage}`],
      [["extra"], `Unexpected argument 'extra'. This command does not take positional arguments; ${usage}`],
      [["--target", "linux-s390x"], "unknown --target linux-s390x (known: linux-x64, linux-arm64)"],
    ] as const) {
      const r = release([...args]);
      expect([r.exitCode, r.stderr.toString(), r.stdout.toString()]).toEqual([2, `release: ${line}\n`, ""]);
    }
  });
});
