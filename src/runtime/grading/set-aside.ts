/**
 * The parts of the agent's change that grading does not apply (docs/container-contract.md §7):
 * the project's build recipes and tests are the task's, so every check uses the original tree's
 * version of them (a stub Makefile or an echoing test target cannot pass), unless the task's own
 * fix changes that file or the recipe's change only names the change's new source files
 * (recipe-change.ts); and in the intent test's tree the hidden tests replace whatever the agent's
 * change did to the files they touch (an agent's own regression test never breaks them).
 */
import { lstatSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { SetAside } from "../../formats/run/result.ts";
import { capture } from "../privilege/processes.ts";
import { toolPath } from "../config.ts";
import { type AddedFile, MAX_RECIPE_BYTES, onlyAddsSources } from "./recipe-change.ts";

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
  /** Recipes whose change is applied, that the hidden tests change too: in the intent test's tree applied after them. */
  afterHidden: string[];
}

/**
 * `change`: the paths of the agent's patch; `fix`: those of the task's fix (never set aside: the
 * fix may need them); `hidden`: those of the hidden test diff; `recipes`: the build recipes whose
 * change only names new source files (applied).
 */
export function planSetAside(change: string[], fix: string[], hidden: string[], recipes: ReadonlySet<string> = new Set()): SetAsidePlan {
  const fixed = new Set(fix);
  const hiddenSet = new Set(hidden);
  const plan: SetAsidePlan = { everywhere: [], intent: [], afterHidden: [] };
  for (const path of [...new Set(change)].sort()) {
    const reason = fixed.has(path) ? null : buildOrTestFile(path);
    if (reason === "build_file" && recipes.has(path)) {
      if (hiddenSet.has(path)) plan.afterHidden.push(path);
    } else if (reason) plan.everywhere.push({ path, reason });
    else if (hiddenSet.has(path)) plan.intent.push({ path, reason: "hidden_test" });
  }
  return plan;
}

/** The build recipes of `change` that grading would set aside but for recipe-change.ts's rule. */
export function recipeCandidates(change: string[], fix: string[]): string[] {
  const fixed = new Set(fix);
  return [...new Set(change)].filter((p) => !fixed.has(p) && buildOrTestFile(p) === "build_file");
}

const gitEnv = (dir: string) => ({ PATH: toolPath(), HOME: dir, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", GIT_CEILING_DIRECTORIES: dirname(dir) });

/**
 * Of `candidates`, the recipes whose change only adds the names of the change's new source files.
 * Each is judged on the original (the pristine tree's regular file) and the diff's part for it
 * applied by git in `dir` (a root-only folder outside any repository); anything else is not applied.
 */
export async function appliedRecipes(diff: Uint8Array, candidates: string[], pristine: string, dir: string, timeoutMs: number): Promise<Set<string>> {
  const applied = new Set<string>();
  if (candidates.length === 0) return applied;
  const added = await createdFiles(diff, dir, timeoutMs);
  if (added.length === 0) return applied;
  for (const [n, path] of candidates.entries()) {
    const original = readRecipe(join(pristine, path));
    if (original === undefined) continue;
    const work = join(dir, `recipe-${n}`);
    mkdirSync(dirname(join(work, path)), { recursive: true, mode: 0o700 });
    writeFileSync(join(work, path), original);
    const r = await capture(["git", "apply", "--binary", includeFlag(path), "-"], { cwd: work, env: gitEnv(work), stdin: diff, timeoutMs });
    const changed = r.ok ? readRecipe(join(work, path)) : undefined;
    if (changed !== undefined && onlyAddsSources(original.toString("latin1"), changed.toString("latin1"), added, path)) applied.add(path);
  }
  return applied;
}

function readRecipe(path: string): Buffer | undefined {
  try {
    const st = lstatSync(path);
    return st.isFile() && st.size <= MAX_RECIPE_BYTES ? readFileSync(path) : undefined;
  } catch {
    return undefined;
  }
}

/** The files a diff creates, with their modes (`git apply --summary`, read by git in `dir`). */
async function createdFiles(diff: Uint8Array, dir: string, timeoutMs: number): Promise<AddedFile[]> {
  const r = await capture(["git", "apply", "--summary", "-z", "-"], { cwd: dir, env: gitEnv(dir), stdin: diff, timeoutMs });
  if (!r.ok) return [];
  const out: AddedFile[] = [];
  for (const line of r.stdout.split("\n")) {
    const m = /^ create mode (\d{6}) (.+)$/.exec(line);
    if (m) out.push({ mode: m[1]!, path: m[2]! });
  }
  return out;
}

/** `git apply --exclude` takes a wildmatch pattern: the path itself, its special characters escaped. */
export function excludeFlag(path: string): string {
  return `--exclude=${wildmatchLiteral(path)}`;
}

/** `git apply --include` of exactly this path. */
export function includeFlag(path: string): string {
  return `--include=${wildmatchLiteral(path)}`;
}

function wildmatchLiteral(path: string): string {
  return path.replace(/[\\*?[\]]/g, (c) => `\\${c}`);
}

/**
 * The path of each entry of a diff as `git apply` names it (the new name, or the old one for a
 * deletion), read by git itself in `dir` (a root-only folder outside any repository).
 */
export async function diffPaths(diff: Uint8Array, dir: string, timeoutMs: number): Promise<string[]> {
  if (new TextDecoder().decode(diff).trim() === "") return [];
  const r = await capture(["git", "apply", "--numstat", "-z", "-"], { cwd: dir, env: gitEnv(dir), stdin: diff, timeoutMs });
  if (!r.ok) throw new Error(`git apply --numstat failed: ${(r.stderr || r.stdout).trim()}`);
  // Each entry: "<added>\t<deleted>\t<path>\0" (no quoting with -z).
  return r.stdout
    .split("\0")
    .filter((e) => e !== "")
    .map((e) => e.replace(/^[^\t]*\t[^\t]*\t/, ""));
}
