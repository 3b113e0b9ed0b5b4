# Sourced by .ci/run: its steps, their wall and CPU seconds, and the jobs it runs in the background.
#
#   step NAME            ends the step before it and starts NAME (printed with the seconds so far)
#   background NAME CMD  runs CMD in the background, its output kept in a file; the steps go on
#                        (CMD runs with errexit off: a shell function must return its failures)
#   wait_for NAME        waits for it, prints its output, and fails CI when it failed
#   tests SKIPS CMD...   runs one bun test command (below); ci_test_counts sums what they all ran
#
# The closing table (printed on exit, so a failed run shows it up to the failing step) gives each
# step's wall seconds and three CPU figures, user+sys in seconds:
#   cpu      what the step ran (the finished children of .ci/run; a background job's own CPU is its
#            own row, not the waiting step's)
#   engine   the Docker engines: their containers (cgroup parents) and daemons (dockerd, containerd)
#   machine  every core's busy time, other users' too (on a dedicated CI machine: everything)
# On a machine of N cores, a step cannot take less wall than machine/N when run alone.

ci_t0=${EPOCHREALTIME/./}
ci_rows=()
ci_step_name=""
ci_bg_ticks=0            # CPU ticks of the background jobs that have ended (not a step's own)
declare -A ci_bg_pid=() ci_bg_log=() ci_bg_done=() ci_bg_counted=()
ci_tck=$(getconf CLK_TCK)

# user+sys ticks of a process's own and waited-for children's time, from /proc/PID/stat.
ci_proc_ticks() {
  local s
  s=$(cat "/proc/$1/stat" 2>/dev/null) || { echo 0; return; }
  s=${s##*) }
  local -a f
  read -ra f <<<"$s"
  echo $((f[11] + f[12] + f[13] + f[14]))
}

# Engine CPU in ms: the containers' cgroup parents (v1 cpuacct or v2 cpu.stat) and the daemons.
ci_engine_ms() {
  local ns=0 g pidf swarm=${SSEBENCH_SWARM_NAME:-ssb-swarm} cg=${SSEBENCH_DOCKER_CGROUP:-/docker}
  for g in "/${cg#/}" "/$swarm-mgr" "/$swarm-wkr"; do
    if [ -r "/sys/fs/cgroup/cpuacct$g/cpuacct.usage" ]; then
      ns=$((ns + $(cat "/sys/fs/cgroup/cpuacct$g/cpuacct.usage")))
    elif [ -r "/sys/fs/cgroup$g/cpu.stat" ]; then
      ns=$((ns + $(awk '$1 == "usage_usec" { print $2 * 1000 }' "/sys/fs/cgroup$g/cpu.stat")))
    fi
  done
  local ticks=0 exec_root=${SSEBENCH_DOCKER_EXEC:-/var/run/ssebench-docker}
  for pidf in "$exec_root/dockerd.pid" "$exec_root/containerd/containerd.pid" \
    "/run/$swarm"/{mgr,wkr}/dockerd.pid "/run/$swarm"/{mgr,wkr}/containerd/containerd.pid; do
    [ -r "$pidf" ] && ticks=$((ticks + $(ci_proc_ticks "$(cat "$pidf")")))
  done
  echo $((ns / 1000000 + ticks * 1000 / ci_tck))
}

# "wall_us children_ticks engine_ms machine_ticks" now; children: this shell's waited-for children,
# less the background jobs' (their own rows).
ci_clock() {
  local -a cpu f
  local s
  read -ra cpu </proc/stat
  s=$(cat /proc/$$/stat)
  s=${s##*) }
  read -ra f <<<"$s"
  echo "${EPOCHREALTIME/./} $((f[13] + f[14] - ci_bg_ticks)) $(ci_engine_ms) $((cpu[1] + cpu[2] + cpu[3] + cpu[6] + cpu[7] + cpu[8]))"
}

# A process and its descendants, all found before any is stopped (a parent must not run on).
ci_tree() {
  local stat line ppid pid
  echo "$1"
  for stat in /proc/[0-9]*/stat; do
    { read -r line <"$stat"; } 2>/dev/null || continue
    line=${line##*) }
    read -r _ ppid _ <<<"$line"
    [ "$ppid" = "$1" ] || continue
    pid=${stat%/stat}
    ci_tree "${pid#/proc/}"
  done
}
ci_kill_tree() {
  local pids
  pids=$(ci_tree "$1")
  kill -TERM $pids 2>/dev/null || true
}

# A background job's CPU reaches this shell's children time when the job ends (bash reaps it then,
# waited for or not), so the jobs that have ended are taken out of the steps' CPU as they end.
ci_count_ended_jobs() {
  local name rc wall ticks
  for name in "${!ci_bg_pid[@]}"; do
    [ -z "${ci_bg_counted[$name]:-}" ] && [ -s "${ci_bg_log[$name]}" ] || continue
    read -r rc wall ticks <"${ci_bg_log[$name]}" || continue
    ci_bg_ticks=$((ci_bg_ticks + ticks))
    ci_bg_counted[$name]=1
  done
}

ci_step_started=""
ci_end_step() {
  [ -n "$ci_step_name" ] || return 0
  local -a a b
  read -ra a <<<"$ci_step_started"
  ci_count_ended_jobs
  read -ra b <<<"$(ci_clock)"
  local engine=$((b[2] - a[2])) cpu=$((b[1] - a[1]))
  [ "$engine" -ge 0 ] || engine=0   # an engine stopped during the step takes its counters with it
  [ "$cpu" -ge 0 ] || cpu=0         # a job counted as it ended, reaped a moment later
  ci_rows+=("$(printf '%-62.62s %6d %6d %6d %7d' "$ci_step_name" $(((b[0] - a[0] + 500000) / 1000000)) $(((cpu + ci_tck / 2) / ci_tck)) $(((engine + 500) / 1000)) $(((b[3] - a[3] + ci_tck / 2) / ci_tck)))")
  ci_step_name=""
}

step() {
  ci_end_step
  printf '\n==> [%4ss] %s\n' $(((${EPOCHREALTIME/./} - ci_t0) / 1000000)) "$*"
  ci_step_name=$*
  ci_count_ended_jobs
  ci_step_started=$(ci_clock)
}

background() {
  local name=$1 log
  shift
  log=$(mktemp "${TMPDIR:-/tmp}/ssebench-ci-bg.XXXXXX")
  ci_bg_log[$name]=$log
  printf '    (in the background: %s)\n' "$name"
  (
    t0=${EPOCHREALTIME/./}
    rc=0
    "$@" >"$log.out" 2>&1 </dev/null || rc=$?
    me=$BASHPID
    s=$(cat "/proc/$me/stat")
    s=${s##*) }
    read -ra f <<<"$s"
    echo "$rc $(((${EPOCHREALTIME/./} - t0 + 500000) / 1000000)) $((f[13] + f[14]))" >"$log"
    exit "$rc"
  ) &
  ci_bg_pid[$name]=$!
}

wait_for() {
  local name=$1 rc=0 wall ticks log=${ci_bg_log[$1]}
  [ -z "${ci_bg_done[$name]:-}" ] || return 0
  wait "${ci_bg_pid[$name]}" || true
  ci_bg_done[$name]=1
  read -r rc wall ticks <"$log" || { rc=1 wall=0 ticks=0; }
  [ -n "${ci_bg_counted[$name]:-}" ] || ci_bg_ticks=$((ci_bg_ticks + ticks))
  ci_bg_counted[$name]=1
  printf -- '--- %s (in the background, %ss, exit %s):\n' "$name" "$wall" "$rc"
  cat "$log.out"
  rm -f "$log" "$log.out"
  ci_rows+=("$(printf '%-62.62s %6d %6d %6s %7s' "(background) $name" "$wall" $(((ticks + ci_tck / 2) / ci_tck)) - -)")
  [ "$rc" -eq 0 ] || { echo "CI: $name failed (exit $rc)" >&2; exit "$rc"; }
}

# On exit: background jobs still running are stopped (CI failed before it needed them), then the table.
ci_table() {
  local rc=$? name
  # the step ends first: the stopped jobs' CPU, reaped from here on, is not the failed step's
  [ -n "$ci_step_name" ] && [ "$rc" -ne 0 ] && ci_step_name="$ci_step_name (FAILED)"
  ci_end_step
  for name in "${!ci_bg_pid[@]}"; do
    [ -n "${ci_bg_done[$name]:-}" ] && continue
    ci_kill_tree "${ci_bg_pid[$name]}"
    printf 'CI: stopped the background job %s (not waited for); its output:\n' "$name" >&2
    cat "${ci_bg_log[$name]}.out" >&2 2>/dev/null || true
  done
  printf '\n%-62s %6s %6s %6s %7s\n' "step (seconds; load at the end $(cut -d' ' -f1-3 /proc/loadavg))" wall cpu engine machine
  printf '%s\n' "${ci_rows[@]}"
  printf '%-62s %6d\n' "total" $(((${EPOCHREALTIME/./} - ci_t0 + 500000) / 1000000))
}
trap ci_table EXIT

# tests SKIPS COMMAND...: runs one bun test command, keeps its output for the closing line
# (ci_test_counts), and fails CI when it skipped a test this step is meant to run: SKIPS is an
# extended regex over the names of the tests the step may skip ('' = none may be skipped). It
# returns the command's exit code itself: called as `tests … || rc=$?`, errexit is off inside it,
# so a failing pipeline would not stop it (the swarm step's failures were once lost that way).
ci_test_log=$(mktemp)
tests() {
  local expected=${1:-^$} log unexpected rc=0
  shift
  log=$(mktemp)
  "$@" 2>&1 | tee -a "$ci_test_log" "$log" || rc=$?
  unexpected=$(sed -n 's/^(skip) //p' "$log" | sort -u | grep -Ev -- "$expected" || true)
  rm -f "$log"
  if [ -n "$unexpected" ]; then
    printf '\nCI: tests were skipped in the step meant to run them:\n%s\n' "$unexpected" >&2
    exit 1
  fi
  return "$rc"
}

# One line of what every `tests` run counted.
ci_test_counts() {
  awk '/^ [0-9]+ pass$/{p+=$1} /^ [0-9]+ fail$/{f+=$1} /^ [0-9]+ skip$/{s+=$1} END{printf "tests: %d passed, %d failed, %d skipped\n", p, f, s}' "$ci_test_log"
}
