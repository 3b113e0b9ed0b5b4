#!/bin/bash
# The project's unit tests (go test also runs the main go vet checks).
set -euo pipefail
go test ./...
