#!/bin/sh
# Lists every result file with its size, SHA-256 and producer in $SSE_ARCHIVE/artifact/manifest.json.
exec "${SSEBENCH_ENTRYPOINT:-/usr/local/bin/ssebench-entrypoint}" artifact
