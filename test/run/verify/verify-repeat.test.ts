/**
 * `dataset verify --repeat N`: the per-check comparison of repetitions (pure), and verifyTasks over
 * the real orchestrator with a fake docker CLI whose container grades differently per run. The
 * real engine is exercised by test/e2e/verify.test.ts.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { DockerCallOptions, DockerResult } from "../../../src/run/backends/docker.ts";
import type { CheckRecord } from "../../../src/formats/run/result.ts";
import { checkOutcomes, describeDisagreement, findDisagreements, mergeRepetitionFailures } from "../../../src/run/verify/verify-repeat.ts";
import { type TaskVerdict, verdictRow, verifyTasks } from "../../../src/run/verify/verify.ts";
import { demoDir } from "../../e2e/helpers.ts";
import { tempDir } from "../../helpers/cli.ts";
import { checkoutHome, FakeDocker } from "../fake-docker.ts";

const rec = (check: CheckRecord["check"], status: CheckRecord["status"], poc: string | null = null, tree: CheckRecord["tree"] = "patched"): CheckRecord => ({
  check,
  poc,
  tree,
  status,
  exit_code: status === "passed" ? 0 : 1,
  duration_seconds: 0.1,
  log: null,
});

describe("comparing repetitions check by check", () => {
  test("each check is named by its kind, its PoC and a control run's tree", () => {
    const m = checkOutcomes([rec("build", "passed"), rec("poc", "failed", "pocs/a.txt"), rec("function_test", "failed"), rec("function_test", "passed", null, "original")]);
    expect([...m]).toEqual([
      ["build", "passed"],
      ["poc pocs/a.txt", "failed"],
      ["function_test", "failed"],
      ["function_test (original tree)", "passed"],
    ]);
    expect([...checkOutcomes(undefined)]).toEqual([]);
  });

  test("repetitions that agree have no disagreement", () => {
    const same = { reference: [rec("build", "passed"), rec("poc", "passed", "pocs/a.txt")], dummy: [rec("poc", "failed", "pocs/a.txt")] };
    expect(findDisagreements(["reference", "dummy"], [same, same, same])).toEqual([]);
  });

  test("a check that differs is reported with the repetitions on each side, a missing run as not run", () => {
    const pass = { reference: [rec("build", "passed"), rec("poc", "passed", "pocs/a.txt")], dummy: [rec("poc", "failed", "pocs/a.txt")] };
    const flaky = { reference: [rec("build", "passed"), rec("poc", "failed", "pocs/a.txt")], dummy: [rec("poc", "failed", "pocs/a.txt")] };
    const noResult = { reference: undefined, dummy: [rec("poc", "failed", "pocs/a.txt")] };
    const found = findDisagreements(["reference", "dummy"], [pass, flaky, pass, noResult]);
    expect(found).toEqual([
      { agent: "reference", check: "build", outcomes: { passed: [1, 2, 3], "not run": [4] } },
      { agent: "reference", check: "poc pocs/a.txt", outcomes: { passed: [1, 3], failed: [2], "not run": [4] } },
    ]);
    expect(found.map(describeDisagreement)).toEqual([
      "repetitions disagree on reference build: passed in 1, 2, 3; not run in 4",
      "repetitions disagree on reference poc pocs/a.txt: passed in 1, 3; failed in 2; not run in 4",
    ]);
  });

  test("a failure of every repetition is kept once; one of some names them", () => {
    expect(mergeRepetitionFailures([["a"]])).toEqual(["a"]);
    expect(mergeRepetitionFailures([["a", "b"], ["a"], ["a", "b", "b"]])).toEqual(["a", "repetitions 1, 3: b"]);
    expect(mergeRepetitionFailures([[], ["c"]])).toEqual(["repetition 2: c"]);
  });
});

/** The leak audit's containers (image-audit.ts): the case image's (`audit SOURCE`) and the agent's view (`audit`). */
const isAudit = (args: readonly string[]) => args[0] === "run" && (args.at(-2) === "audit" || args.at(-1) === "audit");

/** Grades each container run with the next result of `results`; the leak audit finds nothing. */
class ScriptedDocker extends FakeDocker {
  constructor(readonly results: unknown[]) {
    super();
  }
  override async call(args: readonly string[], opts: DockerCallOptions = {}): Promise<DockerResult> {
    if (isAudit(args)) {
      this.calls.push([...args]);
      return { code: 0, stdout: "", stderr: "" };
    }
    if (args[0] === "cp") {
      // the reference patch copied out of the case image
      this.calls.push([...args]);
      writeFileSync(args.at(-1) as string, "");
      return { code: 0, stdout: "", stderr: "" };
    }
    if (args[0] === "run") this.container = { result: this.results.shift() };
    return super.call(args, opts);
  }
}

const POC = "pocs/quotes.txt";
const graded = (pocFixed: boolean) => {
  const checks = [rec("build", "passed"), rec("poc", pocFixed ? "passed" : "failed", POC), rec("function_test", "passed")];
  if (pocFixed) checks.push(rec("intent_test", "passed"));
  return {
    patch_result: {
      status: pocFixed ? "passed" : "failed",
      build_success: true,
      pov_passed: pocFixed ? 1 : 0,
      pov_total: 1,
      func_test_success: true,
      intent_test_success: pocFixed ? true : null,
      error_msg: null,
      error_log: null,
      error_type: null,
      checks,
      set_aside: [],
    },
    runtime_result: { agent_duration: 1, agent_timeout: false, evaluator_timeout: false, agent_exit_code: 0 },
  };
};

describe("verifyTasks --repeat with a fake docker", () => {
  const scratch = tempDir("ssebench-verify-repeat-");
  process.env.XDG_CACHE_HOME = join(scratch.path, "cache");
  afterAll(scratch.cleanup);
  const home = checkoutHome(scratch.path);
  const task = "htmlesc-quote-overflow";

  async function verify(results: unknown[], repeat: number, output: string) {
    const docker = new ScriptedDocker(results);
    docker.images.set("ghcr.io/42-b3yond-6ug/ssebench/base-generic-c:1.0.0", { id: "sha256:base", inputs: "" });
    const progress: string[] = [];
    const outcome = await verifyTasks(
      { dir: demoDir, tasks: [task], output: join(scratch.path, output), timeout: 60, repeat },
      { docker, home, env: {}, onRepetition: (t, k, r) => progress.push(`${t} ${k} ${r.failures.length}`) },
    );
    return { outcome, progress, docker };
  }

  test("three agreeing repetitions: ok, six runs, one log per agent and repetition", async () => {
    const { outcome, progress, docker } = await verify([graded(true), graded(false), graded(true), graded(false), graded(true), graded(false)], 3, "agree");
    const v = outcome.verdicts[0] as TaskVerdict;
    expect(v.ok).toBe(true);
    expect(v.failures).toEqual([]);
    expect(v.disagreements).toEqual([]);
    expect(v.repetitions).toHaveLength(3);
    expect(v.runs).toEqual(v.repetitions[0]?.runs as TaskVerdict["runs"]);
    expect(progress).toEqual([`${task} 1 0`, `${task} 2 0`, `${task} 3 0`]);
    expect(docker.calls.filter((c) => c[0] === "run" && !isAudit(c))).toHaveLength(6);
    // once per task, whatever the repetitions: the case image as root, then what the dummy's container ran as the agent
    const audits = docker.calls.filter(isAudit);
    expect(audits.map((c) => c[c.indexOf("--user") + 1])).toEqual(["0:0", "model"]);
    expect(audits[1]).toContain(v.runs.dummy?.agent_image as string);
    expect(v.audit_seconds).toBeGreaterThanOrEqual(0);
    for (const k of [1, 2, 3]) for (const agent of ["reference", "dummy"]) expect(existsSync(join(scratch.path, "agree", "logs", `${task}.${agent}.${k}.log`))).toBe(true);
    expect(verdictRow(v)).toEqual([task, "passed (PoC 1/1 fixed) ×3", "failed (PoC 0/1 fixed) ×3", v.seconds.toFixed(1), "ok"]);
  });

  test("a PoC the reference fixes in only some repetitions: the check, the repetitions on each side, FLAKY", async () => {
    const { outcome } = await verify([graded(true), graded(false), graded(false), graded(false), graded(true), graded(false)], 3, "flaky");
    const v = outcome.verdicts[0] as TaskVerdict;
    expect(v.ok).toBe(false);
    expect(v.disagreements).toEqual([
      { agent: "reference", check: `poc ${POC}`, outcomes: { passed: [1, 3], failed: [2] } },
      { agent: "reference", check: "intent_test", outcomes: { passed: [1, 3], "not run": [2] } },
    ]);
    expect(v.failures).toEqual([
      `repetitions disagree on reference poc ${POC}: passed in 1, 3; failed in 2`,
      "repetitions disagree on reference intent_test: passed in 1, 3; not run in 2",
      "repetition 2: reference: graded failed",
      "repetition 2: reference: 0/1 PoCs stopped triggering",
      "repetition 2: reference: the hidden tests did not pass",
    ]);
    expect(verdictRow(v).slice(1, 3)).toEqual(["passed (PoC 1/1 fixed) | failed (PoC 0/1 fixed)", "failed (PoC 0/1 fixed) ×3"]);
    expect(verdictRow(v)[4]).toBe(`FLAKY: repetitions disagree on reference poc ${POC}: passed in 1, 3; failed in 2`);
    const written = JSON.parse(readFileSync(join(scratch.path, "flaky", "tasks", `${task}.json`), "utf8")) as TaskVerdict;
    expect(written.disagreements).toEqual(v.disagreements);
  });

  test("without --repeat: one repetition, the logs keep their names", async () => {
    const { outcome, progress } = await verify([graded(true), graded(false)], 1, "once");
    const v = outcome.verdicts[0] as TaskVerdict;
    expect(v.ok).toBe(true);
    expect(v.repetitions).toHaveLength(1);
    expect(progress).toEqual([]);
    expect(existsSync(join(scratch.path, "once", "logs", `${task}.reference.log`))).toBe(true);
    expect(verdictRow(v)[1]).toBe("passed (PoC 1/1 fixed)");
  });
});
