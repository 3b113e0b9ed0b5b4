#!/usr/bin/env bash
# Installs the Debian packages the test suite drives for real (git, Chromium for the page test,
# docker.io for the engine test); with --e2e also those of the end-to-end steps (.ci/run):
# debootstrap (the Debian root image), docker-registry (the registry tests), iproute2 (the test swarm).
# Idempotent; a no-op when everything is present. Needs root (CI and the dev machines are root).
#   scripts/dev/test-deps.sh [--e2e]
set -euo pipefail
e2e=""
case "${1:-}" in
  "") ;;
  --e2e) e2e=1 ;;
  *) echo "usage: scripts/dev/test-deps.sh [--e2e]" >&2; exit 2 ;;
esac
need=()
command -v git >/dev/null || need+=(git)
command -v make >/dev/null || need+=(make)      # test/runtime grades a make project
perl -Mthreads -MIPC::SysV -e 1 2>/dev/null || need+=(perl)   # test/runtime/walls: perl-base lacks threads and IPC::SysV
command -v chromium >/dev/null || need+=(chromium)
command -v dockerd >/dev/null || need+=(docker.io)   # test/images starts a private engine
if [ -n "$e2e" ]; then
  command -v debootstrap >/dev/null || need+=(debootstrap)
  command -v docker-registry >/dev/null || need+=(docker-registry)
  command -v ip >/dev/null || need+=(iproute2)
fi
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "scripts/dev/test-deps.sh: missing ${need[*]}; install them (apt-get install ${need[*]}) or run as root" >&2
  exit 1
fi
out=$(mktemp)
if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${need[@]}"; } >"$out" 2>&1; then
  cat "$out" >&2; rm -f "$out"
  echo "scripts/dev/test-deps.sh: could not install ${need[*]}" >&2
  exit 1
fi
rm -f "$out"
# test/e2e/registry.test.ts starts its own registry on loopback (setup/registry.sh); the package's
# system service (:5000 on every interface) is not wanted where systemd would start it.
case " ${need[*]} " in
  *" docker-registry "*) systemctl disable --now docker-registry >/dev/null 2>&1 || true ;;
esac
