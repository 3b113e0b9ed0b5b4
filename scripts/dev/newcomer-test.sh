#!/usr/bin/env bash
# The newcomer test (.ci/run): follows the README's quick start verbatim, as a new user would, so
# the README cannot drift from what works. The commands are extracted from README.md — the fenced
# block after each `<!-- quickstart:NAME -->` marker — and run unchanged:
#   source:  in a fresh clone of this checkout's HEAD (its own npm ci, build, engine check, demo run);
#   release: in an empty folder holding only the release archive of this commit (dist/release, or
#            built by the clone's `npm run release`).
# Each block runs under `bash -euo pipefail`; its output must show the grades the README promises.
# Usage: scripts/dev/newcomer-test.sh [--keep]   (needs the Docker engine and base images, as CI has them)
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
keep=${1:-}
work=$(mktemp -d "${TMPDIR:-/tmp}/ssebench-newcomer.XXXXXX")
[ "$keep" = --keep ] || trap 'rm -rf "$work"' EXIT
say() { printf 'newcomer: %s\n' "$*" >&2; }
fail() { printf 'newcomer: FAILED: %s\n' "$*" >&2; exit 1; }

# block NAME: the lines of the fenced block that follows <!-- quickstart:NAME --> in the README.
block() {
  awk -v m="<!-- quickstart:$1 -->" '
    $0 == m { armed = 1; next }
    armed && /^```/ { if (inside) exit; inside = 1; next }
    inside { print }' "$here/README.md"
}
# expect FILE TEXT...: each TEXT must appear in FILE (a block's combined output).
expect() {
  local file=$1; shift
  for want in "$@"; do grep -qF -- "$want" "$file" || fail "the README's output promise '$want' did not appear (output: $file)"; done
}
run_block() {
  local name=$1 dir=$2 script out
  script=$(block "$name")
  [ -n "$script" ] || fail "README.md has no fenced block after <!-- quickstart:$name -->"
  out="$work/$name.out"
  say "running the README's '$name' block in $dir:"
  printf '%s\n' "$script" | sed 's/^/    /' >&2
  (cd "$dir" && bash -euo pipefail -c "$script") >"$out" 2>&1 || { cat "$out" >&2; fail "the README's '$name' block exited with an error"; }
  echo "$out"
}

say "fresh clone of $(git -C "$here" rev-parse --short HEAD) into $work/clone"
git clone -q "$here" "$work/clone"
# A newcomer's shell has no node_modules/.bin on PATH: the README's commands must not need it.
PATH=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v node_modules | paste -sd: -)
export PATH
out=$(run_block source "$work/clone")
expect "$out" "Grade: passed" "Grade: failed"

archive=$(block release | sed -n 's/^tar -xzf \([^ ]*\).*/\1/p' | head -1)
[ -n "$archive" ] || fail "the README's release block does not start with 'tar -xzf ARCHIVE'"
# CI has built the release of this very commit already (npm run release); otherwise the clone builds it.
built=$(find "$here/dist/release" -name "$archive" -print -quit 2>/dev/null || true)
if [ -z "$built" ]; then
  say "building the release archives in the clone (npm run release)"
  (cd "$work/clone" && npm run release) >"$work/release-build.out" 2>&1 || { cat "$work/release-build.out" >&2; fail "npm run release failed"; }
  built=$(find "$work/clone/dist" -name "$archive" -print -quit)
fi
[ -n "$built" ] || fail "npm run release did not produce the archive the README names ($archive)"
mkdir "$work/empty" && cp "$built" "$work/empty/"
out=$(run_block release "$work/empty")
expect "$out" "htmlesc-quote-overflow" "Grade: passed"
say "ok: both quick starts work as written"
