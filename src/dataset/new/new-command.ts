/**
 * `ssebench dataset new --debian SOURCE=VERSION --patch NAME [--cve CVE] [--id ID] [--dir DIR]`:
 * a new task folder from a Debian source package, its fix left out (docs/dataset-debian.md "A new
 * task with dataset new"). Fetches and pins the source files (into the sources cache), writes the
 * Dockerfile, the reference patch and the fix's tests as git diffs against the vulnerable tree, a
 * build.sh for the build system found, sources.yaml and config.yaml with TODOs, and prints what is
 * left to write. Exit 0; 1 for what the archive or the package refuses; 2 for a bad command line.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { UserError, usageError } from "../../errors.ts";
import { TASK_ID_PATTERN } from "../../formats/patterns.ts";
import { buildScript, detectBuildSystem, languageOf } from "./build-system.ts";
import { type Fetch, fetchDsc, fetchDscFiles, parseSourceVersion } from "./debian-archive.ts";
import { makeTree } from "./debian-tree.ts";
import { newMessages as m } from "./messages.ts";
import { configYaml, dockerfile, issueStub, pocFile, pocStub, runScript, type Scaffold, sourcesYaml, testScript } from "./scaffold-files.ts";

export interface NewArgs {
  debian?: string;
  patch?: string;
  cve?: string;
  id?: string;
  dir?: string;
}

export interface NewDeps {
  /** where images/base-images/VERSION is (the checkout or the home) */
  root: string;
  cacheDir: string;
  fetch?: Fetch;
  /** one line of progress */
  say: (line: string) => void;
}

const CVE = /CVE-\d{4}-\d{4,}/i;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** The day of the oldest debian/changelog entry that names `cve` (the update that first fixed it). */
export function changelogFixed(changelog: string, cve: string | undefined): string | undefined {
  if (!cve) return undefined;
  let found: string | undefined;
  let names = false;
  for (const line of changelog.split("\n")) {
    if (/^\S/.test(line)) names = false;
    if (line.toUpperCase().includes(cve.toUpperCase())) names = true;
    const trailer = /^ -- .*?, (\d{1,2}) ([A-Z][a-z]{2}) (\d{4}) /.exec(line);
    if (trailer && names) {
      const month = MONTHS.indexOf(trailer[2] as string) + 1;
      if (month > 0) found = `${trailer[3]}-${String(month).padStart(2, "0")}-${(trailer[1] as string).padStart(2, "0")}`;
    }
  }
  return found;
}

function checkArgs(args: NewArgs): { source: string; version: string; patch: string; cve: string | undefined; id: string } {
  if (!args.debian || !args.patch) throw usageError(m.usage);
  const sv = parseSourceVersion(args.debian);
  if (!sv) throw usageError(m.badSourceVersion(args.debian));
  if (args.cve !== undefined && !/^CVE-\d{4}-\d{4,}$/i.test(args.cve)) throw usageError(m.badCve(args.cve));
  const cve = (args.cve ?? CVE.exec(args.patch)?.[0])?.toUpperCase();
  const stem = args.patch.replace(/\.(?:patch|diff)$/, "").toLowerCase().replace(/[^a-z0-9._-]+/g, "-");
  const id = args.id ?? `${sv.source}-${cve?.toLowerCase() ?? stem}`;
  if (!new RegExp(TASK_ID_PATTERN).test(id)) throw usageError(m.badId(id));
  return { ...sv, patch: args.patch, cve, id };
}

const LEFT = (folder: string, s: Scaffold) => [
  `left to write in ${folder}:`,
  `  sse/pocs/${pocFile(s)}  the PoC: it triggers before the fix and not after (${s.language === "c" ? "an AddressSanitizer report" : "a crash, a panic, a wrong decision or a timeout"}; exit non-zero)`,
  "  sse/run.sh       how one PoC runs against what build.sh built",
  "  sse/build.sh     build only what the PoC and the tests need",
  "  sse/test.sh      the project's own tests: a fast subset that passes with and without the fix (grading runs it on the unfixed tree too)",
  s.hasTests ? "  sse/diffs/test.diff  the fix's own tests, taken from the patch: check they pass with the fix only" : "  sse/diffs/test.diff  the fix came without tests: write one here (sources.yaml says tests: here)",
  "  sse/reports/issue.md  the issue text (what goes wrong, not the fix)",
  `  upstream/sources.yaml  published${s.cve ? "" : ", cve"}${s.fixed ? "" : ", fixed"}, cwe, poc`,
  "  sse/config.yaml  repository, type, binary, the upstream fix in reference",
  `then: ssebench dataset validate ${relative(process.cwd(), resolve(folder, "..")) || "."} and ssebench dataset verify --dir ${relative(process.cwd(), resolve(folder, "..")) || "."} ${s.id}`,
];

export async function newCommand(args: NewArgs, deps: NewDeps): Promise<number> {
  const a = checkArgs(args);
  const dir = resolve(args.dir ?? "datasets/debian");
  if (!existsSync(join(dir, "dataset.yaml"))) throw new UserError(m.noDataset(dir));
  const folder = join(dir, a.id);
  if (existsSync(folder)) throw new UserError(m.exists(folder));
  for (const tool of ["tar", "patch", "git"]) if (!Bun.which(tool)) throw new UserError(m.toolMissing(tool));
  const fetcher = deps.fetch ?? ((url, init) => fetch(url, { ...init, redirect: "follow" }));
  const dsc = await fetchDsc(a.source, a.version, deps.cacheDir, fetcher);
  deps.say(`found ${dsc.url}`);
  const paths = await fetchDscFiles(dsc, deps.cacheDir, fetcher);
  const tree = makeTree(dsc, paths, a.patch);
  try {
    const system = detectBuildSystem(tree.dir);
    const baseVersionFile = join(deps.root, "images", "base-images", "VERSION");
    const baseVersion = existsSync(baseVersionFile) ? readFileSync(baseVersionFile, "utf8").trim() : "1.0.0";
    const s: Scaffold = {
      id: a.id,
      dsc,
      patch: a.patch,
      cve: a.cve,
      fixed: changelogFixed(tree.changelog, a.cve),
      language: system ? languageOf(system) : "c",
      system,
      baseVersion,
      hasTests: tree.diffs.tests.length > 0,
    };
    const files: Record<string, string> = {
      Dockerfile: dockerfile(s),
      "upstream/sources.yaml": sourcesYaml(s),
      "sse/config.yaml": configYaml(s),
      "sse/build.sh": buildScript(system),
      "sse/run.sh": runScript(s),
      "sse/test.sh": testScript(s),
      "sse/diffs/patch.diff": tree.diffs.code,
      "sse/diffs/test.diff": tree.diffs.tests,
      [`sse/pocs/${pocFile(s)}`]: pocStub(s),
      "sse/reports/issue.md": issueStub(s),
    };
    try {
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(join(folder, path, ".."), { recursive: true });
        writeFileSync(join(folder, path), text, { mode: path.endsWith(".sh") ? 0o755 : 0o644 });
      }
    } catch (error) {
      rmSync(folder, { recursive: true, force: true });
      throw error;
    }
    deps.say(m.wrote(folder, Object.keys(files)));
    if (tree.diffs.dropped.length > 0) deps.say(`left out of the diffs (not code): ${tree.diffs.dropped.join(", ")}`);
    deps.say(`build system: ${system ?? "none found"}; base image: base-generic-${s.language}:${baseVersion}`);
    for (const line of LEFT(folder, s)) deps.say(line);
    return 0;
  } finally {
    tree.cleanup();
  }
}
