#!/bin/bash
# run.sh POC: compiles the PoC program (a Rust file) against the library build.sh made in the
# working directory and runs it. Exit 0: no out-of-bounds write; 1: the PoC triggered (it checks
# guard bytes placed right after the buffer); any other non-zero: the PoC could not run or panicked.
set -uo pipefail
rlib=target/debug/libfixedbuf.rlib
[ -f "$rlib" ] || { echo "run.sh: $rlib is missing; run build.sh first"; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# No optimisation: the guard check must observe the bytes the unsafe copy wrote.
rustc --edition 2021 -C opt-level=0 -L target/debug/deps --extern fixedbuf="$rlib" \
  -o "$out/poc" "$1" || exit 2
"$out/poc"
status=$?
echo "Exit code: $status"
exit $status
