#!/usr/bin/env bash
# A private image registry on loopback for tests and CI: Debian's docker-registry (the CNCF
# distribution registry), its own config and storage in DIR, on 127.0.0.1 at a free port.
# The engine pushes to it over plain HTTP: 127.0.0.0/8 is an insecure registry by default.
# SSEBENCH_REGISTRY_HOST binds another address instead (e.g. the two-node swarm's bridge,
# 10.99.0.254, which its node engines trust: scripts/swarm-two-node.sh).
#
#   scripts/registry.sh start [DIR]   prints the address (<host>:<port>); DIR defaults to a new temp folder,
#                                     printed on stderr; the registry's pid is in DIR/pid, its log in DIR/log
#   scripts/registry.sh stop DIR      stops the registry of DIR and removes DIR
#   scripts/registry.sh address DIR   prints the address of the running registry of DIR
set -euo pipefail

die() { echo "registry.sh: $*" >&2; exit 1; }

cmd=${1:-}
case "$cmd" in
start)
  command -v docker-registry >/dev/null || die "docker-registry is not installed (apt-get install -y docker-registry)"
  dir=${2:-$(mktemp -d "${TMPDIR:-/tmp}/ssebench-registry-XXXXXX")}
  host=${SSEBENCH_REGISTRY_HOST:-127.0.0.1}
  [[ $host =~ ^[0-9.]+$ ]] || die "SSEBENCH_REGISTRY_HOST must be an IPv4 address, got '$host'"
  mkdir -p "$dir/data"
  [ -e "$dir/pid" ] && kill -0 "$(cat "$dir/pid")" 2>/dev/null && die "a registry of $dir is running already (pid $(cat "$dir/pid"))"
  cat >"$dir/config.yml" <<YAML
version: 0.1
log:
  level: info
  formatter: text
storage:
  filesystem:
    rootdirectory: $dir/data
  delete:
    enabled: true
http:
  addr: $host:0
YAML
  # setsid: the registry outlives this script and a test's process group.
  setsid docker-registry serve "$dir/config.yml" >"$dir/log" 2>&1 </dev/null &
  echo $! >"$dir/pid"
  for _ in $(seq 1 100); do
    addr=$(grep -o "listening on ${host//./\\.}:[0-9]*" "$dir/log" | head -n 1 | cut -d' ' -f3 || true)
    if [ -n "$addr" ]; then
      echo "$addr" >"$dir/address"
      echo "registry.sh: serving $addr from $dir" >&2
      echo "$addr"
      exit 0
    fi
    kill -0 "$(cat "$dir/pid")" 2>/dev/null || die "docker-registry exited: $(tail -n 3 "$dir/log")"
    sleep 0.1
  done
  die "docker-registry did not start listening within 10 s (log: $dir/log)"
  ;;
stop)
  dir=${2:?usage: registry.sh stop DIR}
  if [ -e "$dir/pid" ]; then
    pid=$(cat "$dir/pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  [ -f "$dir/config.yml" ] && rm -rf "$dir"
  ;;
address)
  cat "${2:?usage: registry.sh address DIR}/address"
  ;;
*)
  die "usage: registry.sh start [DIR] | stop DIR | address DIR"
  ;;
esac
