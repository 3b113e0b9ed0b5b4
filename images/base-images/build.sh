#!/usr/bin/env bash
# Builds the base images base-generic-{c,go,rust} that task Dockerfiles start FROM.
#
#   images/base-images/build.sh [--root IMAGE] [--registry PREFIX] [--dry-run] [c|go|rust ...]
#
# --dry-run          print the docker build commands instead of running them
# --root IMAGE       root image instead of the Dockerfiles' digest-pinned debian:bookworm-slim
#                    (offline: scripts/debian-root-image.sh prints the one to use)
# --registry PREFIX  registry prefix the task Dockerfiles' ${SSEBENCH_REGISTRY} stands for
#                    (default: $SSEBENCH_REGISTRY, else ghcr.io/42-b3yond-6ug/ssebench)
#
# Tags, for each language: base-generic-<lang>:<VERSION> and <PREFIX>/base-generic-<lang>:<VERSION>,
# plus the same two names for every version of that image a datasets/*/manifest.json names, so
# `docker build` of a case image finds its FROM locally and never pulls.
# SSEBENCH_DATASETS (default: the checkout's datasets/) is where the manifests are looked for.
# Apt needs the network, so the builds use --network host; the engine's containers have none.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
version=$(tr -d '[:space:]' <"$here/VERSION")
registry=${SSEBENCH_REGISTRY:-ghcr.io/42-b3yond-6ug/ssebench}
root=""
dry_run=""
langs=()

usage() { echo "usage: images/base-images/build.sh [--root IMAGE] [--registry PREFIX] [--dry-run] [c|go|rust ...]" >&2; exit 2; }
fail() { printf 'base-images: %s\n' "$*" >&2; exit 1; }

while [ $# -gt 0 ]; do
  case "$1" in
    --root) [ $# -ge 2 ] || usage; root=$2; shift 2 ;;
    --registry) [ $# -ge 2 ] || usage; registry=${2%/}; shift 2 ;;
    --dry-run) dry_run=1; shift ;;
    c | go | rust) langs+=("$1"); shift ;;
    *) usage ;;
  esac
done
[ ${#langs[@]} -gt 0 ] || langs=(c go rust)
# The classic builder resolves FROM against local images first, which the offline path relies on.
export DOCKER_BUILDKIT=0

# Every "base" a dataset manifest names, e.g. base-generic-c:1.0.0.
manifest_bases() {
  local files=("${SSEBENCH_DATASETS:-$repo/datasets}"/*/manifest.json)
  [ -f "${files[0]}" ] || return 0
  if command -v jq >/dev/null; then
    jq -r '.tasks[].base' "${files[@]}"
  else
    command -v bun >/dev/null || fail "reading the dataset manifests needs jq or bun"
    bun -e 'for (const f of process.argv.slice(1)) for (const t of (await Bun.file(f).json()).tasks) console.log(t.base)' "${files[@]}"
  fi
}

bases=$(manifest_bases | sort -u)
for lang in "${langs[@]}"; do
  name=base-generic-$lang
  tags=("$name:$version")
  for base in $bases; do
    case "$base" in "$name:"*) tags+=("$base") ;; esac
  done
  args=(--network host --label "ssebench.base.version=$version")
  [ -n "$root" ] && args+=(--build-arg "BASE=$root")
  for tag in $(printf '%s\n' "${tags[@]}" | sort -u); do
    args+=(-t "$tag" -t "$registry/$tag")
  done
  if [ -n "$dry_run" ]; then
    echo "docker build ${args[*]} $here/generic-$lang"
    continue
  fi
  log=$(mktemp "${TMPDIR:-/tmp}/base-$lang.XXXXXX.log")
  started=$SECONDS
  if ! docker build "${args[@]}" "$here/generic-$lang" >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    fail "building $name failed; full log in $log"
  fi
  rm -f "$log"
  printf 'base-images: %s in %ss (tags: %s)\n' "$name" "$((SECONDS - started))" \
    "$(printf '%s\n' "${tags[@]}" | sort -u | tr '\n' ' ')"
done
