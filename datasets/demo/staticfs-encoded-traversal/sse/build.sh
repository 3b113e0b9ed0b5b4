#!/bin/bash
# Builds ./staticfs-cat in the tree being graded (the working directory).
set -euo pipefail
go build -o staticfs-cat ./cmd/staticfs-cat
