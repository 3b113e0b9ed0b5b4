/** `ssebench images` input errors, before any engine is asked (the engine side: test/e2e/images.test.ts). */
import { expect, test } from "bun:test";
import { hasNoStackTrace, ssebench } from "../helpers/cli.ts";

test("a --label that is not KEY=VALUE is a usage error, exit 2, for images and images prune", async () => {
  for (const args of [["images", "--label", "nokey"], ["images", "prune", "--dry-run", "--label", "=v"], ["images", "prune", "--label", ""], ["images", "--label", ""]]) {
    const r = await ssebench(args);
    const value = args.at(-1);
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([2, "", `ssebench images: --label must be KEY=VALUE, not '${value}'\n`]);
    expect(hasNoStackTrace(r.stderr)).toBe(true);
  }
});
