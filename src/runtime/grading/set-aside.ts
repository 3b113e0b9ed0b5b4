/**
 * The parts of the agent's change that grading does not apply (docs/container-contract.md §7):
 * the project's build recipes and tests are the task's, so every check uses the original tree's
 * version of them (a stub Makefile or an echoing test target cannot pass), unless the task's own
 * fix changes that file; and in the intent test's tree the hidden tests replace whatever the
 * agent's change did to the files they touch (an agent's own regression test never breaks them).
 */
import { dirname } from "node:path";
import type { SetAside } from "../../formats/run/result.ts";
import { capture } from "../privilege/processes.ts";
import { toolPath } from "../config.ts";

const BUILD_NAMES = new Set([
  "GNUmakefile", "CMakeLists.txt", "build.ninja", "build.sh", "configure", "configure.ac",
  "configure.in", "autogen.sh", "meson.build", "meson_options.txt", "meson.options", "SConstruct", "SConscript",
  "BUILD", "BUILD.bazel", "WORKSPACE", "WORKSPACE.bazel", "MODULE.bazel", "Cargo.toml", "Cargo.lock", "build.rs",
  "go.mod", "go.sum", "go.work", "build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts",
  "pom.xml", "build.xml", "package.json", "setup.py", "setup.cfg", "pyproject.toml", "tox.ini", "pytest.ini",
  "conftest.py",
]);
const BUILD_SUFFIXES = [".mk", ".mak", ".cmake", ".bzl", ".gradle"];
/** Folders whose every file configures the build (cargo's runner and flags live in .cargo/config.toml). */
const BUILD_FOLDERS = new Set([".cargo"]);
const TEST_FOLDERS = new Set(["test", "tests", "testing", "testdata", "__tests__"]);
/** Makefile, makefile, Makefile.am, Makefile.in, Makefile.linux… */
const MAKEFILE = /^[Mm]akefile(\..+)?$/;
const TEST_FILE = /^test_.|^test\.[^.]+$|^run_?tests?(\.[^.]+)?$|_tests?\.[^.]+$|\.test\.[^.]+$|Tests?\.(java|kt|scala|cs)$/;

/** `build_file`, `test_file` or null for a path of the source tree. */
export function buildOrTestFile(path: string): SetAside["reason"] | null {
  const parts = path.split("/");
  const name = parts.at(-1)!;
  const folders = parts.slice(0, -1);
  if (BUILD_NAMES.has(name) || MAKEFILE.test(name) || BUILD_SUFFIXES.some((s) => name.endsWith(s)) || folders.some((f) => BUILD_FOLDERS.has(f))) return "build_file";
  if (TEST_FILE.test(name) || folders.some((f) => TEST_FOLDERS.has(f))) return "test_file";
  return null;
}

export interface SetAsidePlan {
  /** Left out of every check's tree. */
  everywhere: SetAside[];
  /** Left out of the intent test's tree as well (the hidden tests own these files). */
  intent: SetAside[];
}

/**
 * `change`: the paths of the agent's patch; `fix`: those of the task's fix (never set aside: the
 * fix may need them); `hidden`: those of the hidden test diff.
 */
export function planSetAside(change: string[], fix: string[], hidden: string[]): SetAsidePlan {
  const fixed = new Set(fix);
  const hiddenSet = new Set(hidden);
  const everywhere: SetAside[] = [];
  const intent: SetAside[] = [];
  for (const path of [...new Set(change)].sort()) {
    const reason = fixed.has(path) ? null : buildOrTestFile(path);
    if (reason) everywhere.push({ path, reason });
    else if (hiddenSet.has(path)) intent.push({ path, reason: "hidden_test" });
  }
  return { everywhere, intent };
}

/** `git apply --exclude` takes a wildmatch pattern: the path itself, its special characters escaped. */
export function excludeFlag(path: string): string {
  return `--exclude=${path.replace(/[\\*?[\]]/g, (c) => `\\${c}`)}`;
}

/**
 * The path of each entry of a diff as `git apply` names it (the new name, or the old one for a
 * deletion), read by git itself in `dir` (a root-only folder outside any repository).
 */
export async function diffPaths(diff: Uint8Array, dir: string, timeoutMs: number): Promise<string[]> {
  if (new TextDecoder().decode(diff).trim() === "") return [];
  const r = await capture(["git", "apply", "--numstat", "-z", "-"], {
    cwd: dir,
    env: { PATH: toolPath(), HOME: dir, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", GIT_CEILING_DIRECTORIES: dirname(dir) },
    stdin: diff,
    timeoutMs,
  });
  if (!r.ok) throw new Error(`git apply --numstat failed: ${(r.stderr || r.stdout).trim()}`);
  // Each entry: "<added>\t<deleted>\t<path>\0" (no quoting with -z).
  return r.stdout
    .split("\0")
    .filter((e) => e !== "")
    .map((e) => e.replace(/^[^\t]*\t[^\t]*\t/, ""));
}
