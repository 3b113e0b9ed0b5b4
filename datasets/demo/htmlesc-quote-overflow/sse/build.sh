#!/bin/bash
# Builds ./htmlesc with AddressSanitizer in the tree being graded (the working directory).
set -euo pipefail
make CFLAGS="-g -O1 -fsanitize=address -fno-omit-frame-pointer" htmlesc
