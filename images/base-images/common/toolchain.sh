#!/bin/sh
# Last step of every base-image build: proves the toolchain works (a failing check fails the
# build, so a broken image never gets the shared tags) and records its versions, one
# `name=version` line each, in /usr/local/share/ssebench/toolchain. build.sh copies them into
# the image's labels and prints them.
set -eu
out=/usr/local/share/ssebench/toolchain
mkdir -p "$(dirname "$out")"
: >"$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
record() { [ -n "$2" ] || { echo "toolchain.sh: no version for $1" >&2; exit 1; }; echo "$1=$2" >>"$out"; }
first_version() { grep -oE '[0-9]+\.[0-9]+(\.[0-9]+)?' | head -n 1; }
has() { command -v "$1" >/dev/null 2>&1; }

# No package documentation but copyright files (apt-install.sh): changelogs and NEWS name CVEs.
docs=$(find /usr/share/doc /usr/share/man /usr/share/info -type f ! -name copyright 2>/dev/null | head -n 5)
[ -z "$docs" ] || { printf 'toolchain.sh: package documentation left in the image:\n%s\n' "$docs" >&2; exit 1; }

# C: every image has gcc (cgo and -sys crates need it); AddressSanitizer must report an overflow.
printf '#include <string.h>\nint main(int c, char **v) { char b[4]; strcpy(b, v[0]); return b[0] == 0; }\n' >overflow.c
gcc -fsanitize=address -g overflow.c -o overflow
if ASAN_OPTIONS=detect_leaks=0 ./overflow 2>asan.txt; then echo "toolchain.sh: ASan missed an overflow" >&2; exit 1; fi
grep -q 'stack-buffer-overflow' asan.txt
record gcc "$(gcc -dumpfullversion)"
record make "$(make --version | first_version)"
record git "$(git --version | first_version)"
if has clang; then
  printf '#include <stdint.h>\n#include <stddef.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return 0; }\n' >fuzz.c
  clang -fsanitize=fuzzer,address fuzz.c -o fuzz
  ./fuzz -runs=10 >/dev/null 2>&1
  record clang "$(clang --version | first_version)"
fi
if has cmake; then record cmake "$(cmake --version | first_version)"; fi
if has gdb; then record gdb "$(gdb --version | first_version)"; fi
if has python3; then record python3 "$(python3 --version | first_version)"; fi
if has go; then
  mkdir gocgo && cd gocgo
  printf 'module cgocheck\n\ngo 1.22\n' >go.mod
  printf 'package main\n\n// int two(void) { return 2; }\nimport "C"\n\nfunc main() { println(C.two()) }\n' >main.go
  printf 'package main\n\nimport "testing"\n\nfunc TestA(t *testing.T) {}\nfunc TestB(t *testing.T) { t.Fatal("skipped") }\n' >main_test.go
  CGO_ENABLED=1 go build -o cgocheck . && ./cgocheck 2>&1 | grep -qx 2
  HOME=$work GOCACHE=$work/gocache go test -skip TestB . >/dev/null
  cd ..
  record go "$(go env GOVERSION | first_version)"
fi
if has cargo; then
  mkdir -p hello/src && cd hello
  printf '[package]\nname = "hello"\nversion = "0.1.0"\nedition = "2021"\n' >Cargo.toml
  printf 'fn main() { println!("hello"); }\n' >src/main.rs
  CARGO_HOME=$work/cargo cargo build --offline --quiet && ./target/debug/hello | grep -qx hello
  cd ..
  record rustc "$(rustc --version | first_version)"
  record cargo "$(cargo --version | first_version)"
fi
cat "$out"
