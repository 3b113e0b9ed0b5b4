#!/bin/sh
# Last step of the Python image's build, after common/toolchain.sh: pytest runs a passing test,
# reports a failing one (exit 1) and deselects by -k; its version joins the recorded toolchain.
set -eu
out=/usr/local/share/ssebench/toolchain
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
printf 'def test_ok():\n    assert 1 + 1 == 2\n\ndef test_fails():\n    assert False\n' >test_check.py
python3 -m pytest -q -k test_ok test_check.py >ok.txt
if python3 -m pytest -q test_check.py >fails.txt; then echo "pytest-check.sh: pytest passed a failing test" >&2; exit 1; fi
grep -q '1 failed, 1 passed' fails.txt
[ ! -e .pytest_cache ] && [ ! -e __pycache__ ] || { echo "pytest-check.sh: pytest wrote a cache into the tree" >&2; exit 1; }
version=$(python3 -m pytest --version 2>&1 | grep -oE '[0-9]+\.[0-9]+(\.[0-9]+)?' | head -n 1)
[ -n "$version" ] || { echo "pytest-check.sh: no version for pytest" >&2; exit 1; }
echo "pytest=$version" >>"$out"
echo "pytest=$version"
