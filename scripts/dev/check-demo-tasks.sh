#!/usr/bin/env bash
# Hand check of task folders on the real engine, without the orchestrator: builds each case image
# offline and runs its scripts in a container (--network none, as an unprivileged uid), the way
# grading does (cwd = a fresh copy of the source, PoC path absolute, HOME a scratch dir).
#
#   scripts/dev/check-demo-tasks.sh [--dataset DIR] [TASK ...]     (default datasets/demo, all tasks)
#
# Per task it requires, on the vulnerable tree: build passes, every PoC triggers (run.sh exits
# non-zero), test.sh passes, test.sh with the hidden tests (future_test) fails; and after
# `git apply` of the reference patch: build passes, no PoC triggers, test.sh passes with and without
# the hidden tests. Needs the engine and the base images (setup/docker-engine.sh start,
# images/base-images/build.sh); SSEBENCH_REGISTRY, when set, is the prefix of their FROM lines.
# Prints one line per check and a summary; exit 1 on any failure.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
dataset=$repo/datasets/demo
tasks=()
while [ $# -gt 0 ]; do
  case "$1" in
    --dataset) [ $# -ge 2 ] || { echo "usage: $0 [--dataset DIR] [TASK ...]" >&2; exit 2; }; dataset=$2; shift 2 ;;
    -*) echo "usage: $0 [--dataset DIR] [TASK ...]" >&2; exit 2 ;;
    *) tasks+=("$1"); shift ;;
  esac
done
dataset=$(cd "$dataset" && pwd)
name=$(basename "$dataset")
version=$(sed -n 's/^version:[[:space:]]*//p' "$dataset/dataset.yaml")
[ ${#tasks[@]} -gt 0 ] || mapfile -t tasks < <(find "$dataset" -mindepth 1 -maxdepth 1 -type d ! -name '.*' -printf '%f\n' | sort)
export DOCKER_BUILDKIT=0

# sse/config.yaml as shell assignments (SRC, BUILD, RUN, TEST, PATCH, FUTURE, POCS).
read_config() {
  (cd "$repo" && bun -e '
    const c = (await import("yaml")).parse(await Bun.file(process.argv[1]).text());
    const q = (v) => "\x27" + String(v ?? "").replaceAll("\x27", "\x27\\\x27\x27") + "\x27";
    const s = c.scripts ?? {}, f = c.files ?? {};
    console.log(`SRC=${q(c.source)} BUILD=${q(s.build)} RUN=${q(s.run)} TEST=${q(s.test)}`);
    console.log(`PATCH=${q(f.patch)} FUTURE=${q(f.future_test)} POCS=${q((f.poc ?? []).join(" "))}`);
  ' "$1")
}

# Runs inside the case image as an unprivileged uid. Prints "ok|FAIL <what>" lines.
in_container=$(cat <<'EOF'
set -u
root=/ssebench
fresh() { rm -rf /tmp/tree /tmp/log.*; cp -r "$SRC" /tmp/tree && cd /tmp/tree; }
# As in grading: no SSE_* variable (nothing names the check), HOME a scratch folder.
sh_run() { local check=$1; shift; export HOME=/tmp/home
  mkdir -p "$HOME"; "$@" >>"/tmp/log.$check" 2>&1; }
report() { if [ "$2" = "$3" ]; then echo "ok   $1: $2"; else echo "FAIL $1 (expected $3, got $2; log follows)"; tail -n 15 "/tmp/log.$4" | sed 's/^/     | /'; fi; }
outcome() { if "$@"; then echo pass; else echo fail; fi; }
triggers() { if "$@"; then echo "does not trigger"; else echo triggers; fi; }
phase() { # phase LABEL POC_EXPECTATION INTENT_TEST_EXPECTATION [PATCH]
  local label=$1 poc_want=$2 future_want=$3 patch=${4:-}
  fresh
  [ -z "$patch" ] || git apply "$root/$patch" || { echo "FAIL $label: the reference patch does not apply"; return; }
  report "$label build" "$(outcome sh_run build "$root/$BUILD")" pass build
  for poc in $POCS; do
    report "$label poc $poc" "$(triggers sh_run poc "$root/$RUN" "$root/$poc")" "$poc_want" poc
  done
  fresh; [ -z "$patch" ] || git apply "$root/$patch"
  report "$label function_test" "$(outcome sh_run function_test "$root/$TEST")" pass function_test
  fresh; [ -z "$patch" ] || git apply "$root/$patch"
  if git apply "$root/$FUTURE"; then
    report "$label intent_test" "$(outcome sh_run intent_test "$root/$TEST")" "$future_want" intent_test
  else
    echo "FAIL $label: the hidden tests do not apply"
  fi
}
phase vulnerable triggers fail
phase fixed "does not trigger" pass "$PATCH"
EOF
)

failed=0
summary=()
for task in "${tasks[@]}"; do
  dir=$dataset/$task
  [ -f "$dir/sse/config.yaml" ] || { echo "$task: no sse/config.yaml in $dir" >&2; failed=1; continue; }
  image=$(printf 'case/%s/%s:%s' "$name" "$task" "$version" | tr '[:upper:]' '[:lower:]')
  echo "== $task"
  started=$SECONDS
  if ! build_log=$(docker build --network none ${SSEBENCH_REGISTRY:+--build-arg "SSEBENCH_REGISTRY=$SSEBENCH_REGISTRY"} -t "$image" "$dir" 2>&1); then
    echo "$build_log" | tail -n 20
    echo "FAIL image build"; failed=1; summary+=("$task: image build failed"); continue
  fi
  build_seconds=$((SECONDS - started))
  echo "ok   image $image built in ${build_seconds}s"
  started=$SECONDS
  output=$(docker run --rm --network none --user 65534:65534 --entrypoint bash \
    -e CONFIG="$(read_config "$dir/sse/config.yaml")" "$image" \
    -c 'eval "$CONFIG"; '"$in_container" 2>&1) || true
  echo "$output"
  fails=$(grep -c '^FAIL' <<<"$output" || true)
  checks=$(grep -cE '^(ok|FAIL)' <<<"$output" || true)
  [ "$fails" -eq 0 ] && [ "$checks" -gt 0 ] || failed=1
  summary+=("$task: $((checks - fails))/$checks checks ok (image ${build_seconds}s, scripts $((SECONDS - started))s)")
done
echo
printf '%s\n' "${summary[@]}"
exit $failed
