#!/usr/bin/env bash
# A two-node Docker Swarm on this one machine, for the swarm backend's tests and CI:
# `start`, `stop`, `status`, `env` (the shell exports the tests and `ssebench run --backend swarm` use).
#
# Two private engines of their own (the shared one of setup/docker-engine.sh is not touched), each
# in its own network namespace, started with `nsenter --net=…` (`ip netns exec` remounts /sys and
# dockerd then fails with "Devices cgroup isn't mounted"). Each namespace is joined to a bridge in
# the host namespace by a veth pair; nothing has a default route, so no traffic leaves the bridge:
#
#   host: bridge ssbswarm0 10.99.0.254/24
#   netns ssb-swarm-mgr: veth 10.99.0.1  engine unix:///run/ssb-swarm/mgr.sock  swarm manager, label ssebench.role=manager
#   netns ssb-swarm-wkr: veth 10.99.0.2  engine unix:///run/ssb-swarm/wkr.sock  worker,        label ssebench.role=runner
#
# The kernel here has no IPVS, so services use --endpoint-mode dnsrr (the backend does). The node
# engines trust a registry on the bridge (--insecure-registry 10.99.0.0/24). Idempotent: `start`
# returns at once when the swarm is up. Needs root and docker.io (dockerd, docker CLI).
#
# Settings (environment, all optional):
#   SSEBENCH_SWARM_DIR   data, exec roots, logs (default /var/lib/ssebench-swarm; sockets in /run/ssb-swarm)
#   SSEBENCH_SWARM_WAIT  seconds to wait for each engine (default 60)
#   SSEBENCH_SWARM_NAME  a second swarm beside the first (up to 10 of a-z, 0-9, -): its namespaces
#                        NAME-mgr and NAME-wkr, bridge NAME-br, veths NAME-mgr and NAME-wkr, sockets in
#                        /run/NAME, data in /var/lib/NAME, cgroup parents /NAME-mgr and /NAME-wkr
#   SSEBENCH_SWARM_NET   its /24 as three octets (default 10.99.0); a second swarm needs its own
set -euo pipefail

name=${SSEBENCH_SWARM_NAME:-ssb-swarm}
[[ $name =~ ^[a-z0-9-]{1,10}$ ]] || { echo "swarm-two-node: SSEBENCH_SWARM_NAME=$name: expected up to 10 of a-z, 0-9 and -" >&2; exit 2; }
net_prefix=${SSEBENCH_SWARM_NET:-10.99.0}
[[ $net_prefix =~ ^[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}$ ]] || { echo "swarm-two-node: SSEBENCH_SWARM_NET=$net_prefix: expected three octets, e.g. 10.99.0" >&2; exit 2; }
if [ "$name" = ssb-swarm ]; then
  dir=${SSEBENCH_SWARM_DIR:-/var/lib/ssebench-swarm}
  bridge=ssbswarm0 veth=ssbsw
else
  dir=${SSEBENCH_SWARM_DIR:-/var/lib/$name}
  bridge=$name-br veth=$name
fi
run=/run/$name
wait_seconds=${SSEBENCH_SWARM_WAIT:-60}
nodes=(mgr wkr)
declare -A addr=([mgr]=$net_prefix.1 [wkr]=$net_prefix.2)
declare -A role=([mgr]=manager [wkr]=runner)

say() { printf 'swarm-two-node: %s\n' "$*"; }
fail() { printf 'swarm-two-node: %s\n' "$*" >&2; exit 1; }

sock() { echo "unix://$run/$1.sock"; }
dk() { local node=$1; shift; DOCKER_HOST=$(sock "$node") docker "$@"; }
answers() { dk "$1" info --format '{{.ServerVersion}}' >/dev/null 2>&1; }
netns() { echo "$name-$1"; }

engine_pid() {
  local pid_file=$run/$1/dockerd.pid pid
  [ -f "$pid_file" ] || return 1
  pid=$(cat "$pid_file")
  [ -n "$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = dockerd ] || return 1
  [ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" != Z ] || return 1
  echo "$pid"
}

network_up() {
  if ! ip link show "$bridge" >/dev/null 2>&1; then
    ip link add "$bridge" type bridge
    ip addr add "$net_prefix.254/24" dev "$bridge"
  fi
  ip link set "$bridge" up
  for node in "${nodes[@]}"; do
    local ns host_end=$veth-$node
    ns=$(netns "$node")
    [ -e "/var/run/netns/$ns" ] || ip netns add "$ns"
    if ! ip link show "$host_end" >/dev/null 2>&1; then
      ip link add "$host_end" type veth peer name eth0 netns "$ns"
      ip link set "$host_end" master "$bridge" up
      ip -n "$ns" addr add "${addr[$node]}/24" dev eth0
    fi
    ip -n "$ns" link set lo up
    ip -n "$ns" link set eth0 up
  done
}

engine_up() {
  local node=$1 ns pid
  ns=$(netns "$node")
  if answers "$node"; then return 0; fi
  mkdir -p "$dir/$node" "$run/$node"
  if ! pid=$(engine_pid "$node"); then
    # setsid: the engine outlives this shell. Its own cgroup parent keeps its containers apart from
    # the shared engine's; no default bridge and no iptables rules, as the shared engine.
    setsid nsenter --net="/var/run/netns/$ns" dockerd \
      --data-root "$dir/$node/data" --exec-root "$run/$node" --pidfile "$run/$node/dockerd.pid" \
      --host "$(sock "$node")" --cgroup-parent "/$name-$node" \
      --bridge=none --iptables=false --ip-forward=false --ip-masq=false \
      --insecure-registry "$net_prefix.0/24" \
      >>"$dir/$node.log" 2>&1 </dev/null &
    say "started the $node engine (netns $ns, log $dir/$node.log)"
  fi
  local deadline=$((SECONDS + wait_seconds))
  until answers "$node"; do
    [ $SECONDS -lt $deadline ] || { tail -n 20 "$dir/$node.log" >&2; fail "the $node engine did not answer within ${wait_seconds}s"; }
    sleep 0.3
  done
}

swarm_up() {
  if [ "$(dk mgr info --format '{{.Swarm.LocalNodeState}}')" != active ]; then
    dk mgr swarm init --advertise-addr "${addr[mgr]}" --listen-addr "${addr[mgr]}:2377" >/dev/null
    say "swarm initialised on the manager (${addr[mgr]})"
  fi
  if [ "$(dk wkr info --format '{{.Swarm.LocalNodeState}}')" != active ]; then
    local token
    token=$(dk mgr swarm join-token --quiet worker)
    dk wkr swarm join --token "$token" --advertise-addr "${addr[wkr]}" --listen-addr "${addr[wkr]}:2377" "${addr[mgr]}:2377" >/dev/null
    say "worker joined"
  fi
  local ids=() id
  for node in "${nodes[@]}"; do
    id=$(dk "$node" info --format '{{.Swarm.NodeID}}')
    ids+=("$id")
    dk mgr node update --label-add "ssebench.role=${role[$node]}" --label-add "ssebench.node=$node" "$id" >/dev/null
  done
  # A swarm kept from a run whose stop did not end it (the manager's leave can time out) still lists
  # the worker it had, Down and labelled as the runner: trials would be placed there and wait.
  for id in $(dk mgr node ls --quiet); do
    [[ " ${ids[*]} " == *" $id "* ]] || { dk mgr node rm --force "$id" >/dev/null && say "removed node $id, left from an earlier swarm"; }
  done
  # The manager only manages and serves (gateway, results); trials go where ssebench.role=runner.
  local deadline=$((SECONDS + wait_seconds))
  until [ "$(dk mgr node ls --format '{{.Status}}' | grep -c Ready)" -eq ${#nodes[@]} ]; do
    [ $SECONDS -lt $deadline ] || fail "the worker is not Ready within ${wait_seconds}s"
    sleep 0.3
  done
}

start() {
  [ "$(id -u)" -eq 0 ] || fail "starting the test swarm needs root"
  command -v dockerd >/dev/null || fail "dockerd is missing: install docker.io (bash setup/docker-engine.sh start does)"
  command -v ip >/dev/null || fail "ip is missing: install iproute2"
  command -v nsenter >/dev/null || fail "nsenter is missing: install util-linux"
  network_up
  for node in "${nodes[@]}"; do engine_up "$node"; done
  swarm_up
  # An engine keeps its containers across a restart: a trial's relay or container that a killed run
  # left would count as that run's test's leftover in the next one.
  for node in "${nodes[@]}"; do
    local stale
    stale=$(dk "$node" ps --all --quiet --filter label=ssebench.backend=swarm --filter status=exited --filter status=created)
    [ -z "$stale" ] || { dk "$node" rm --force $stale >/dev/null && say "removed $(wc -w <<<"$stale") container(s) an earlier run left on the $node engine"; }
  done
  status
}

stop() {
  for node in wkr mgr; do
    if answers "$node"; then dk "$node" swarm leave --force >/dev/null 2>&1 || true; fi
    local pid
    if pid=$(engine_pid "$node"); then
      kill -TERM "$pid"
      local deadline=$((SECONDS + 30))
      while kill -0 "$pid" 2>/dev/null; do
        [ $SECONDS -lt $deadline ] || { kill -KILL "$pid"; break; }
        sleep 0.2
      done
      say "stopped the $node engine ($pid)"
    fi
    # The swarm ends with its engines: a leave that timed out (seen on the manager: "context deadline
    # exceeded") would otherwise bring the old swarm back at the next start.
    rm -rf "${dir:?}/$node/data/swarm"
    # An engine that leaves the swarm as it stops can leave its network sandboxes (ingress_sbox,
    # the overlay's) mounted under its exec root; they would keep the namespaces alive.
    local mnt
    for mnt in $(awk -v root="$run/$node/" 'index($2, root) == 1 { print $2 }' /proc/mounts); do
      umount -l "$mnt" 2>/dev/null || true
    done
    local ns
    ns=$(netns "$node")
    ip link del "$veth-$node" 2>/dev/null || true
    [ -e "/var/run/netns/$ns" ] && ip netns del "$ns"
  done
  ip link del "$bridge" 2>/dev/null || true
  say "stopped"
}

status() {
  for node in "${nodes[@]}"; do answers "$node" || { say "not running ($node engine down)"; return 1; }; done
  dk mgr node ls --format '{{.ID}} {{.ManagerStatus}} {{.Status}} {{.Availability}}' | sed 's/^/swarm-two-node: node /'
}

# Lines for `eval "$(bash setup/swarm-two-node.sh env)"`: the manager for the backend, and every
# node's engine by node ID (images are loaded into each; results copied from the trial's node).
env_lines() {
  local pairs=()
  for node in "${nodes[@]}"; do pairs+=("$(dk "$node" info --format '{{.Swarm.NodeID}}')=$(sock "$node")"); done
  local IFS=,
  echo "export SSEBENCH_SWARM_HOST=$(sock mgr)"
  echo "export SSEBENCH_SWARM_NODES=${pairs[*]}"
  echo "export SSEBENCH_SWARM_BRIDGE=$net_prefix.254"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  env) env_lines ;;
  *) echo "usage: setup/swarm-two-node.sh start|stop|status|env" >&2; exit 2 ;;
esac
