import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { msg } from "../../../src/run/messages.ts";
import { emptyVerdicts } from "../../../src/formats/run/result.ts";
import { judgeResult, readContainerResult, readPluginResults } from "../../../src/run/record/record.ts";
import { readRunFile } from "../../../src/run/record/safe-read.ts";
import { createRunDir, newRunId } from "../../../src/run/record/results.ts";
import { tempDir } from "../../helpers/cli.ts";

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

  test("plugin report: from the results dir, selected plugins only, without `started`; unreadable is a warning and []", () => {
    const run = join(dir.path, "plugins-run");
    mkdirSync(join(run, "archive", "plugins"), { recursive: true });
    const file = join(run, "plugin-results.json");
    // The archive's copy is the agent's to forge: never read.
    writeFileSync(join(run, "archive", "plugins", "results.json"), JSON.stringify([{ name: "forged", hook: "after-grading", status: "ok" }]));
    expect(readPluginResults(run, ["artifact"], () => {})).toEqual([]);
    writeFileSync(file, JSON.stringify([
      { name: "artifact", hook: "after-grading", status: "skipped", started: true, reason: "nothing" },
      { name: "forged", hook: "after-grading", status: "ok" },
    ]));
    expect(readPluginResults(run, ["artifact"], () => {})).toEqual([
      { name: "artifact", hook: "after-grading", status: "skipped", exit_code: 0, duration_seconds: 0, reason: "nothing" },
    ]);
    expect(readPluginResults(run, [], () => {})).toEqual([]);
    writeFileSync(file, "{oops");
    const warnings: string[] = [];
    expect(readPluginResults(run, ["artifact"], (w) => warnings.push(w))).toEqual([]);
    expect(warnings[0]).toStartWith(`Ignoring the unreadable plugin report ${file}: `);
  });

  test("host reads: a symlink, a FIFO, /dev/zero or an oversized file is refused at once", () => {
    const run = join(dir.path, "unsafe");
    mkdirSync(run);
    symlinkSync("/etc/passwd", join(run, "link"));
    symlinkSync("/dev/zero", join(run, "zero"));
    expect(Bun.spawnSync(["mkfifo", join(run, "fifo")]).exitCode).toBe(0);
    writeFileSync(join(run, "big"), "x".repeat(101));
    writeFileSync(join(run, "ok"), "x".repeat(100));
    const why = (name: string) => {
      try {
        return readRunFile(join(run, name), 100).length;
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(why("link")).toBe("is a symbolic link");
    expect(why("zero")).toBe("is a symbolic link");
    expect(why("fifo")).toBe("is not a regular file");
    expect(why("big")).toBe("is larger than 100 bytes");
    expect(why("ok")).toBe(100);
    rmSync(join(run, "link"));
    symlinkSync("fifo", join(run, "result.json"));
    const warnings: string[] = [];
    expect(readContainerResult(run, (w) => warnings.push(w)).produced).toBe(false);
    expect(warnings).toEqual([msg.resultUnreadable(join(run, "result.json"), "is a symbolic link")]);
  });
});

describe("judging the container's result", () => {
  const check = (c: string, status = "passed", poc: string | null = null) => ({ check: c, poc, tree: "patched", status, exit_code: 0, duration_seconds: 0, log: null });
  const graded = (patch: Record<string, unknown>) => ({
    patch_result: { ...emptyVerdicts(), error_msg: null, error_log: null, error_type: null, checks: [], ...patch } as never,
    runtime_result: { agent_duration: 1, agent_timeout: false, evaluator_timeout: false, agent_exit_code: 137 },
    produced: true,
  });
  const judge = (result: ReturnType<typeof graded>, state = { oomKilled: false, exitCode: 0 as number | null }) => {
    const errors: string[] = [];
    const judged = judgeResult(result, { failure: undefined, interrupted: undefined, state, memory: "1g", error: (l) => errors.push(l) });
    return { patch: judged.patch_result, errors };
  };
  const failed = graded({ status: "failed", build_success: true, pov_passed: 0, pov_total: 1, checks: [check("build"), check("poc", "failed", "pocs/1")] });
  const passed = graded({ status: "passed", build_success: true, pov_passed: 1, pov_total: 1, func_test_success: true, checks: [check("build"), check("poc", "passed", "pocs/1"), check("function_test")] });

  test("a graded result is kept whatever the exit status: OOM + 137 does not turn `failed` into an error", () => {
    expect(judge(failed, { oomKilled: true, exitCode: 137 }).patch).toEqual(failed.patch_result);
    expect(judge(passed, { oomKilled: true, exitCode: 137 }).patch).toEqual(passed.patch_result);
  });

  test("an OOM kill explains a missing result", () => {
    const none = { ...graded({ status: "error", error_msg: msg.noResultError(), error_type: "infra" }), produced: false };
    expect(judge(none, { oomKilled: true, exitCode: 137 }).patch).toMatchObject({ status: "error", error_msg: msg.oomKilled("1g"), error_type: "infra" });
  });

  test("a `passed` that its checks do not back is an error of the run", () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ status: "passed", build_success: true, pov_passed: 1, pov_total: 1 }, "status passed with no passing check"],
      [{ status: "passed", checks: [] }, "status passed, but its verdicts say error"],
      [{ status: "passed", build_success: false, pov_passed: 1, pov_total: 1, checks: [check("build")] }, "status passed, but its verdicts say failed"],
      [{ status: "passed", build_success: true, pov_passed: 1, pov_total: 1, checks: [check("build"), check("poc", "failed", "pocs/1")] }, "status passed, but check poc pocs/1 is failed"],
      [{ status: "passed", build_success: true, pov_passed: 2, pov_total: 2, checks: [check("build"), check("poc", "passed", "pocs/1")] }, "2/2 PoCs with 1 passed poc check(s)"],
      [{ status: "passed", build_success: true, pov_passed: 1, pov_total: 1, func_test_success: true, checks: [check("build"), check("poc", "passed", "p")] }, "func_test_success true with 0 function_test check(s)"],
      [{ status: "passed", build_success: null, pov_passed: 1, pov_total: 1, checks: [check("build"), check("poc", "passed", "p")] }, "build_success null with 1 build check(s)"],
      [{ status: "great", checks: [] }, "status 'great'"],
    ];
    for (const [patch, detail] of cases) {
      const { patch: judged, errors } = judge(graded(patch));
      expect(judged).toMatchObject({ status: "error", error_type: "infra", error_msg: msg.resultContradicts(detail) });
      expect(errors).toEqual([msg.resultContradicts(detail)]);
    }
    expect(judge(passed).patch).toEqual(passed.patch_result);
  });
});

test("content hash: a new symlink changes it, .git does not", async () => {
  const { InputHash } = await import("../../../src/run/layers/content-hash.ts");
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
