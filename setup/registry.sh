#!/usr/bin/env bash
# A private image registry on loopback for tests and CI: Debian's docker-registry (the CNCF
# distribution registry), its own config and storage in DIR, on 127.0.0.1 at a free port.
# The engine pushes to it over plain HTTP: 127.0.0.0/8 is an insecure registry by default.
#
# SSEBENCH_REGISTRY_ALSO=ADDR serves the same storage on ADDR too, at the same port (a second
# registry process: distribution instances may share a filesystem store): e.g. the two-node
# swarm's bridge 10.99.0.254, which its node engines trust (setup/swarm-two-node.sh), while the
# shared engine, which trusts only loopback, pushes to 127.0.0.1. Both addresses name one registry.
#
#   setup/registry.sh start [DIR]   prints the address (127.0.0.1:<port>); DIR defaults to a new temp folder,
#                                     printed on stderr; pids in DIR/pid (DIR/pid-also), logs in DIR/log
#   setup/registry.sh stop DIR      stops the registry of DIR and removes DIR
#   setup/registry.sh address DIR   prints the address (and the other one, on a second line)
set -euo pipefail

die() { echo "registry.sh: $*" >&2; exit 1; }

# serve NAME HOST PORT: one registry process on HOST:PORT (0 = any free port); prints HOST:PORT.
serve() {
  local name=$1 host=$2 port=$3 addr
  cat >"$dir/config-$name.yml" <<YAML
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
  addr: $host:$port
YAML
  # setsid: the registry outlives this script and a test's process group.
  setsid docker-registry serve "$dir/config-$name.yml" >"$dir/log-$name" 2>&1 </dev/null &
  echo $! >"$dir/pid-$name"
  for _ in $(seq 1 100); do
    addr=$(grep -o "listening on ${host//./\\.}:[0-9]*" "$dir/log-$name" | head -n 1 | cut -d' ' -f3 || true)
    if [ -n "$addr" ]; then
      echo "$addr"
      return 0
    fi
    kill -0 "$(cat "$dir/pid-$name")" 2>/dev/null || die "docker-registry on $host exited: $(tail -n 3 "$dir/log-$name")"
    sleep 0.1
  done
  die "docker-registry on $host did not start listening within 10 s (log: $dir/log-$name)"
}

stop_pid() {
  local file=$1 pid
  [ -e "$file" ] || return 0
  pid=$(cat "$file")
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
}

cmd=${1:-}
case "$cmd" in
start)
  command -v docker-registry >/dev/null || die "docker-registry is not installed (apt-get install -y docker-registry)"
  also=${SSEBENCH_REGISTRY_ALSO:-}
  [ -z "$also" ] || [[ $also =~ ^[0-9]{1,3}(\.[0-9]{1,3}){3}$ ]] || die "SSEBENCH_REGISTRY_ALSO must be an IPv4 address, got '$also'"
  dir=${2:-$(mktemp -d "${TMPDIR:-/tmp}/ssebench-registry-XXXXXX")}
  [ -e "$dir/pid-main" ] && kill -0 "$(cat "$dir/pid-main")" 2>/dev/null && die "a registry of $dir is running already (pid $(cat "$dir/pid-main"))"
  mkdir -p "$dir/data"
  touch "$dir/.ssebench-registry"
  main=$(serve main 127.0.0.1 0)
  echo "$main" >"$dir/address"
  if [ -n "$also" ]; then
    other=$(serve also "$also" "${main##*:}") || { stop_pid "$dir/pid-main"; exit 1; }
    echo "$other" >>"$dir/address"
  fi
  echo "registry.sh: serving $(paste -sd' ' "$dir/address") from $dir" >&2
  echo "$main"
  ;;
stop)
  dir=${2:?usage: registry.sh stop DIR}
  stop_pid "$dir/pid-also"
  stop_pid "$dir/pid-main"
  # Only a folder this script made (never a folder given by mistake).
  [ -f "$dir/.ssebench-registry" ] && rm -rf "$dir"
  ;;
address)
  cat "${2:?usage: registry.sh address DIR}/address"
  ;;
*)
  die "usage: registry.sh start [DIR] | stop DIR | address DIR"
  ;;
esac
