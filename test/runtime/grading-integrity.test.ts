/**
 * Grading integrity (issue 9 items 6, 9, 10): hostile agents that try to read the answers or stub
 * the build and tests, and honest ones that must still pass. Real uids, the compiled entrypoint.
 */
import { afterAll, afterEach, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { copyFileSync, cpSync, existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "../helpers/cli.ts";
import { dropUsers, ensureUsers, newRun, type RunDirs, runEntrypoint, shAgent } from "./harness.ts";

let dirs: RunDirs | undefined;
setDefaultTimeout(90_000);
beforeAll(ensureUsers);
afterAll(dropUsers);
afterEach(() => dirs?.cleanup());

const ANSWERS = { hidden: "diffs/test.diff", fix: "diffs/patch.diff", poc: "pocs/poc.txt" };

/** An agent script that applies the task's fix (copied where the agent can read it). */
function applyFix(d: RunDirs): string {
  copyFileSync(d.reference, join(d.base, "fix.diff"));
  return `git apply ${join(d.base, "fix.diff")}`;
}

test("each check's scripts see only the answers that check needs (the agent's code probes them all)", async () => {
  dirs = newRun();
  const d = dirs;
  // The task's build runs the program it built once (as many builds run their generated tools).
  const build = join(d.taskRoot, "scripts/build.sh");
  writeFileSync(build, `${readFileSync(build, "utf8")}./build/calc /dev/null >/dev/null\n`);
  // The agent's calc reports which answers it can read into whatever check log it runs in.
  const probes = Object.entries(ANSWERS)
    .map(([name, rel]) => `if cat "${d.taskRoot}/${rel}" >/dev/null 2>&1; then echo "probe:${name}=OPEN" >&2; else echo "probe:${name}=closed" >&2; fi`)
    .join("\n");
  writeFileSync(join(d.base, "probe.sh"), `${probes}\n`);
  const r = await runEntrypoint(d, shAgent(`sed -i '1r ${join(d.base, "probe.sh")}' calc.sh`));
  expect(r.result.patch_result.checks.map((c: { check: string }) => c.check)).toEqual(["build", "poc", "function_test", "intent_test"]);
  const seen = (log: string) => readFileSync(join(d.results, "grading", log), "utf8").split("\n").filter((l) => l.startsWith("probe:"));
  const uniq = (lines: string[]) => [...new Set(lines)];
  const closed = ["probe:hidden=closed", "probe:fix=closed", "probe:poc=closed"];
  expect(uniq(seen("build.log"))).toEqual(closed);
  expect(uniq(seen("poc-1.log"))).toEqual(["probe:hidden=closed", "probe:fix=closed", "probe:poc=OPEN"]);
  expect(uniq(seen("function_test.log"))).toEqual(closed);
  // The hidden diff is applied by grading itself: never readable, so its being readable names no check.
  expect(uniq(seen("intent_test.log"))).toEqual(closed);
});

test("the program under test cannot tell which check runs it: environment, working directory and home alike in every check, the tool API's too; each log marked as agent output", async () => {
  dirs = newRun();
  const d = dirs;
  // The agent's calc prints what it can see of its surroundings wherever it runs; the agent also
  // runs the functional test through the tool API (its reply holds the same output).
  const build = join(d.taskRoot, "scripts/build.sh");
  writeFileSync(build, `${readFileSync(build, "utf8")}./build/calc /dev/null >/dev/null\n`);
  writeFileSync(join(d.base, "probe.sh"), `{ echo "cwd=$(pwd -P)"; env | sort; } | sed 's/^/probe:/' >&2\n`);
  const agent = join(repoRoot, "test/e2e/fixtures/tool-agent/tool-agent.sh");
  d.env.SSE_DIFFICULTY = "0";
  const r = await runEntrypoint(d, ["--", "/bin/bash", "-c", `sed -i '1r ${join(d.base, "probe.sh")}' calc.sh && bash ${agent} POST:/sse/v1/check/function_test`]);
  expect(r.result.patch_result.checks.map((c: { check: string }) => c.check)).toEqual(["build", "poc", "function_test", "intent_test"]);
  const probeLines = (text: string) => [...new Set(text.split("\n").filter((l) => l.startsWith("probe:")))];
  const seen: Record<string, string[]> = {};
  for (const log of ["build", "poc-1", "function_test", "intent_test"]) {
    const text = readFileSync(join(d.results, "grading", `${log}.log`), "utf8");
    const check = log === "poc-1" ? "poc" : log;
    expect(text.split("\n")[0]).toBe(`[ssebench: the ${check} check's script and the agent's code it ran wrote what follows: agent output, which may hold anything that code could read]`);
    seen[log] = probeLines(text);
  }
  const reply = readdirSync(join(d.archive, "tool-agent")).find((f) => f.endsWith("check_function_test"))!;
  seen.toolApi = probeLines(JSON.parse(readFileSync(join(d.archive, "tool-agent", reply), "utf8").replace(/^\d+\n/, "")).stdout);
  const all = Object.values(seen).flat();
  expect(all.some((l) => l.startsWith("probe:cwd="))).toBe(true);
  expect(all.filter((l) => /^probe:SSE_/.test(l))).toEqual([]);
  expect(all.filter((l) => /build|poc|function|intent|tool-api|check/i.test(l.replace(d.base, "")))).toEqual([]);
  // Every check's tree and home are <work>/scratch/<16 hex digits>/…: the same once that is masked.
  const masked = (lines: string[]) => lines.map((l) => l.replace(/\/scratch\/[0-9a-f]{16}\//g, "/scratch/*/")).sort();
  expect(masked(seen.build!)).toContain(`probe:cwd=${d.work}/scratch/*/tree`);
  expect(masked(seen.build!)).toContain(`probe:HOME=${d.work}/scratch/*/home`);
  for (const [where, lines] of Object.entries(seen)) expect({ where, lines: masked(lines) }).toEqual({ where, lines: masked(seen.build!) });
});

test("honest agent: a line added to .gitignore that matches a tracked test file keeps that file in the change", async () => {
  dirs = newRun();
  // `test_*` (meant for a test binary) also matches the tracked tests/test_basic.sh.
  const r = await runEntrypoint(dirs, shAgent(`${applyFix(dirs)} && echo 'test_*' >> .gitignore && echo '# checked' >> tests/test_basic.sh`));
  const patch = readFileSync(join(dirs.results, "final.patch"), "utf8");
  expect(patch).not.toContain("deleted file");
  expect(patch).toContain("+test_*");
  expect(patch).toContain("+# checked");
  expect(r.result.patch_result).toMatchObject({ status: "passed", func_test_success: true, intent_test_success: true });
});

/** The fixture as a make project: the task's scripts run `make`, the tree holds the Makefile. */
function makeProject(d: RunDirs): void {
  const recipe = "\tmkdir -p build/vendor && cp calc.sh build/calc && cp vendor/lib.sh build/vendor/lib.sh && chmod +x build/calc\n";
  writeFileSync(join(d.source, "Makefile"), `build/calc: calc.sh vendor/lib.sh\n${recipe}test: build/calc\n\tfor t in tests/*.sh; do sh $$t || exit 1; done\n.PHONY: test\n`);
  writeFileSync(join(d.taskRoot, "scripts/build.sh"), "#!/bin/sh\nexec make -s build/calc\n");
  writeFileSync(join(d.taskRoot, "scripts/test.sh"), "#!/bin/sh\nexec make -s test\n");
}

test("hostile agent: a stub Makefile (do-nothing program, echoing test target) over the unfixed bug fails", async () => {
  dirs = newRun();
  makeProject(dirs);
  const stub = "build/calc:\n\tmkdir -p build && printf '#!/bin/sh\\necho 1\\n' > build/calc && chmod +x build/calc\ntest:\n\t@echo all tests passed\n.PHONY: test build/calc\n";
  writeFileSync(join(dirs.base, "stub.mk"), stub);
  const r = await runEntrypoint(dirs, shAgent(`cp ${join(dirs.base, "stub.mk")} Makefile`));
  expect(readFileSync(join(dirs.results, "final.patch"), "utf8")).toContain("+\t@echo all tests passed");
  expect(r.result.patch_result).toMatchObject({ status: "failed", build_success: true, pov_passed: 0, intent_test_success: false, error_msg: "PoC failed: pocs/poc.txt" });
  expect(r.result.patch_result.set_aside).toEqual([{ path: "Makefile", reason: "build_file" }]);
});

/**
 * The fixture as a make project whose sources are listed in the Makefile (SRCS) and joined into
 * build/calc: calc.c is calc.sh under a source file's name (the recipe rule goes by names).
 */
function listedSourcesProject(d: RunDirs): void {
  renameSync(join(d.source, "calc.sh"), join(d.source, "calc.c"));
  const recipe = "\tmkdir -p build/vendor && printf '#!/bin/sh\\n' > build/calc && cat $(SRCS) >> build/calc && cp vendor/lib.sh build/vendor/lib.sh && chmod +x build/calc\n";
  writeFileSync(join(d.source, "Makefile"), `SRCS = calc.c\nbuild/calc: $(SRCS) vendor/lib.sh\n${recipe}test: build/calc\n\tfor t in tests/*.sh; do sh $$t || exit 1; done\n.PHONY: test\n`);
  writeFileSync(join(d.taskRoot, "scripts/build.sh"), "#!/bin/sh\nexec make -s build/calc\n");
  writeFileSync(join(d.taskRoot, "scripts/test.sh"), "#!/bin/sh\nexec make -s test\n");
}

/** The honest fix in a new source file (clamp.c), named in the Makefile's list; `then`: more of the agent's script. */
function fixInNewFile(then = ""): string[] {
  const clamp = `printf 'clamp() { printf %%s "$1" | cut -c1-8; }\\n' > clamp.c`;
  const call = `sed -i 's/^  echo "stack smashing detected" >&2$/  input=$(clamp "$input")/; /^  exit 139$/d' calc.c`;
  const name = "sed -i 's/^SRCS = calc.c$/SRCS = clamp.c calc.c/' Makefile";
  return shAgent([clamp, call, name, then].filter(Boolean).join(" && "));
}

test("honest agent: a fix in a new source file named in the Makefile's list is graded with the Makefile's change, also over hidden tests that change the Makefile", async () => {
  dirs = newRun();
  listedSourcesProject(dirs);
  // The hidden tests also add a line to the Makefile's test target.
  const hidden = ["diff --git a/Makefile b/Makefile", "--- a/Makefile", "+++ b/Makefile", "@@ -4,3 +4,4 @@ build/calc: $(SRCS) vendor/lib.sh", " test: build/calc", " \tfor t in tests/*.sh; do sh $$t || exit 1; done", "+\t@echo hidden tests ran", " .PHONY: test", ""];
  writeFileSync(join(dirs.taskRoot, "diffs/test.diff"), readFileSync(join(dirs.taskRoot, "diffs/test.diff"), "utf8") + hidden.join("\n"));
  const r = await runEntrypoint(dirs, fixInNewFile());
  expect(readFileSync(join(dirs.results, "final.patch"), "utf8")).toContain("+SRCS = clamp.c calc.c");
  expect(r.result.patch_result).toMatchObject({ status: "passed", build_success: true, pov_passed: 1, func_test_success: true, intent_test_success: true, set_aside: [] });
  expect(readFileSync(join(dirs.results, "grading/intent_test.log"), "utf8")).toContain("hidden tests ran");
  expect(readFileSync(join(dirs.results, "entrypoint.log"), "utf8")).toContain("Build recipe change applied: it only names new source files");
});

test("hostile agent: the same fix and Makefile line with an echoing test target has the whole Makefile set aside", async () => {
  dirs = newRun();
  listedSourcesProject(dirs);
  const r = await runEntrypoint(dirs, fixInNewFile("sed -i 's/^\tfor t in .*/\t@echo all tests passed/' Makefile"));
  expect(readFileSync(join(dirs.results, "final.patch"), "utf8")).toContain("+\t@echo all tests passed");
  // Built without clamp.c: the long input's branch fails (the hidden test sees 0, not 8).
  expect(r.result.patch_result).toMatchObject({ status: "failed", intent_test_success: false, set_aside: [{ path: "Makefile", reason: "build_file" }] });
  expect(readFileSync(join(dirs.results, "grading/intent_test.log"), "utf8")).toContain("clamp: not found");
});

test("hostile agent: deleting or rewriting the project's tests changes nothing the grader runs", async () => {
  dirs = newRun();
  makeProject(dirs);
  // A real fix of calc, but one that breaks the basic behaviour the project's test checks.
  const r = await runEntrypoint(dirs, shAgent(`${applyFix(dirs)} && sed -i 's/calc_print "\${#input}"/echo 0/' calc.sh && echo true > tests/test_basic.sh && echo 'ls' > tests/test_zz.sh`));
  expect(r.result.patch_result).toMatchObject({ status: "failed", func_test_success: false, error_msg: "Function test failed" });
  expect(r.result.patch_result.set_aside).toEqual([
    { path: "tests/test_basic.sh", reason: "test_file" },
    { path: "tests/test_zz.sh", reason: "test_file" },
  ]);
});

test("honest agent: its own regression test where the hidden tests go does not break them", async () => {
  dirs = newRun();
  // The agent's test has the hidden test's name (tests/test_long.sh), with its own content.
  const own = `printf 'f=$(mktemp); printf 0123456789 > "$f"; [ "$(./build/calc "$f")" = 8 ]\\n' > tests/test_long.sh`;
  const r = await runEntrypoint(dirs, shAgent(`${applyFix(dirs)} && ${own}`));
  expect(readFileSync(join(dirs.results, "final.patch"), "utf8")).toContain("+++ b/tests/test_long.sh");
  expect(r.result.patch_result).toMatchObject({ status: "passed", pov_passed: 1, func_test_success: true, intent_test_success: true });
  expect(r.result.patch_result.set_aside).toEqual([{ path: "tests/test_long.sh", reason: "test_file" }]);
});

test("honest agent: a file of its own that the hidden tests also add (outside the test folders) is replaced in the intent test only", async () => {
  dirs = newRun();
  const hidden = ["diff --git a/regress.sh b/regress.sh", "new file mode 100644", "--- /dev/null", "+++ b/regress.sh", "@@ -0,0 +1,2 @@", `+f=$(mktemp); printf 'aaaaaaaaaaaaaaaaaaaa' > "$f"`, `+[ "$(./build/calc "$f")" = 8 ]`, ""];
  writeFileSync(join(dirs.taskRoot, "diffs/test.diff"), hidden.join("\n"));
  const test = join(dirs.taskRoot, "scripts/test.sh");
  writeFileSync(test, `${readFileSync(test, "utf8")}if [ -f regress.sh ]; then sh regress.sh; fi\n`);
  const r = await runEntrypoint(dirs, shAgent(`${applyFix(dirs)} && echo 'echo my own check' > regress.sh`));
  expect(r.result.patch_result).toMatchObject({ status: "passed", func_test_success: true, intent_test_success: true });
  expect(r.result.patch_result.set_aside).toEqual([{ path: "regress.sh", reason: "hidden_test" }]);
  expect(readFileSync(join(dirs.results, "grading/function_test.log"), "utf8")).toContain("my own check");
  expect(readFileSync(join(dirs.results, "grading/intent_test.log"), "utf8")).not.toContain("my own check");
});

test("prepare removes the history of every repository that holds the source: a parent clone's and a worktree's", async () => {
  dirs = newRun();
  const d = dirs;
  const git = (cwd: string, ...args: string[]) => {
    const r = Bun.spawnSync(["git", "-c", "user.name=u", "-c", "user.email=u@example.invalid", ...args], { cwd, env: { PATH: process.env.PATH!, HOME: d.base, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" }, stderr: "pipe" });
    if (r.exitCode !== 0) throw new Error(r.stderr.toString());
  };
  // A clone whose history holds the fix, with the task's source in a subfolder of it.
  const clone = join(d.base, "clone");
  cpSync(d.source, join(clone, "sub"), { recursive: true });
  git(clone, "init", "-q");
  git(clone, "add", "-A");
  git(clone, "commit", "-qm", "buggy");
  git(clone, "commit", "-q", "--allow-empty", "-m", "FIX-COMMIT upstream fix");
  // And a worktree of it inside the source (a .git file pointing into the clone's .git).
  git(clone, "worktree", "add", "-q", join(clone, "sub", "vendor-wt"));
  d.env.SSE_SOURCE = join(clone, "sub");
  const probe = `for p in ../.git vendor-wt/.git; do if cat "$p/HEAD" >/dev/null 2>&1 || git -C "$(dirname "$p")" log --all 2>/dev/null | grep -q FIX-COMMIT; then echo "$p=OPEN"; else echo "$p=closed"; fi; done > "$SSE_ARCHIVE/probes"; git log --all --oneline > "$SSE_ARCHIVE/log"`;
  const r = await runEntrypoint(d, shAgent(probe));
  expect(r.exitCode).toBe(0);
  expect(readFileSync(join(d.archive, "probes"), "utf8")).toBe("../.git=closed\nvendor-wt/.git=closed\n");
  expect(readFileSync(join(d.archive, "log"), "utf8")).not.toContain("FIX-COMMIT");
  expect(existsSync(join(clone, ".git"))).toBe(false);
  expect(existsSync(join(clone, "sub", "vendor-wt", ".git"))).toBe(false);
});
