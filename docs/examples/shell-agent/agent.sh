#!/bin/bash
# Asks the run's model once (OpenAI Chat Completions through the gateway at $SSE_BASE_URL with the
# run's key $SSE_API_KEY), then runs the build check of the agent tool API ($SSE_TOOL_API) on the
# current tree. Bash alone: the task images need not have curl.
set -eu
# POST URL BODY: an HTTP/1.1 request over bash's /dev/tcp; prints the answer's body.
post() {
  local hostport=${1#http://} path
  path=/${hostport#*/}
  hostport=${hostport%%/*}
  exec 3<>"/dev/tcp/${hostport%%:*}/${hostport##*:}"
  printf 'POST %s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s' \
    "$path" "$hostport" "$SSE_API_KEY" "${#2}" "$2" >&3
  sed '1,/^\r$/d' <&3
  exec 3>&-
}
project=$(cat "$SSE_TASK_FILE")
echo "task: $(grep -o '"id": "[^"]*"' <<<"$project")"
question="{\"model\":\"$SSE_MODEL_NAME\",\"messages\":[{\"role\":\"user\",\"content\":\"Suggest a fix for the vulnerability in $SSE_SOURCE.\"}]}"
post "$SSE_BASE_URL/v1/chat/completions" "$question" >"$SSE_ARCHIVE/answer.json"
echo "the model answered: $(head -c 300 "$SSE_ARCHIVE/answer.json")"
# ... edit files under $SSE_SOURCE here ...
post "$SSE_TOOL_API/sse/v1/check/build" "{}" >"$SSE_ARCHIVE/build-check.json"
echo "build check: $(head -c 300 "$SSE_ARCHIVE/build-check.json")"
