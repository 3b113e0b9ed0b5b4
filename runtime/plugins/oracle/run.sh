#!/bin/sh
# The run's model reviews the agent's final.patch against the reference patch: $SSE_ARCHIVE/oracle/.
exec "${SSEBENCH_ENTRYPOINT:-/usr/local/bin/ssebench-entrypoint}" oracle
