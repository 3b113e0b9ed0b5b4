#!/bin/bash
# run.sh POC: asks the ./staticfs-cat that build.sh made for the URL path in the PoC file, with a
# site root whose parent holds a secret. Exit 1 when the secret is printed (the PoC triggers),
# 2 when the PoC cannot run, 0 otherwise.
set -uo pipefail
[ -x ./staticfs-cat ] || { echo "run.sh: ./staticfs-cat is missing; run build.sh first"; exit 2; }
site=$(mktemp -d)
trap 'rm -rf "$site"' EXIT
mkdir -p "$site/public/docs"
echo "<h1>welcome</h1>" >"$site/public/index.html"
echo "SECRET-OUTSIDE-THE-SITE-ROOT" >"$site/secret.txt"
request=$(head -n 1 "$1")
output=$(./staticfs-cat "$site/public" "$request" 2>&1)
echo "GET $request -> $output"
if grep -q SECRET-OUTSIDE-THE-SITE-ROOT <<<"$output"; then
  echo "PoC triggered: $request served a file outside the site root"
  exit 1
fi
echo "PoC did not trigger"
