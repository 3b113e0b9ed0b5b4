#!/bin/bash
# The project's unit tests, built with AddressSanitizer so that memory errors fail them too.
set -euo pipefail
export ASAN_OPTIONS=detect_leaks=0
make CFLAGS="-g -O1 -fsanitize=address -fno-omit-frame-pointer" test
