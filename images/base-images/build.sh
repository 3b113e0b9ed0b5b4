#!/usr/bin/env bash
# Builds the base images base-generic-{c,go,rust,python} that task Dockerfiles start FROM.
#
#   images/base-images/build.sh [--root IMAGE] [--registry PREFIX] [--dry-run] [c|go|rust|python ...]
#
# --dry-run          print the docker build command and the tags instead of building
# --root IMAGE       root image instead of the Dockerfiles' digest-pinned debian:bookworm-slim
#                    (offline: setup/debian-root-image.sh prints the one to use)
# --registry PREFIX  registry prefix the task Dockerfiles' ${SSEBENCH_REGISTRY} stands for
#                    (default: $SSEBENCH_REGISTRY, else ghcr.io/42-b3yond-6ug/ssebench)
#
# Tags, for each language: base-generic-<lang>:<VERSION> and <PREFIX>/base-generic-<lang>:<VERSION>,
# plus the same two names for every version of that image a datasets/*/manifest.json names, so
# `docker build` of a case image finds its FROM locally and never pulls.
# SSEBENCH_DATASETS (default: the checkout's datasets/) is where the manifests are looked for.
# SSEBENCH_DEBIAN_MIRROR (optional) is the Debian archive the builds install from.
#
# Cached by content: the hash of the build's inputs (common/ and generic-<lang>/, the root image's
# ID, the mirror) is the image's ssebench.base.inputs label; an image whose label matches is only
# re-tagged. A new image gets the tags only once its build, whose last step checks the toolchain,
# has passed, so images in use are never replaced by a broken one. Toolchain versions become
# ssebench.toolchain.<tool> labels and are printed.
# Apt needs the network, so the builds use --network host; the engine's containers have none.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
version=$(tr -d '[:space:]' <"$here/VERSION")
registry=${SSEBENCH_REGISTRY:-ghcr.io/42-b3yond-6ug/ssebench}
mirror=${SSEBENCH_DEBIAN_MIRROR:-}
root=""
dry_run=""
langs=()

usage() { echo "usage: images/base-images/build.sh [--root IMAGE] [--registry PREFIX] [--dry-run] [c|go|rust|python ...]" >&2; exit 2; }
fail() { printf 'base-images: %s\n' "$*" >&2; exit 1; }

while [ $# -gt 0 ]; do
  case "$1" in
    --root) [ $# -ge 2 ] || usage; root=$2; shift 2 ;;
    --registry) [ $# -ge 2 ] || usage; registry=${2%/}; shift 2 ;;
    --dry-run) dry_run=1; shift ;;
    c | go | rust | python) langs+=("$1"); shift ;;
    *) usage ;;
  esac
done
[ ${#langs[@]} -gt 0 ] || langs=(c go rust python)
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

# The root image's ID (a rebuilt root changes every image), or the pinned reference itself. A dry
# run needs no engine: without one (or without the image) it hashes the name.
root_identity() {
  [ -n "$root" ] || { echo "pinned"; return; }
  docker image inspect --format '{{.Id}}' "$root" 2>/dev/null && return
  [ -n "$dry_run" ] && { echo "$root"; return; }
  fail "the root image $root is not on this machine"
}

# sha256 over the build's files (path and content), the root and the mirror.
inputs_hash() {
  local lang=$1
  {
    (cd "$here" && find common "generic-$lang" -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum)
    echo "root=$root_identity"
    echo "mirror=$mirror"
  } | sha256sum | cut -c1-64
}

# name=version lines from an image's ssebench.toolchain.* labels, as "name version, ...".
toolchain_of() {
  docker image inspect --format '{{range $k, $v := .Config.Labels}}{{$k}}={{$v}}{{"\n"}}{{end}}' "$1" |
    sed -n 's/^ssebench\.toolchain\.\([^=]*\)=\(.*\)$/\1 \2/p' | paste -sd, - | sed 's/,/, /g'
}

bases=$(manifest_bases | sort -u)
root_identity=$(root_identity)
for lang in "${langs[@]}"; do
  name=base-generic-$lang
  tags=("$name:$version")
  for base in $bases; do
    case "$base" in "$name:"*) tags+=("$base") ;; esac
  done
  all_tags=()
  for tag in $(printf '%s\n' "${tags[@]}" | sort -u); do all_tags+=("$tag" "$registry/$tag"); done
  inputs=$(inputs_hash "$lang")
  args=(--network host --label "ssebench.base.version=$version" --label "ssebench.base.inputs=$inputs")
  [ -n "$root" ] && args+=(--build-arg "BASE=$root")
  [ -n "$mirror" ] && args+=(--build-arg "DEBIAN_MIRROR=$mirror")
  args+=(-f "$here/generic-$lang/Dockerfile" "$here")
  if [ -n "$dry_run" ]; then
    echo "docker build ${args[*]}"
    echo "tags: ${all_tags[*]}"
    continue
  fi
  started=$SECONDS
  current=$(docker image inspect --format '{{.Id}} {{index .Config.Labels "ssebench.base.inputs"}}' "$name:$version" 2>/dev/null || true)
  if [ "${current#* }" = "$inputs" ]; then
    id=${current%% *}
    what="up to date"
  else
    log=$(mktemp "${TMPDIR:-/tmp}/base-$lang.XXXXXX.log")
    iid=$log.iid
    if ! docker build --iidfile "$iid" "${args[@]}" >"$log" 2>&1; then
      tail -n 40 "$log" >&2
      fail "building $name failed; full log in $log (the tags still name the previous image)"
    fi
    # The versions the toolchain check recorded become labels: one more, instant, build step.
    labels=()
    while IFS= read -r line; do
      [ -n "$line" ] && labels+=(--label "ssebench.toolchain.$line")
    done < <(docker run --rm --network none --entrypoint cat "$(cat "$iid")" /usr/local/share/ssebench/toolchain)
    [ ${#labels[@]} -gt 0 ] || fail "$name records no toolchain versions; full log in $log"
    if ! printf 'FROM %s\n' "$(cat "$iid")" | docker build --iidfile "$iid" "${labels[@]}" - >>"$log" 2>&1; then
      tail -n 20 "$log" >&2
      fail "labelling $name failed; full log in $log"
    fi
    id=$(cat "$iid")
    rm -f "$log" "$iid"
    what="built in $((SECONDS - started))s"
  fi
  for tag in "${all_tags[@]}"; do docker tag "$id" "$tag"; done
  printf 'base-images: %s %s: %s (tags: %s)\n' "$name" "$what" "$(toolchain_of "$id")" "${all_tags[*]}"
done
