import { describe, expect, test } from "bun:test";
import { hasNoStackTrace, ssebench } from "../helpers/cli.ts";

describe("ssebench top level", () => {
  test("--version prints the version", async () => {
    const r = await ssebench(["--version"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^ssebench \d+\.\d+\.\d+\n$/);
  });

  test("--help lists the commands without colour when stdout is not a terminal", async () => {
    const r = await ssebench(["--help"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain("dataset");
    expect(r.stdout).not.toContain("\u001b[");
  });

  test("an unknown command is a usage error: one line, exit 2", async () => {
    const r = await ssebench(["frobnicate"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toStartWith("ssebench: unknown command 'frobnicate' (commands: dataset");
    expect(hasNoStackTrace(r.stderr)).toBe(true);
  });

  test("a group without a sub-command prints its usage and exits 2", async () => {
    const r = await ssebench(["dataset"]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toContain("USAGE");
  });
});
