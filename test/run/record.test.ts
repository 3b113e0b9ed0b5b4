import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { msg } from "../../src/run/messages.ts";
import { readContainerResult, readPluginResults } from "../../src/run/record.ts";
import { createRunDir, newRunId } from "../../src/run/results.ts";
import { tempDir } from "../helpers/cli.ts";

const dir = tempDir("ssebench-record-");
afterAll(dir.cleanup);

describe("results layout", () => {
  test("run IDs are UTC time plus 6 hex", () => {
    expect(newRunId(new Date("2026-09-29T15:30:12Z"))).toMatch(/^20260929-153012-[0-9a-f]{6}$/);
  });

  test("a run folder is created once, with archive/, an empty result.json and latest", () => {
    const parts = { task: "t", model: "none", agent: "dummy", runId: "one" };
    const run = createRunDir(dir.path, parts, () => {});
    expect(run.path).toBe(join(dir.path, "t", "none", "dummy", "one"));
    expect(readlinkSync(join(dir.path, "t", "none", "dummy", "latest"))).toBe("one");
    expect(() => createRunDir(dir.path, parts, () => {})).toThrow(msg.runDirExists(run.path));
    createRunDir(dir.path, { ...parts, runId: "two" }, () => {});
    expect(readlinkSync(join(dir.path, "t", "none", "dummy", "latest"))).toBe("two");
  });

  test("a run folder taken between the check and mkdir (here: a dangling link) is 'already has results'", () => {
    const parent = join(dir.path, "v", "none", "dummy");
    mkdirSync(parent, { recursive: true });
    symlinkSync("nowhere", join(parent, "raced"));
    expect(() => createRunDir(dir.path, { task: "v", model: "none", agent: "dummy", runId: "raced" }, () => {})).toThrow(
      msg.runDirExists(join(parent, "raced")),
    );
  });

  test("latest that cannot be replaced is a warning, not a failure", () => {
    const parent = join(dir.path, "u", "none", "dummy");
    mkdirSync(join(parent, "latest"), { recursive: true });
    writeFileSync(join(parent, "latest", "keep"), "");
    const warnings: string[] = [];
    createRunDir(dir.path, { task: "u", model: "none", agent: "dummy", runId: "r" }, (w) => warnings.push(w));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toStartWith(`Could not point ${join(parent, "latest")} at r: `);
  });
});

describe("reading what the container left", () => {
  test("a result without status gets the reference's status rule", () => {
    const run = join(dir.path, "res");
    mkdirSync(run);
    writeFileSync(join(run, "result.json"), JSON.stringify({ patch_result: { build_success: true, pov_passed: 0, pov_total: 1 }, runtime_result: { agent_duration: 3 } }));
    const r = readContainerResult(run);
    expect(r.produced).toBe(true);
    expect(Object.keys(r.patch_result)[0]).toBe("status");
    expect(r.patch_result.status).toBe("failed");
    expect(r.runtime_result).toEqual({ agent_duration: 3, agent_timeout: false, evaluator_timeout: false, agent_exit_code: null });
  });

  test("plugin report: copied without `started`; unreadable is a warning and []", () => {
    const archive = join(dir.path, "archive");
    mkdirSync(join(archive, "plugins"), { recursive: true });
    const file = join(archive, "plugins", "results.json");
    writeFileSync(file, JSON.stringify([{ name: "artifact", hook: "after-grading", status: "skipped", started: true, reason: "nothing" }]));
    expect(readPluginResults(archive, () => {})).toEqual([
      { name: "artifact", hook: "after-grading", status: "skipped", exit_code: 0, duration_seconds: 0, reason: "nothing" },
    ]);
    writeFileSync(file, "{oops");
    const warnings: string[] = [];
    expect(readPluginResults(archive, (w) => warnings.push(w))).toEqual([]);
    expect(warnings[0]).toStartWith(`Ignoring the unreadable plugin report ${file}: `);
  });
});

test("content hash: a new symlink changes it, .git does not", async () => {
  const { InputHash } = await import("../../src/run/content-hash.ts");
  const root = join(dir.path, "tree");
  mkdirSync(join(root, ".git"), { recursive: true });
  writeFileSync(join(root, "a"), "1");
  writeFileSync(join(root, ".git", "HEAD"), "x");
  const first = new InputHash().tree("t", root).digest();
  symlinkSync("a", join(root, "b"));
  expect(new InputHash().tree("t", root).digest()).not.toBe(first);
  const withLink = new InputHash().tree("t", root).digest();
  writeFileSync(join(root, ".git", "HEAD"), "y");
  // .git is not an input of a layer (builds never see it differently than git does)
  expect(new InputHash().tree("t", root).digest()).toBe(withLink);
});
