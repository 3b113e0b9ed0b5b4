/** `ssebench run --local DIR` where DIR is missing or a file: one line naming the flag, exit 1 (not "the task is not in it"). */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { msg } from "../../src/run/messages.ts";
import { repoRoot, ssebench } from "../helpers/cli.ts";

describe("run --local with no dataset folder", () => {
  test("a missing folder and a file are each one line, exit 1", async () => {
    const file = join(repoRoot, "package.json");
    for (const [dir, line] of [
      ["/no/such/dataset", msg.localMissing("/no/such/dataset")],
      [file, msg.localNotFolder(file)],
    ] as const) {
      const r = await ssebench(["run", "--local", dir, "--task", "htmlesc-quote-overflow", "--agent", "dummy", "--results", "/tmp/ssebench-bad-local-unused"]);
      expect([r.exitCode, r.stderr.trim()]).toEqual([1, line]);
    }
  });
});
