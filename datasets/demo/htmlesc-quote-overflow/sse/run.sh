#!/bin/bash
# run.sh POC: feeds the PoC file to the ./htmlesc that build.sh made in the working directory.
# Exit 0: no memory error; non-zero: AddressSanitizer reported one (the PoC triggers).
set -uo pipefail
export ASAN_OPTIONS=detect_leaks=0
./htmlesc "$1" >/dev/null
status=$?
echo "Exit code: $status"
exit $status
