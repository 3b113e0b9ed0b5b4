/** Which files of a change grading sets aside, and git applying a change without them. */
import { expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { appliedRecipes, buildOrTestFile, diffPaths, excludeFlag, planSetAside, recipeCandidates } from "../../src/runtime/grading/set-aside.ts";
import { tempDir } from "../helpers/cli.ts";

test("build recipes and tests are recognised by name and folder; sources are not", () => {
  const seen = Object.fromEntries(
    ["Makefile", "src/Makefile.am", "Makefile.linux", "build.sh", "run_tests.sh", "runtests", "cmake/deps.cmake", "CMakeLists.txt", "Cargo.toml", ".cargo/config.toml", "go.mod", "rules.mk", "tests/capacity.rs", "test/x.c", "pkg/foo_test.go", "t_test.c", "test_htmlesc.c", "lib/testdata/a.json", "src/lib.rs", "htmlesc.c", "staticfs.go", "contest.c", "latest.txt", "testing.c"].map((p) => [p, buildOrTestFile(p)]),
  );
  expect(seen).toEqual({
    Makefile: "build_file",
    "src/Makefile.am": "build_file",
    "Makefile.linux": "build_file",
    "build.sh": "build_file",
    "run_tests.sh": "test_file",
    runtests: "test_file",
    "cmake/deps.cmake": "build_file",
    "CMakeLists.txt": "build_file",
    "Cargo.toml": "build_file",
    ".cargo/config.toml": "build_file",
    "go.mod": "build_file",
    "rules.mk": "build_file",
    "tests/capacity.rs": "test_file",
    "test/x.c": "test_file",
    "pkg/foo_test.go": "test_file",
    "t_test.c": "test_file",
    "test_htmlesc.c": "test_file",
    "lib/testdata/a.json": "test_file",
    "src/lib.rs": null,
    "htmlesc.c": null,
    "staticfs.go": null,
    "contest.c": null,
    "latest.txt": null,
    "testing.c": null,
  });
});

test("a file the task's own fix changes is never set aside; hidden-test files only for the intent test", () => {
  const plan = planSetAside(["Makefile", "src/a.c", "tests/t.c", "regress.sh", "Makefile"], ["Makefile", "src/a.c"], ["tests/t.c", "regress.sh"]);
  expect(plan).toEqual({ everywhere: [{ path: "tests/t.c", reason: "test_file" }], intent: [{ path: "regress.sh", reason: "hidden_test" }], afterHidden: [] });
});

test("git applies a change without exactly the set-aside paths, glob characters included", async () => {
  const t = tempDir("sse-aside-");
  try {
    const run = (argv: string[], stdin?: string) => Bun.spawnSync(argv, { cwd: join(t.path, "repo"), stdin: stdin === undefined ? "ignore" : new Blob([stdin]), env: { PATH: process.env.PATH!, HOME: t.path, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" } });
    mkdirSync(join(t.path, "repo"));
    run(["git", "init", "-q"]);
    const diff = ["we*rd", "wexrd", "Makefile"].map((f) => `diff --git a/${f} b/${f}\nnew file mode 100644\n--- /dev/null\n+++ b/${f}\n@@ -0,0 +1 @@\n+x\n`).join("");
    mkdirSync(join(t.path, "scratch"));
    expect(await diffPaths(new TextEncoder().encode(diff), join(t.path, "scratch"), 10_000)).toEqual(["we*rd", "wexrd", "Makefile"]);
    expect(run(["git", "apply", excludeFlag("we*rd"), excludeFlag("Makefile"), "-"], diff).exitCode).toBe(0);
    expect(["we*rd", "wexrd", "Makefile"].map((f) => existsSync(join(t.path, "repo", f)))).toEqual([false, true, false]);
    expect(readFileSync(join(t.path, "repo", "wexrd"), "utf8")).toBe("x\n");
    expect(await diffPaths(new Uint8Array(), join(t.path, "scratch"), 10_000)).toEqual([]);
  } finally {
    t.cleanup();
  }
});

test("a build recipe's change is applied only when it just names the change's new source files (git reads the diff)", async () => {
  const t = tempDir("sse-recipes-");
  try {
    const repo = join(t.path, "repo");
    const git = (...args: string[]) => Bun.spawnSync(["git", "-c", "user.name=u", "-c", "user.email=u@example.invalid", ...args], { cwd: repo, env: { PATH: process.env.PATH!, HOME: t.path, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" } });
    mkdirSync(join(repo, "lib"), { recursive: true });
    writeFileSync(join(repo, "Makefile"), "prog: main.c\n\tcc -o $@ main.c\ntest:\n\t./run-tests\n");
    writeFileSync(join(repo, "lib/CMakeLists.txt"), "add_library(x a.c)\n");
    writeFileSync(join(repo, "main.c"), "int main(void) { return 0; }\n");
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "base");
    const pristine = join(t.path, "pristine");
    cpSync(repo, pristine, { recursive: true });
    // The honest change: entity.c and its name in the Makefile; the CMake list names an existing file.
    writeFileSync(join(repo, "entity.c"), "int entity(void) { return 1; }\n");
    writeFileSync(join(repo, "Makefile"), "prog: main.c entity.c\n\tcc -o $@ main.c entity.c\ntest:\n\t./run-tests\n");
    writeFileSync(join(repo, "lib/CMakeLists.txt"), "add_library(x a.c main.c)\n");
    git("add", "-A");
    const diff = git("diff", "--cached", "--binary", "HEAD").stdout;
    const scratch = join(t.path, "scratch");
    mkdirSync(scratch);
    const change = await diffPaths(diff, scratch, 10_000);
    expect(recipeCandidates(change, [])).toEqual(["Makefile", "lib/CMakeLists.txt"]);
    expect(recipeCandidates(change, ["Makefile"])).toEqual(["lib/CMakeLists.txt"]);
    const applied = await appliedRecipes(diff, recipeCandidates(change, []), pristine, scratch, 10_000);
    expect([...applied]).toEqual(["Makefile"]);
    expect(planSetAside(change, [], ["Makefile"], applied)).toEqual({ everywhere: [{ path: "lib/CMakeLists.txt", reason: "build_file" }], intent: [], afterHidden: ["Makefile"] });
    // The same Makefile change with the test target stubbed: set aside whole.
    writeFileSync(join(repo, "Makefile"), "prog: main.c entity.c\n\tcc -o $@ main.c entity.c\ntest:\n\t@echo ok\n");
    git("add", "-A");
    const stubbed = git("diff", "--cached", "--binary", "HEAD").stdout;
    expect([...(await appliedRecipes(stubbed, ["Makefile"], pristine, scratch, 10_000))]).toEqual([]);
  } finally {
    t.cleanup();
  }
});
