#!/usr/bin/env bash
# `ssebench dataset verify` of the tasks of a dataset that changed since they last passed on this
# machine. For datasets whose case images are slow to build (datasets/debian).
#
#   scripts/dev/verify-dataset-cached.sh [--stamp-from OUT]... DIR [TASK ...]   (default: every task folder of DIR)
#
# Each task's key is the sha256 of: every file of its folder (path and content), `ssebench
# --version`, and the ID of its base image. A pass leaves the stamp
# ${SSEBENCH_VERIFY_STAMPS:-/var/cache/ssebench/verified}/<dataset>-<task>-<key>; a task whose
# stamp exists is not verified again, so changing one task re-verifies only that one. Before
# that, every pinned source URL is asked for (HEAD), so a version that left Debian's archive fails
# CI even when every verify is cached. Needs dist/ssebench, the engine and the base images.
# --stamp-from OUT takes a `dataset verify --output OUT` already finished on this machine: a task
# whose record there passed, grading a case image built from exactly its current files and base
# images (scripts/dev/verified-image-current.ts), is stamped without being verified again.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
stamp_from=()
while [ "${1:-}" = --stamp-from ]; do
  [ $# -ge 2 ] || { echo "usage: --stamp-from needs a dataset verify --output folder" >&2; exit 2; }
  stamp_from+=("$2")
  shift 2
done
[ $# -ge 1 ] || { echo "usage: scripts/dev/verify-dataset-cached.sh DIR [TASK ...]" >&2; exit 2; }
dir=$(cd "$1" && pwd)
shift
name=$(basename "$dir")
stamps=${SSEBENCH_VERIFY_STAMPS:-/var/cache/ssebench/verified}
bin=$repo/dist/ssebench
say() { printf 'verify-dataset: %s\n' "$*"; }

"$bin" dataset check-sources "$dir"

tasks=("$@")
[ ${#tasks[@]} -gt 0 ] || mapfile -t tasks < <(find "$dir" -mindepth 1 -maxdepth 1 -type d ! -name '.*' -printf '%f\n' | LC_ALL=C sort)
version=$("$bin" --version)
declare -A stamp_of
todo=()
for task in "${tasks[@]}"; do
  base=$(bun -e 'const m = await Bun.file(process.argv[1]).json(); console.log(m.tasks.find((t) => t.id === process.argv[2])?.base ?? "")' "$dir/manifest.json" "$task")
  key=$(
    {
      (cd "$dir/$task" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum)
      echo "$version"
      echo "$base $(docker image inspect --format '{{.Id}}' "$base" 2>/dev/null || echo missing)"
    } | sha256sum | cut -c1-64
  )
  stamp_of[$task]=$stamps/$name-$task-$key
  if [ -f "${stamp_of[$task]}" ]; then
    say "$task: unchanged since it passed on $(cat "${stamp_of[$task]}"); not verified again"
    continue
  fi
  for from in "${stamp_from[@]}"; do
    if [ -f "$from/tasks/$task.json" ] && bun "$repo/scripts/dev/verified-image-current.ts" "$from/tasks/$task.json" "$dir/$task"; then
      mkdir -p "$stamps"
      echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) (dataset verify --output $from)" >"${stamp_of[$task]}"
      say "$task: stamped from the passing verify in $from"
      continue 2
    fi
  done
  todo+=("$task")
done
[ ${#todo[@]} -gt 0 ] || exit 0

out=$(mktemp -d "${TMPDIR:-/tmp}/ssebench-verify-$name.XXXXXX")
started=$(date +%s)
status=0
"$bin" dataset verify --dir "$dir" --output "$out" "${todo[@]}" || status=$?
mkdir -p "$stamps"
for task in "${todo[@]}"; do
  if [ -f "$out/tasks/$task.json" ] && bun -e 'process.exit((await Bun.file(process.argv[1]).json()).ok === true ? 0 : 1)' "$out/tasks/$task.json"; then
    date -u +%Y-%m-%dT%H:%M:%SZ >"${stamp_of[$task]}"
  fi
done
if [ "$status" -ne 0 ]; then
  say "$name: dataset verify failed (exit $status); its records are in $out"
  exit "$status"
fi
say "$name: verified ${#todo[@]} task(s) in $(( $(date +%s) - started ))s"
rm -rf "$out"
