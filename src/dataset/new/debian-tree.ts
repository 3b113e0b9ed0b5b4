/**
 * The vulnerable tree of `dataset new --debian`, made on the host as the task's Dockerfile makes
 * it in the image (tar instead of dpkg-source, which the host may lack): the upstream tarballs,
 * then debian/, then every patch of the series except the fix, in order. The fix is then applied
 * to a git commit of that tree to give the reference patch (the code files) and the upstream test
 * (the test files), as git diffs against the tree.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UserError } from "../../errors.ts";
import type { Dsc } from "./debian-archive.ts";
import { newMessages as m } from "./messages.ts";

export interface FixDiffs {
  /** the fix's code files, as a git diff against the tree */
  code: string;
  /** the fix's test files (tests/, test_*.py, *_test.go …) */
  tests: string;
  /** files of the fix left out of both: Debian's and upstream's changelogs, NEWS, documentation */
  dropped: string[];
}

export interface DebianTree {
  dir: string;
  series: string[];
  changelog: string;
  diffs: FixDiffs;
  cleanup: () => void;
}

function run(cmd: string[], cwd: string): { ok: boolean; out: string } {
  const p = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe", env: { ...process.env, LC_ALL: "C" } });
  return { ok: p.exitCode === 0, out: `${p.stdout.toString()}${p.stderr.toString()}`.trim() };
}

/** Extracts a tarball into `into`; a single top folder (as most upstream tarballs have) is taken off. */
function untar(tarball: string, into: string, scratch: string): void {
  const x = mkdtempSync(join(scratch, "x-"));
  const r = run(["tar", "-xf", tarball, "-C", x], scratch);
  if (!r.ok) throw new UserError(m.untarFailed(tarball, r.out.split("\n").at(-1) ?? ""));
  const entries = readdirSync(x, { withFileTypes: true });
  const top = entries.length === 1 && entries[0]?.isDirectory() ? join(x, entries[0].name) : x;
  mkdirSync(into, { recursive: true });
  for (const name of readdirSync(top)) renameSync(join(top, name), join(into, name));
}

/** The series' patch names (comments and blank lines out; a `-pN` option after a name is dropped). */
export function parseSeries(text: string): string[] {
  return text
    .split("\n")
    .map((l) => l.replace(/#.*$/, "").trim().split(/\s+/)[0] ?? "")
    .filter((l) => l.length > 0);
}

const TEST_PATH = /(?:^|\/)(?:tests?|testsuite|testing|t|unittests?)\/|(?:^|\/)test_[^/]*\.py$|_test\.(?:go|py|c|cc|cpp)$|(?:^|\/)test[^/]*\.c$/i;
const DROPPED_PATH = /^debian\/|(?:^|\/)(?:ChangeLog|CHANGES|NEWS|HISTORY|RELEASE[-_]?NOTES)(?:\.[A-Za-z]+)?$|(?:^|\/)docs?\/|\.(?:md|rst|txt|[1-9])$/i;

/** Where a changed file of the fix goes: the reference patch, the test diff, or nowhere. */
export function classifyFixFile(path: string): "code" | "tests" | "dropped" {
  if (DROPPED_PATH.test(path)) return "dropped";
  if (TEST_PATH.test(path)) return "tests";
  return "code";
}

const GIT = ["git", "-c", "user.name=ssebench", "-c", "user.email=ssebench@example.invalid", "-c", "core.autocrlf=false"];

/** Applies the fix to a commit of `dir` and splits its diff by file kind. */
function fixDiffs(dir: string, fix: string): FixDiffs {
  for (const cmd of [["init", "-q"], ["add", "-A"], ["commit", "-qm", "tree"]]) {
    const r = run([...GIT, ...cmd], dir);
    if (!r.ok) throw new UserError(m.gitFailed(cmd[0] as string, r.out));
  }
  const applied = run(["patch", "-p1", "-s", "--no-backup-if-mismatch", "-i", fix], dir);
  if (!applied.ok) throw new UserError(m.fixDoesNotApply(fix.split("/").at(-1) as string, applied.out.split("\n")[0] ?? ""));
  run([...GIT, "add", "-A"], dir);
  const names = run([...GIT, "diff", "--cached", "--name-only"], dir).out.split("\n").filter(Boolean);
  const by = { code: [] as string[], tests: [] as string[], dropped: [] as string[] };
  for (const name of names) by[classifyFixFile(name)].push(name);
  const diff = (paths: string[]) => (paths.length === 0 ? "" : `${run([...GIT, "diff", "--cached", "--no-color", "--", ...paths], dir).out}\n`);
  const out = { code: diff(by.code), tests: diff(by.tests), dropped: by.dropped };
  run([...GIT, "reset", "-q", "--hard"], dir);
  rmSync(join(dir, ".git"), { recursive: true, force: true });
  return out;
}

/** Unpacks the source at `paths` (name → file) as the task's Dockerfile will, without `patch`. */
export function makeTree(dsc: Dsc, paths: Map<string, string>, patch: string): DebianTree {
  if (dsc.format !== "3.0 (quilt)") throw new UserError(m.unsupportedFormat(dsc.url, dsc.format || "none"));
  const scratch = mkdtempSync(join(tmpdir(), "ssebench-new-"));
  const cleanup = () => rmSync(scratch, { recursive: true, force: true });
  try {
    const dir = join(scratch, "tree");
    const named = (re: RegExp) => dsc.files.filter((f) => re.test(f.name));
    const orig = named(/\.orig\.tar\.[a-z0-9]+$/);
    const debianTar = named(/\.debian\.tar\.[a-z0-9]+$/)[0];
    if (orig.length !== 1 || !debianTar) throw new UserError(m.unsupportedFormat(dsc.url, `${dsc.format} without one orig and one debian tarball`));
    untar(paths.get(orig[0]!.name) as string, dir, scratch);
    for (const component of named(/\.orig-([A-Za-z0-9-]+)\.tar\.[a-z0-9]+$/)) {
      const name = /\.orig-([A-Za-z0-9-]+)\.tar/.exec(component.name)?.[1] as string;
      untar(paths.get(component.name) as string, join(dir, name), scratch);
    }
    const debian = mkdtempSync(join(scratch, "debian-"));
    const r = run(["tar", "-xf", paths.get(debianTar.name) as string, "-C", debian], scratch);
    if (!r.ok) throw new UserError(m.untarFailed(debianTar.name, r.out));
    const seriesFile = join(debian, "debian", "patches", "series");
    const series = existsSync(seriesFile) ? parseSeries(readFileSync(seriesFile, "utf8")) : [];
    if (!series.includes(patch)) throw new UserError(m.patchNotInSeries(patch, dsc.source, dsc.version, series));
    for (const name of series) {
      if (name === patch) continue;
      const applied = run(["patch", "-p1", "-s", "--no-backup-if-mismatch", "-i", join(debian, "debian", "patches", name)], dir);
      if (!applied.ok) throw new UserError(m.seriesDoesNotApply(name, patch, applied.out.split("\n")[0] ?? ""));
    }
    const changelog = readFileSync(join(debian, "debian", "changelog"), "utf8");
    const diffs = fixDiffs(dir, join(debian, "debian", "patches", patch));
    return { dir, series, changelog, diffs, cleanup };
  } catch (error) {
    cleanup();
    throw error;
  }
}
