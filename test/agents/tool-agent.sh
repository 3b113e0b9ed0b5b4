#!/bin/bash
# A test agent for the tool API, in bash alone (the demo images have neither curl nor python): a
# small HTTP/1.1 client over bash's /dev/tcp, and on top of it an MCP client (Streamable HTTP,
# JSON replies): initialize, notifications/initialized, tools/list, tools/call test_patch.
#
# usage: tool-agent.sh STEP…   each STEP is one of
#   sh:COMMAND               run a shell command in the tree (cwd)
#   fix                      apply the demo task's fix to the tree (cwd)
#   break                    break the demo task's build
#   mcp                      a whole MCP session that calls test_patch once
#   GET:/path | POST:/path   one plain HTTP call
#   par:STEP,STEP            the steps at the same time
#   readlog                  read the full log named by the last test_patch reply
#   check:WHAT               ssebench-entrypoint check WHAT (needs $SSE_CHECK_BIN)
# Every reply goes to $SSE_ARCHIVE/tool-agent/<n>-<name> as "<status>\n<body>".
export LC_ALL=C
api=${SSE_TOOL_API:-http://127.0.0.1:3000}
hostport=${api#http://}
host=${hostport%%:*}
port=${hostport##*:}
out=$SSE_ARCHIVE/tool-agent
mkdir -p "$out"
n=0

# http METHOD PATH [BODY] → "<status>\n<body>" in $got (a command substitution would drop trailing newlines)
http() {
  local body=${3:-} reply status fd
  exec {fd}<>"/dev/tcp/$host/$port" || { got=000; return 1; }
  printf '%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n%s' \
    "$1" "$2" "$hostport" "${#body}" "$body" >&"$fd"
  reply=$(cat <&"$fd"; printf .)
  reply=${reply%.}
  exec {fd}<&-
  status=${reply#HTTP/1.1 }
  status=${status%% *}
  got="$status"$'\n'"${reply#*$'\r\n\r\n'}"
}

tag=
save() { n=$((n + 1)); printf '%s' "$2" > "$out/$(printf %02d $n)-$1$tag"; }
call() { http "$2" "$3" "${4:-}"; save "$1" "$got"; }

mcp() {
  local init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"tool-agent","version":"1"}}}'
  call mcp-initialize POST /mcp "$init"
  call mcp-initialized POST /mcp '{"jsonrpc":"2.0","method":"notifications/initialized"}'
  call mcp-tools-list POST /mcp '{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}'
  call mcp-test_patch POST /mcp '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"test_patch","arguments":{}}}'
}

step() {
  case $1 in
    sh:*) sh -c "${1#sh:}" ;;
    fix) sed -i 's/^  echo "stack smashing detected" >&2$/  input=$(printf %s "$input" | cut -c1-8)/; /^  exit 139$/d' calc.sh ;;
    break) echo 'if then' >> calc.sh ;;
    mcp) mcp ;;
    GET:* | POST:*) local m=${1%%:*} p=${1#*:}; call "$m${p//\//_}" "$m" "$p" ;;
    par:*) local s; IFS=, read -ra s <<< "${1#par:}"; local i=0; for x in "${s[@]}"; do i=$((i + 1)); (tag=-p$i; step "$x") & done; wait ;;
    readlog) local f; f=$(cat "$out"/*-mcp-test_patch* | grep -o 'Full log available at [^"\\]*' | tail -1); f=${f#Full log available at }; local o rc; o=$(cat "$f"); rc=$?; save readlog "$rc"$'\n'"$o" ;;
    check:*) local o rc; o=$("$SSE_CHECK_BIN" check "${1#check:}" 2>&1); rc=$?; save "check-${1#check:}" "$rc"$'\n'"$o" ;;
    *) echo "tool-agent: unknown step $1" >&2; exit 2 ;;
  esac
}

for s in "$@"; do step "$s"; done
