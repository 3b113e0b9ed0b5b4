#!/usr/bin/env bash
# Conformance against the reference's pilot data: bash scripts/dev/conformance.sh ../shared/conformance
# Runs the compiled binary (built if missing) on a temporary copy of the four pilot task folders
# and the keep/drop rules of the lock on the full pilot manifest. Exits non-zero on any mismatch.
set -euo pipefail
shared="${1:?usage: scripts/dev/conformance.sh <shared/conformance>}"
[ -d "$shared/pilot" ] || { echo "conformance: $shared/pilot is not a directory" >&2; exit 1; }
shared="$(cd "$shared" && pwd)"
cd "$(dirname "$0")/../.."
export PATH="$PWD/node_modules/.bin:$PATH"
[ -x dist/ssebench ] || bun run build
bun scripts/dev/conformance.ts "$shared/pilot"
