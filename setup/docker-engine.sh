#!/usr/bin/env bash
# Runs a private Docker engine for development and CI: `start`, `stop`, `status`.
# Idempotent: `start` returns at once when the engine already answers.
#
# The engine has no default bridge, no iptables rules and no IP forwarding, so no container can
# reach beyond the machine; containers run with `--network none` or on `--internal` networks.
# `docker build --network host` still works for base images that apt-get install toolchains.
#
# Settings (environment, all optional):
#   SSEBENCH_DOCKER_SOCKET  engine socket        (default /var/run/docker.sock, the CLI's default;
#                                                  with another path export DOCKER_HOST=unix://PATH)
#   SSEBENCH_DOCKER_DATA    --data-root          (default /var/lib/ssebench-docker)
#   SSEBENCH_DOCKER_EXEC    --exec-root          (default /var/run/ssebench-docker)
#   SSEBENCH_DOCKER_LOG     engine log file      (default /var/log/ssebench-dockerd.log)
#   SSEBENCH_DOCKER_WAIT    seconds to wait for the engine to answer (default 60)
#   SSEBENCH_DOCKER_CGROUP  --cgroup-parent of its containers (default the engine's own, /docker)
#   SSEBENCH_DOCKER_POOL    --default-address-pool of its networks, e.g. base=10.123.0.0/16,size=24
#                           (default the engine's own: 172.17-31.0.0/16, 192.168.0.0/16)
# A second engine beside the first (e.g. to run .ci/run as a new machine would) takes its own
# socket, data, exec root and log, and its own cgroup parent and address pool: two engines handing
# out the same subnets would put two bridges with one subnet on the host (docs/developing.md "CI").
set -euo pipefail

socket=${SSEBENCH_DOCKER_SOCKET:-/var/run/docker.sock}
data_root=${SSEBENCH_DOCKER_DATA:-/var/lib/ssebench-docker}
exec_root=${SSEBENCH_DOCKER_EXEC:-/var/run/ssebench-docker}
log_file=${SSEBENCH_DOCKER_LOG:-/var/log/ssebench-dockerd.log}
wait_seconds=${SSEBENCH_DOCKER_WAIT:-60}
extra=()
[ -n "${SSEBENCH_DOCKER_CGROUP:-}" ] && extra+=(--cgroup-parent "$SSEBENCH_DOCKER_CGROUP")
[ -n "${SSEBENCH_DOCKER_POOL:-}" ] && extra+=(--default-address-pool "$SSEBENCH_DOCKER_POOL")
pid_file=$exec_root/dockerd.pid
export DOCKER_HOST=unix://$socket

say() { printf 'docker-engine: %s\n' "$*"; }
fail() { printf 'docker-engine: %s\n' "$*" >&2; exit 1; }

answers() { docker info --format '{{.ServerVersion}}' >/dev/null 2>&1; }

engine_pid() {
  local pid
  [ -f "$pid_file" ] || return 1
  pid=$(cat "$pid_file")
  # A pid file outlives a killed engine (CI ends every process of a session); the pid may be a
  # zombie or reused by now, so only a live process named dockerd counts.
  [ -n "$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = dockerd ] || return 1
  [ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" != Z ] || return 1
  echo "$pid"
}

install_packages() {
  local need=()
  command -v dockerd >/dev/null || need+=(docker.io)
  command -v debootstrap >/dev/null || need+=(debootstrap)
  [ ${#need[@]} -eq 0 ] && return 0
  [ "$(id -u)" -eq 0 ] || fail "missing ${need[*]}; install them (apt-get install ${need[*]}) or run as root"
  say "installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # apt and debconf chatter (e.g. "delaying package configuration") is kept out of stderr; it is
  # shown only when the install fails.
  local out
  out=$(mktemp)
  if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${need[@]}"; } >"$out" 2>&1; then
    cat "$out" >&2; rm -f "$out"; fail "could not install ${need[*]}"
  fi
  rm -f "$out"
}

start() {
  if answers; then
    say "running ($(docker info --format '{{.ServerVersion}}'), $DOCKER_HOST)"
    return 0
  fi
  [ "$(id -u)" -eq 0 ] || fail "starting the engine needs root"
  install_packages
  if pid=$(engine_pid); then
    say "dockerd $pid is up but does not answer yet; waiting"
  else
    mkdir -p "$data_root" "$exec_root" "$(dirname "$log_file")" "$(dirname "$socket")"
    # setsid: the engine must outlive the shell (and process group) that started it.
    setsid dockerd \
      --data-root "$data_root" --exec-root "$exec_root" --pidfile "$pid_file" \
      --host "unix://$socket" \
      --bridge=none --iptables=false --ip-forward=false --ip-masq=false "${extra[@]}" \
      >>"$log_file" 2>&1 </dev/null &
    say "started dockerd $! (log $log_file)"
  fi
  local deadline=$((SECONDS + wait_seconds))
  until answers; do
    if ! kill -0 "${pid:-$!}" 2>/dev/null && ! engine_pid >/dev/null; then
      tail -n 20 "$log_file" >&2
      fail "dockerd exited; see $log_file"
    fi
    [ $SECONDS -lt $deadline ] || fail "dockerd did not answer within ${wait_seconds}s; see $log_file"
    sleep 0.2
  done
  say "running ($(docker info --format '{{.ServerVersion}}'), $DOCKER_HOST)"
}

stop() {
  local pid
  if ! pid=$(engine_pid); then
    say "not running"
    return 0
  fi
  kill -TERM "$pid"
  local deadline=$((SECONDS + 30))
  while kill -0 "$pid" 2>/dev/null; do
    [ $SECONDS -lt $deadline ] || fail "dockerd $pid did not stop within 30s"
    sleep 0.2
  done
  # The engine leaves its network namespaces (netns/default) mounted under its exec root.
  local mnt
  for mnt in $(awk -v root="$exec_root/" 'index($2, root) == 1 { print $2 }' /proc/mounts); do
    umount -l "$mnt" 2>/dev/null || true
  done
  say "stopped dockerd $pid"
}

status() {
  if answers; then
    say "running ($(docker info --format '{{.ServerVersion}}'), $DOCKER_HOST)"
  else
    say "not running ($DOCKER_HOST)"
    return 1
  fi
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) echo "usage: setup/docker-engine.sh start|stop|status" >&2; exit 2 ;;
esac
