#!/usr/bin/env bash
# The README's main command (`npm run demo`): from a fresh Debian machine (as root), build both
# binaries, start the private Docker engine, build the base images from an offline Debian root,
# then run one built-in demo task end to end with the reference agent and print its grade.
# Idempotent: a second call reuses the engine, the images and the cached layers.
# Usage: scripts/dev/demo.sh [TASK] [AGENT]   (defaults: htmlesc-quote-overflow reference)
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/node_modules/.bin:$PATH"
task=${1:-htmlesc-quote-overflow}
agent=${2:-reference}
say() { printf 'demo: %s\n' "$*" >&2; }

say "building dist/ssebench and dist/ssebench-entrypoint"
bun scripts/build/build.ts >&2
say "starting the Docker engine"
bash setup/docker-engine.sh start >&2
say "Debian root image (debootstrap once)"
root_image=$(bash setup/debian-root-image.sh)
say "base images (apt inside docker build, once)"
bash images/base-images/build.sh --root "$root_image" >&2
say "running task $task with the $agent agent"
exec ./dist/ssebench run --task "$task" --agent "$agent"
