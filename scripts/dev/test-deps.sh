#!/usr/bin/env bash
# Installs the Debian packages the test suite drives for real (git, Chromium for the page test,
# docker.io for the engine test).
# Idempotent; a no-op when everything is present. Needs root (CI and the dev machines are root).
set -euo pipefail
need=()
command -v git >/dev/null || need+=(git)
command -v make >/dev/null || need+=(make)      # test/runtime grades a make project
perl -Mthreads -MIPC::SysV -e 1 2>/dev/null || need+=(perl)   # test/runtime/walls: perl-base lacks threads and IPC::SysV
command -v chromium >/dev/null || need+=(chromium)
command -v dockerd >/dev/null || need+=(docker.io)   # test/images starts a private engine
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
