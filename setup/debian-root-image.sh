#!/usr/bin/env bash
# Builds the Debian root image the base images start from when no image registry is reachable:
# debootstrap a minimal bookworm from the machine's own Debian mirror, then `docker import` it.
# Skipped when the image already exists. Prints the image name on its last line.
#
#   setup/debian-root-image.sh [IMAGE]     (default ssebench/debian-root:bookworm)
#   setup/debian-root-image.sh --print-mirror
#
# Settings (environment, optional):
#   SSEBENCH_DEBIAN_MIRROR  mirror URL (default: the first bookworm URI in $SSEBENCH_APT_DIR/sources.list*)
#   SSEBENCH_DEBIAN_SUITE   suite (default bookworm)
#   SSEBENCH_APT_DIR        where the apt sources are (default /etc/apt)
set -euo pipefail

image=${1:-ssebench/debian-root:bookworm}
suite=${SSEBENCH_DEBIAN_SUITE:-bookworm}
apt_dir=${SSEBENCH_APT_DIR:-/etc/apt}

say() { printf 'debian-root-image: %s\n' "$*" >&2; }
fail() { printf 'debian-root-image: %s\n' "$*" >&2; exit 1; }

# The first URI serving the plain suite (not -security/-updates) in deb822 or one-line sources.
find_mirror() {
  local f
  for f in "$apt_dir"/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk -v suite="$suite" '
      /^[[:space:]]*$/ { if (uri != "" && hit) { print uri; done = 1; exit } uri = ""; hit = 0; next }
      /^URIs:/ { uri = $2 }
      /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == suite) hit = 1 }
      END { if (!done && uri != "" && hit) print uri }
    ' "$f"
  done
  for f in "$apt_dir"/sources.list "$apt_dir"/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    awk -v suite="$suite" '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i == suite) { print ($2 ~ /^\[/ ? $3 : $2); exit } }' "$f"
  done
}

mirror() {
  local found=${SSEBENCH_DEBIAN_MIRROR:-$(find_mirror | head -n 1 || true)}
  [ -n "$found" ] || fail "no Debian mirror for $suite in $apt_dir/sources.list*; set SSEBENCH_DEBIAN_MIRROR"
  echo "$found"
}

if [ "$image" = --print-mirror ]; then
  mirror
  exit 0
fi
case "$image" in -*) echo "usage: setup/debian-root-image.sh [IMAGE | --print-mirror]" >&2; exit 2 ;; esac
if docker image inspect "$image" >/dev/null 2>&1; then
  say "$image exists"
  echo "$image"
  exit 0
fi
[ "$(id -u)" -eq 0 ] || fail "debootstrap needs root"
command -v debootstrap >/dev/null || fail "debootstrap is missing; run setup/docker-engine.sh start (it installs it) or apt-get install debootstrap"

mirror=$(mirror)

root=$(mktemp -d /var/tmp/ssebench-debian-root.XXXXXX)
trap 'rm -rf "$root"' EXIT
say "debootstrap --variant=minbase $suite from $mirror"
started=$SECONDS
if ! debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$root.log" 2>&1; then
  tail -n 20 "$root.log" >&2
  fail "debootstrap failed; full log in $root.log"
fi
rm -f "$root.log"
# Downloaded .debs and package lists only make the image bigger; builds run apt-get update.
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
say "debootstrap took $((SECONDS - started))s; importing as $image"
tar -C "$root" -c . | docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["/bin/bash"]' - "$image" >/dev/null
say "imported $image in $((SECONDS - started))s"
echo "$image"
