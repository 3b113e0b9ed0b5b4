#!/bin/bash
# The crate's tests.
set -euo pipefail
cargo test --offline
