#!/usr/bin/env bash
# `ssebench dataset verify` of a dataset, skipped when nothing it depends on changed since it last
# passed on this machine. For datasets whose case images are slow to build (datasets/debian).
#
#   scripts/verify-dataset-cached.sh DIR [TASK ...]
#
# The key is the sha256 of: every file of DIR (path and content), `ssebench --version`, and the ID
# of each base image the manifest names. A pass leaves the stamp
# ${SSEBENCH_VERIFY_STAMPS:-/var/cache/ssebench/verified}/<dataset>-<key>; a stamp that exists skips
# the verify. Before either, every pinned source URL is asked for (HEAD), so a version that left
# Debian's archive fails CI even when the verify itself is cached.
# Needs dist/ssebench, the engine and the base images.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { echo "usage: scripts/verify-dataset-cached.sh DIR [TASK ...]" >&2; exit 2; }
dir=$(cd "$1" && pwd)
shift
name=$(basename "$dir")
stamps=${SSEBENCH_VERIFY_STAMPS:-/var/cache/ssebench/verified}
bin=$repo/dist/ssebench
say() { printf 'verify-dataset: %s\n' "$*"; }

bun "$repo/scripts/check-pinned-sources.ts" "$dir"

bases=$(bun -e 'for (const t of (await Bun.file(process.argv[1]).json()).tasks) console.log(t.base)' "$dir/manifest.json" | sort -u)
key=$(
  {
    (cd "$dir" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum)
    "$bin" --version
    for base in $bases; do echo "$base $(docker image inspect --format '{{.Id}}' "$base" 2>/dev/null || echo missing)"; done
    echo "tasks=$*"
  } | sha256sum | cut -c1-64
)
stamp=$stamps/$name-$key
if [ -f "$stamp" ]; then
  say "$name: unchanged since it passed on $(cat "$stamp") (stamp $stamp); not verified again"
  exit 0
fi
out=$(mktemp -d "${TMPDIR:-/tmp}/ssebench-verify-$name.XXXXXX")
started=$(date +%s)
if ! "$bin" dataset verify --dir "$dir" --output "$out" "$@"; then
  say "$name: dataset verify failed; its records are in $out"
  exit 1
fi
say "$name: verified in $(( $(date +%s) - started ))s"
rm -rf "$out"
mkdir -p "$stamps"
date -u +%Y-%m-%dT%H:%M:%SZ >"$stamp"
