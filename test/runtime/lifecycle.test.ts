/** The sandbox lifecycle end to end: real users, real process groups, the compiled binary. */
import { afterAll, afterEach, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { dropUsers, ensureUsers, fixture, liveProcessesOf, newRun, type RunDirs, runEntrypoint, shAgent, SLEEP, sleepsLeft, uidOf, users } from "./harness.ts";

let dirs: RunDirs | undefined;
// Each run is several real processes and git calls; a busy 2-vCPU machine needs headroom.
setDefaultTimeout(90_000);
beforeAll(ensureUsers);
afterAll(dropUsers);
afterEach(() => dirs?.cleanup());

describe("grading", () => {
  test("the reference patch passes every check; final.patch, logs and ownership are in place", async () => {
    dirs = newRun();
    const r = await runEntrypoint(dirs, ["ssebench:apply-reference"]);
    expect(r.exitCode).toBe(0);
    const p = r.result.patch_result;
    expect(Object.keys(r.result)).toEqual(["patch_result", "runtime_result"]);
    expect(Object.keys(p)).toEqual(["status", "build_success", "pov_passed", "pov_total", "func_test_success", "intent_test_success", "error_msg", "error_log", "error_type", "checks", "set_aside"]);
    expect(p).toMatchObject({ status: "passed", build_success: true, pov_passed: 1, pov_total: 1, func_test_success: true, intent_test_success: true, error_msg: null, error_type: null });
    expect(p.checks.map((c: { check: string; status: string }) => `${c.check}:${c.status}`)).toEqual(["build:passed", "poc:passed", "function_test:passed", "intent_test:passed"]);
    expect(Object.keys(r.result.runtime_result)).toEqual(["agent_duration", "agent_timeout", "evaluator_timeout", "agent_exit_code"]);
    expect(r.result.runtime_result).toMatchObject({ agent_timeout: false, agent_exit_code: 0 });
    expect(readFileSync(join(dirs.results, "final.patch"), "utf8")).toContain("+  input=$(printf %s");
    for (const f of ["grading/build.log", "grading/poc-1.log", "agent.log", "entrypoint.log"]) expect(existsSync(join(dirs.results, f))).toBe(true);
  });

  test("an agent that changes nothing fails on the PoC, and the exit status is the agent's", async () => {
    dirs = newRun();
    const r = await runEntrypoint(dirs, shAgent("exit 3"));
    expect(r.exitCode).toBe(3);
    expect(r.result.runtime_result.agent_exit_code).toBe(3);
    expect(r.result.patch_result).toMatchObject({ status: "failed", build_success: true, pov_passed: 0, pov_total: 1, func_test_success: true, intent_test_success: false, error_msg: "PoC failed: pocs/poc.txt", error_type: null });
    expect(r.result.patch_result.error_log).toContain("stack smashing detected");
  });

  test("a broken build stops the later checks", async () => {
    dirs = newRun();
    const r = await runEntrypoint(dirs, shAgent("echo 'if then' >> calc.sh"));
    expect(r.result.patch_result).toMatchObject({ status: "failed", build_success: false, pov_total: null, func_test_success: null, intent_test_success: null, error_msg: "Build failed", error_type: null });
    // A control build of the original tree passed, so the failure is the agent's.
    expect(r.result.patch_result.checks.map((c: { tree: string; status: string }) => `${c.tree}:${c.status}`)).toEqual(["patched:failed", "original:passed"]);
  });

  test("a build or function test that fails without the agent's change is the environment's failure", async () => {
    dirs = newRun();
    // The image lacks a tool the build needs: no agent could pass, so nothing is scored.
    Bun.spawnSync(["sh", "-c", `sed -i 's/^set -e$/set -e; no-such-compiler --version/' ${join(dirs.taskRoot, "scripts/build.sh")}`]);
    let r = await runEntrypoint(dirs, ["ssebench:apply-reference"]);
    expect(r.result.patch_result).toMatchObject({ status: "error", error_type: "infra", build_success: null, error_msg: "The build fails without the agent's change too, so this environment cannot grade it" });
    expect(r.result.patch_result.error_log).toContain("no-such-compiler");
    dirs.cleanup();
    dirs = newRun();
    Bun.spawnSync(["sh", "-c", `echo 'exit 1' >> ${join(dirs.taskRoot, "scripts/test.sh")}`]);
    r = await runEntrypoint(dirs, ["ssebench:apply-reference"]);
    expect(r.result.patch_result).toMatchObject({ status: "error", error_type: "infra", error_msg: "The function test fails without the agent's change too, so this environment cannot grade it" });
    expect(r.result.patch_result.checks.map((c: { check: string; tree: string }) => `${c.check}:${c.tree}`)).toEqual(["build:patched", "poc:patched", "function_test:patched", "function_test:original"]);
  });

  test("the patch is binary-safe and carries new, deleted, renamed and committed changes", async () => {
    dirs = newRun();
    const script = [
      "printf '\\000\\001\\002\\377' > blob.bin",
      "git mv README README.md",
      "git rm -q tests/test_basic.sh",
      "echo new > added.txt",
      "git add -A && git -c user.name=a -c user.email=a@a commit -qm mine",
      "rm -rf .git", // history games do not matter: the base is root's copy
    ].join(" && ");
    const r = await runEntrypoint(dirs, shAgent(script));
    expect(r.exitCode).toBe(0);
    const patch = readFileSync(join(dirs.results, "final.patch"), "utf8");
    expect(patch).toContain("GIT binary patch");
    // A rename is a deletion and a new file (no rename detection: grading sets files aside by path).
    expect(patch).toContain("diff --git a/README b/README\ndeleted file mode");
    expect(patch).toContain("diff --git a/README.md b/README.md\nnew file mode");
    expect(patch).toContain("deleted file mode");
    expect(patch).toContain("new file mode");
    expect(r.result.patch_result.build_success).toBe(true); // it applied to the pristine copy
  });

  test("capturing the change is bounded in time and never writes into the pristine repository", async () => {
    dirs = newRun({ env: { SSE_GRADING_TIMEOUT: "1", SSE_MAX_FILE_MB: "100000", SSE_MAX_CHANGE_MB: "100000" } });
    await runEntrypoint(dirs, ["prepare"]);
    const objects = () => Bun.spawnSync(["sh", "-c", `find ${dirs!.work}/state/pristine/.git/objects -type f | sort`]).stdout.toString();
    const before = objects();
    const r = await runEntrypoint(dirs, shAgent("truncate -s 16G huge.bin && echo more >> README"));
    expect(r.result.patch_result).toMatchObject({ status: "error", error_type: "infra" });
    expect(r.result.patch_result.error_msg).toStartWith("Could not capture the agent's change: git add failed (time limit)");
    expect(objects()).toBe(before);
  });

  test("a huge file the agent leaves is its failure at once, never hashed and never an ungraded run", async () => {
    dirs = newRun({ env: { SSE_MAX_FILE_MB: "1" } });
    Bun.spawnSync(["truncate", "-s", "3M", join(dirs.source, "fixture.bin")]); // in the base: not the agent's
    const started = performance.now();
    const r = await runEntrypoint(dirs, shAgent("truncate -s 16G huge.bin && truncate -s 4M fixture2.bin && echo more >> README"));
    expect(r.exitCode).toBe(0);
    expect(r.result.patch_result).toMatchObject({ status: "failed", build_success: false, error_type: "change_too_large", error_msg: "Patch too large: the change has files over 1 MB" });
    expect(r.result.patch_result.error_log.split("\n").sort()).toEqual(["fixture2.bin (4194304 bytes)", "huge.bin (17179869184 bytes)"]);
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  test("a script that is missing is a grader error, not the agent's failure", async () => {
    dirs = newRun();
    Bun.spawnSync(["rm", join(dirs.taskRoot, "scripts/build.sh")]);
    const r = await runEntrypoint(dirs, shAgent("true"));
    expect(r.result.patch_result).toMatchObject({ status: "error", error_type: "grader" });
    expect(r.result.patch_result.error_msg).toContain("build script");
  });

  test("a check over SSE_CHECK_TIMEOUT is a timed-out failure of that check; grading goes on", async () => {
    dirs = newRun({ env: { SSE_CHECK_TIMEOUT: "1" } });
    // The agent's "fix" hangs on the PoC: its code, its failure.
    const r = await runEntrypoint(dirs, shAgent("sed -i 's/exit 139/sleep 300/' calc.sh"));
    const poc = r.result.patch_result.checks.find((c: { check: string }) => c.check === "poc");
    expect(poc).toMatchObject({ status: "timeout", exit_code: 143 });
    expect(r.result.patch_result).toMatchObject({ status: "failed", pov_passed: 0, func_test_success: true, error_type: "check_timeout" });
    expect(liveProcessesOf(uidOf(users.runner))).toEqual([]);
  });

  test("the whole grading limit gives error_type grading_timeout", async () => {
    dirs = newRun({ env: { SSE_GRADING_TIMEOUT: "1" } });
    Bun.spawnSync(["sh", "-c", `echo 'sleep 30' >> ${join(dirs.taskRoot, "scripts/build.sh")}`]);
    const r = await runEntrypoint(dirs, shAgent("true"));
    expect(r.result.patch_result).toMatchObject({ status: "error", error_type: "grading_timeout", error_msg: "Timeout (1s)" });
    expect(r.result.runtime_result.evaluator_timeout).toBe(true);
  });
});

describe("agent", () => {
  test("runs as model with no groups, argv kept as argv, an explicit environment", async () => {
    dirs = newRun({ env: { SSE_SECRET_INTERNAL: "x", GOFLAGS: "-mod=vendor", SSE_AGENT_ENV: "SSE_AGENT_MODE", SSE_AGENT_MODE: "fast" } });
    const r = await runEntrypoint(dirs, ["--", "/bin/sh", "-c", 'printf "%s|" "$@" > "$SSE_ARCHIVE/args"; id -u > "$SSE_ARCHIVE/id"; grep ^Groups: /proc/self/status > "$SSE_ARCHIVE/groups"; env > "$SSE_ARCHIVE/env"', "sh", "two words", "it's", "$HOME"]);
    expect(r.exitCode).toBe(0);
    const read = (f: string) => readFileSync(join(dirs!.archive, f), "utf8");
    expect(read("args")).toBe("two words|it's|$HOME|");
    expect(Number(read("id"))).toBe(uidOf(users.model));
    expect(read("groups").trim()).toBe("Groups:");
    const env = read("env");
    expect(env).toContain(`USER=${users.model}`);
    expect(env).toContain(`HOME=/home/${users.model}`);
    expect(env).toContain("SSE_API_KEY=sk-test-secret");
    expect(env).toContain("GOFLAGS=-mod=vendor");
    expect(env).toContain("SSE_AGENT_MODE=fast");
    expect(env).not.toContain("SSE_SECRET_INTERNAL");
    expect(env).not.toContain("SSE_RESULTS");
    expect(env).not.toContain("SSE_REFERENCE_PATCH");
    const task = JSON.parse(readFileSync(env.match(/SSE_TASK_FILE=(.*)/)![1]!, "utf8"));
    expect(task).toMatchObject({ id: "demo-calc", issue: "calc crashes on long inputs" });
    expect(task.crash_reports[0].text).toContain("overflow");
    expect(task.build_script).toBe(readFileSync(join(fixture, "task", "scripts", "build.sh"), "utf8"));
    expect(task.test_script).toBe(readFileSync(join(fixture, "task", "scripts", "test.sh"), "utf8"));
    // The archive goes back to its owner, the results to theirs.
    expect(statSync(join(dirs.archive, "env")).uid).toBe(0);
  });

  test("TIMEOUT: TERM, grace, KILL of the group, 124, and no grandchild outlives it", async () => {
    dirs = newRun({ env: { TIMEOUT: "1" } });
    const started = performance.now();
    const r = await runEntrypoint(dirs, shAgent(`(trap '' TERM; sleep ${SLEEP}) & setsid sh -c 'sleep ${SLEEP + 1}' & trap '' TERM; sleep ${SLEEP + 2}`));
    expect(r.exitCode).toBe(124);
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(r.result.runtime_result).toMatchObject({ agent_timeout: true, agent_exit_code: 124 });
    expect(r.result.patch_result.status).toBe("failed"); // still graded
    expect(liveProcessesOf(uidOf(users.model))).toEqual([]);
    expect(sleepsLeft(0, 1, 2)).toEqual([]);
  });

  test("results and archive are handed to their host owners at the end", async () => {
    dirs = newRun({ plugins: [{ name: "notes", hook: "after-grading", script: 'mkdir -p "$SSE_ARCHIVE/notes" && echo hi > "$SSE_ARCHIVE/notes/n.txt"' }] });
    Bun.spawnSync(["chown", "4321:4322", dirs.results]);
    Bun.spawnSync(["chown", "4331:4332", dirs.archive]);
    const r = await runEntrypoint(dirs, shAgent('echo x > "$SSE_ARCHIVE/dialog.jsonl"'));
    expect(r.exitCode).toBe(0);
    const owner = (p: string) => `${statSync(p).uid}:${statSync(p).gid}`;
    for (const f of ["result.json", "final.patch", "agent.log", "grading", "grading/build.log"]) expect(owner(join(dirs.results, f))).toBe("4321:4322");
    for (const f of ["", "dialog.jsonl", "plugins", "plugins/results.json", "notes/n.txt"]) expect(owner(join(dirs.archive, f))).toBe("4331:4332");
  });

  test("the hand-back is whole and safe: a tree deeper than PATH_MAX, setgid and world-writable entries, a FIFO and links in the archive", async () => {
    dirs = newRun({ plugins: [{ name: "notes", hook: "after-grading", script: "true" }] });
    Bun.spawnSync(["chown", "4321:4322", dirs.results]);
    Bun.spawnSync(["chown", "4331:4332", dirs.archive]);
    // 4 × 50 levels of a 40-character name: about 8200 bytes of path, beyond PATH_MAX (4096), in
    // few enough folders that the hand-back walk and the clean-up stay quick on a loaded machine.
    const chunk = Array.from({ length: 50 }, () => "d".repeat(40)).join("/");
    const script = [
      `bash -c 'cd "$SSE_ARCHIVE" && for i in 1 2 3 4; do mkdir -p ${chunk} && cd -P ${chunk}; done && echo deep > leaf'`,
      'cd "$SSE_ARCHIVE"',
      "mkdir -m 2777 shared && echo x > shared/f && chmod 4777 shared/f",
      "mkdir -p plugins && mkfifo plugins/results.json && ln -s /etc/shadow plugins/notes.log && ln -s /dev/zero zero",
    ].join("; ");
    const r = await runEntrypoint(dirs, shAgent(script));
    expect(r.exitCode).toBe(0);
    const archive = dirs.archive;
    const find = (...args: string[]) => Bun.spawnSync(["find", archive, ...args]).stdout.toString().trim();
    expect(find("-name", "leaf").length).toBeGreaterThan(4096);
    expect(find("!", "-user", "4331")).toBe("");
    expect(find("!", "-type", "l", "-perm", "/7022")).toBe("");
    // The plugin report was written over what the agent left there.
    expect(statSync(join(dirs.archive, "plugins", "results.json")).isFile()).toBe(true);
    expect(JSON.parse(readFileSync(join(dirs.results, "plugin-results.json"), "utf8"))).toEqual([expect.objectContaining({ name: "notes", status: "ok" })]);
  });

  test("a first word without a slash is looked up on PATH, as the dummy agent's `echo` is", async () => {
    dirs = newRun();
    const r = await runEntrypoint(dirs, ["echo", "dummy_QAQ"]);
    expect(r.exitCode).toBe(0);
    expect(readFileSync(join(dirs.results, "agent.log"), "utf8")).toBe("dummy_QAQ\n");
    expect(r.result.patch_result.status).toBe("failed");
  });

  test("an agent that cannot start is an infra error; the grading hooks still run", async () => {
    dirs = newRun({ plugins: [{ name: "report", hook: "before-grading", script: "true" }] });
    const r = await runEntrypoint(dirs, ["--", "/nonexistent/agent"]);
    expect(r.exitCode).toBe(1);
    expect(r.result.patch_result).toMatchObject({ status: "error", error_type: "infra" });
    expect(r.result.patch_result.error_msg).toStartWith("Failed to start agent");
    expect(r.pluginResults).toEqual([expect.objectContaining({ name: "report", status: "ok" })]);
  });
});

describe("command line", () => {
  test("usage errors exit 2 with one line", async () => {
    dirs = newRun();
    for (const argv of [[], ["--mode", "sidecar", "true"], ["--mode", "cloud", "true"], ["--bogus", "true"]]) {
      const r = await runEntrypoint(dirs, argv);
      expect(r.exitCode).toBe(2);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
  });

  test("missing SSE_ARCHIVE or a bad TIMEOUT stops before the agent", async () => {
    dirs = newRun();
    delete dirs.env.SSE_ARCHIVE;
    let r = await runEntrypoint(dirs, shAgent("touch /tmp/should-not-run"));
    expect(r).toMatchObject({ exitCode: 1, stderr: "ssebench-entrypoint: SSE_ARCHIVE environment variable is required\n" });
    dirs.env.SSE_ARCHIVE = dirs.archive;
    dirs.env.TIMEOUT = "soon";
    r = await runEntrypoint(dirs, shAgent("true"));
    expect(r).toMatchObject({ exitCode: 1, stderr: 'ssebench-entrypoint: TIMEOUT="soon" is not a positive number of seconds\n' });
  });

  test("a bad task config or a missing user stops the run with one line naming the problem", async () => {
    dirs = newRun();
    dirs.env.SSE_MODEL_USER = "nosuchuser";
    let r = await runEntrypoint(dirs, shAgent("true"));
    expect(r).toMatchObject({ exitCode: 1, stderr: 'ssebench-entrypoint: user "nosuchuser" does not exist; the tool layer must create it\n' });
    delete dirs.env.SSE_MODEL_USER;
    const config = join(dirs.taskRoot, "config.yaml");
    Bun.spawnSync(["sed", "-i", "s|^  build: scripts/build.sh|  build: /abs/build.sh|", config]);
    r = await runEntrypoint(dirs, shAgent("true"));
    expect(r).toMatchObject({ exitCode: 1, stderr: `${config}: scripts.build must be relative to the task root\n` });
    Bun.spawnSync(["sh", "-c", `printf 'source: [\n' > ${config}`]);
    r = await runEntrypoint(dirs, shAgent("true"));
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toStartWith(`${config}: `);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });

  test("a set-up failure after the results folder exists leaves an infra result.json there", async () => {
    dirs = newRun();
    dirs.env.SSE_SOURCE = join(dirs.base, "missing-tree");
    const r = await runEntrypoint(dirs, shAgent("true"));
    const problem = `ssebench-entrypoint: preparing the source tree failed: source tree ${dirs.env.SSE_SOURCE} does not exist`;
    expect(r).toMatchObject({ exitCode: 1, stderr: `${problem}\n` });
    expect(r.result.patch_result).toMatchObject({ status: "error", error_type: "infra", error_msg: problem });
  });

  test("--version", async () => {
    dirs = newRun();
    const r = await runEntrypoint(dirs, ["--version"]);
    expect(r.stdout).toMatch(/^ssebench-entrypoint \d+\.\d+\.\d+\n$/);
  });
});

describe("prepare", () => {
  test("squashes any history to one commit, keeps ignored files for grading, and is done once", async () => {
    dirs = newRun();
    const git = (args: string) => Bun.spawnSync(["sh", "-c", `cd ${dirs!.source} && git ${args}`], { env: { PATH: process.env.PATH!, HOME: dirs!.base } });
    git("init -q && git add -A && git -c user.name=u -c user.email=u@u commit -qm one && echo x > later && git add later && git -c user.name=u -c user.email=u@u commit -qm fix-leak");
    const p = await runEntrypoint(dirs, ["prepare"]);
    expect(p.exitCode).toBe(0);
    expect(p.stdout).toContain('msg="Source tree prepared"');
    const r = await runEntrypoint(dirs, shAgent('git rev-list --count HEAD > "$SSE_ARCHIVE/count"; git log --format=%an%n%s > "$SSE_ARCHIVE/log"; git status --porcelain > "$SSE_ARCHIVE/status"'));
    expect(r.stdout).not.toContain("Source tree prepared"); // the image did it
    const read = (f: string) => readFileSync(join(dirs!.archive, f), "utf8");
    expect(read("count").trim()).toBe("1");
    expect(read("log")).toBe("SSEBench Agent\nbuggy commit\n");
    expect(read("status")).toBe("");
    // vendor/ is git-ignored but the build needs it: the pristine copy kept it.
    expect(r.result.patch_result.build_success).toBe(true);
    expect(statSync(dirs.source).uid).toBe(uidOf(users.model));
  });
});
