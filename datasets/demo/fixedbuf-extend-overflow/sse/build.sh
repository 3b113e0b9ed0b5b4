#!/bin/bash
# Builds the crate (target/debug/libfixedbuf.rlib) in the tree being graded (the working directory).
set -euo pipefail
cargo build --offline
