/**
 * The files of a new Debian task folder (docs/dataset-debian.md "How a task is made"), as text:
 * what `dataset new` can know is filled in, everything else is a TODO that `dataset validate`
 * or the first verify will point at.
 */
import type { BuildSystem } from "./build-system.ts";
import type { Dsc } from "./debian-archive.ts";

export interface Scaffold {
  id: string;
  dsc: Dsc;
  patch: string;
  cve: string | undefined;
  /** YYYY-MM-DD of the changelog entry that first names the CVE, when one does */
  fixed: string | undefined;
  language: "c" | "go" | "rust" | "python";
  system: BuildSystem | undefined;
  baseVersion: string;
  hasTests: boolean;
}

const TODO = "TODO";
const upstreamVersion = (version: string) => version.replace(/^\d+:/, "").replace(/-[^-]*$/, "");
export const sourcePath = (source: string) => `/src/${source}`;
const dscName = (dsc: Dsc) => dsc.url.slice(dsc.url.lastIndexOf("/") + 1);
const sedEscape = (s: string) => s.replace(/[.[\]*^$\\/]/g, "\\$&");

export function dockerfile(s: Scaffold): string {
  const dsc = dscName(s.dsc);
  return `ARG SSEBENCH_REGISTRY=ghcr.io/42-b3yond-6ug/ssebench
FROM \${SSEBENCH_REGISTRY}/base-generic-${s.language}:${s.baseVersion}

# upstream/: sources.yaml and the Debian source files it pins, which ssebench fetched and checked on
# the host (a plain \`docker build\` of this folder has no tarballs and stops here).
COPY upstream /tmp/upstream
# The Debian source with every patch of its series except the fix this task is about, then without
# debian/ (which names the fix): one git commit with a neutral message, ignoring build.sh's ssebench-build/
# so a build is never part of a change (written by ssebench dataset new).
RUN test -f /tmp/upstream/${dsc} || { echo "upstream/: the pinned sources are missing; build this task with ssebench"; exit 1; } \\
 && mkdir -p /src \\
 && dpkg-source --no-check --no-copy --skip-patches -x /tmp/upstream/${dsc} ${sourcePath(s.dsc.source)} \\
 && cd ${sourcePath(s.dsc.source)} \\
 && sed -i '/^${sedEscape(s.patch)}$/d' debian/patches/series \\
 && while read -r p; do case "$p" in ''|'#'*) continue ;; esac; patch -p1 -s --no-backup-if-mismatch < "debian/patches/$p"; done < debian/patches/series \\
 && rm -rf debian /tmp/upstream \\
 && echo '/ssebench-build/' >> .gitignore \\
 && git init -q \\
 && git add -A \\
 && git -c user.name=ssebench -c user.email=ssebench@example.invalid commit -qm "${s.dsc.source} ${upstreamVersion(s.dsc.version)}"

COPY sse/config.yaml /ssebench/config.yaml
COPY sse/build.sh /ssebench/scripts/build.sh
COPY sse/run.sh /ssebench/scripts/run.sh
COPY sse/test.sh /ssebench/scripts/test.sh
COPY sse/diffs /ssebench/diffs
COPY sse/pocs /ssebench/pocs
COPY sse/reports /ssebench/reports
RUN chmod 0755 /ssebench/scripts/*.sh
`;
}

export function sourcesYaml(s: Scaffold): string {
  const files = [{ url: s.dsc.url, sha256: s.dsc.sha256 }, ...s.dsc.files.map((f) => ({ url: f.url, sha256: f.sha256 }))];
  return [
    "# Pinned upstream inputs: ssebench downloads these on the host, checks their sha256 and puts them",
    "# beside this file in the build context (docs/dataset-debian.md). The card fields feed README.md.",
    "# Written by ssebench dataset new: replace every TODO.",
    `package: ${s.dsc.source}`,
    `version: ${s.dsc.version}`,
    `cve: ${s.cve ?? TODO}`,
    `published: ${TODO} # the day the CVE was published, YYYY-MM-DD`,
    s.fixed ? `fixed: ${s.fixed} # the changelog entry that first names ${s.cve}: check it` : `fixed: ${TODO} # the day of the Debian update that fixed it, YYYY-MM-DD`,
    `cwe: ${TODO} # e.g. CWE-787`,
    `left_out: ${s.patch}`,
    `poc: ${TODO} # what the PoC shows, in one line`,
    `tests: ${s.hasTests ? "upstream" : "here"}`,
    "files:",
    ...files.flatMap((f) => [`- url: ${f.url}`, `  sha256: ${f.sha256}`]),
    "",
  ].join("\n");
}

const POC_FILE: Record<Scaffold["language"], string> = { c: "poc.c", go: "poc_test.go", rust: "poc.rs", python: "poc.py" };
export const pocFile = (s: Scaffold) => POC_FILE[s.language];

export function configYaml(s: Scaffold): string {
  return [
    "# Written by ssebench dataset new: replace every TODO (docs/dataset-tools.md has the format).",
    `id: ${s.id}`,
    `project: ${s.dsc.source}`,
    `repository: ${TODO} # the upstream repository's URL`,
    `language: ${s.language}`,
    `source: ${sourcePath(s.dsc.source)}`,
    "task_description:",
    "  crash_report:",
    "  - reports/issue.md",
    "scripts:",
    "  build: scripts/build.sh",
    "  run: scripts/run.sh",
    "  test: scripts/test.sh",
    "files:",
    "  patch: diffs/patch.diff",
    "  poc:",
    `  - pocs/${pocFile(s)}`,
    "  future_test: diffs/test.diff",
    ...(s.language === "c" ? ["sanitizer: address"] : []),
    `type: ${TODO} # e.g. Heap-buffer-overflow READ`,
    `binary: ${TODO} # what the PoC exercises, e.g. libfoo.a`,
    "reference:",
    `- https://security-tracker.debian.org/tracker/${s.cve ?? TODO}`,
    `- ${TODO} # the upstream fix (its commit URL)`,
    "originality: public",
    "",
  ].join("\n");
}

const RUNS: Record<Scaffold["language"], string[]> = {
  c: [
    "export ASAN_OPTIONS=detect_leaks=0",
    "exe=$(mktemp /tmp/poc.XXXXXX)",
    "trap 'rm -f \"$exe\"' EXIT",
    "# TODO: the include folders and libraries build.sh made",
    'gcc -g -O1 -fsanitize=address -fno-omit-frame-pointer -I. "$1" -o "$exe" || exit 2',
    '"$exe"',
  ],
  go: ['go test -run "TODO" "$(dirname "$1")"'],
  rust: ['echo "TODO: run $1" >&2', "exit 2"],
  python: ['timeout 60 python3 "$1"'],
};

export function runScript(s: Scaffold): string {
  return [
    "#!/bin/bash",
    "# run.sh POC (written by ssebench dataset new): TODO. Exit 0 when the PoC no longer triggers,",
    "# non-zero when it does (an AddressSanitizer report, a crash, a wrong decision, a timeout).",
    "set -uo pipefail",
    ...RUNS[s.language],
    "",
  ].join("\n");
}

const TESTS: Record<BuildSystem, string> = {
  autotools: "make -C ssebench-build check",
  cmake: "cd ssebench-build && ctest --output-on-failure",
  meson: "meson test -C ssebench-build",
  make: "make check",
  go: "go test ./...",
  cargo: "cargo test --offline",
  python: "python3 -m pytest -q",
};

export function testScript(s: Scaffold): string {
  return [
    "#!/bin/bash",
    "# The project's own tests (written by ssebench dataset new). TODO: keep it to seconds or a minute or",
    "# two: run the subset near the fix when the whole suite is slow, and say so here.",
    "set -euo pipefail",
    ...(s.language === "c" ? ["export ASAN_OPTIONS=detect_leaks=0"] : []),
    'bash "$(dirname "$0")/build.sh" >/dev/null',
    s.system ? TESTS[s.system] : 'echo "TODO: run the tests" >&2; exit 1',
    "",
  ].join("\n");
}

export const pocStub = (s: Scaffold) =>
  s.language === "python" || s.language === "rust"
    ? `# TODO: the PoC of ${s.cve ?? s.patch}, written here from the advisory\n`
    : `// TODO: the PoC of ${s.cve ?? s.patch}, written here from the advisory\n`;

export const issueStub = (s: Scaffold) => `# TODO: the issue text, written here (what goes wrong, where, with which input; not the fix)\n\nProject: ${s.dsc.source}\n`;
