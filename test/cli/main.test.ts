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

describe("flag checks at the top level", () => {
  test("an unknown option is a usage error naming it", async () => {
    const r = await ssebench(["tasks", "list", "--bogus"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe("ssebench tasks list: unknown option '--bogus' (see 'ssebench tasks list --help')\n");
  });

  test("a string option given last without its value is a usage error, not the default", async () => {
    const r = await ssebench(["tasks", "list", "--catalog"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe("ssebench tasks list: option '--catalog' needs a value\n");
  });

  test("the word after a string option is its value even when it starts with a dash", async () => {
    const r = await ssebench(["tasks", "list", "--catalog", "-nonexistent"]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toStartWith("Cannot read the catalog at -nonexistent:");
  });
});

describe("positional arguments", () => {
  test("a word beyond a command's positional arguments is a usage error", async () => {
    const r = await ssebench(["dataset", "manifest", "datasets/demo", "extra"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe("ssebench dataset manifest: unexpected argument 'extra' (see 'ssebench dataset manifest --help')\n");
  });

  test("a command without positional arguments takes none", async () => {
    const r = await ssebench(["tasks", "list", "stray"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe("ssebench tasks list: unexpected argument 'stray' (see 'ssebench tasks list --help')\n");
  });

  test("a flag's value is not counted as a positional argument", async () => {
    const r = await ssebench(["tasks", "show", "--catalog", "datasets/demo", "htmlesc-quote-overflow", "--json"]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).id).toBe("htmlesc-quote-overflow");
  });
});
