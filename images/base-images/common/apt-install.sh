#!/bin/sh
# Installs Debian packages in a base-image build: apt-install.sh [--backports] PACKAGE...
#
# The apt sources are written here, not taken from the root image, so the pinned
# debian:bookworm-slim and the debootstrapped root (which knows only "bookworm") install the same
# versions: bookworm with its point-release updates and security fixes, plus bookworm-backports
# when asked (only packages that exist nowhere else come from it, e.g. golang-1.22-go).
# DEBIAN_MIRROR and DEBIAN_SECURITY_MIRROR (build args) name the archive.
set -eu
suites="bookworm bookworm-updates"
if [ "${1:-}" = --backports ]; then suites="$suites bookworm-backports"; shift; fi
rm -f /etc/apt/sources.list /etc/apt/sources.list.d/*
cat >/etc/apt/sources.list.d/debian.sources <<SOURCES
Types: deb
URIs: ${DEBIAN_MIRROR:-http://deb.debian.org/debian}
Suites: $suites
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "$@"
apt-get clean
rm -rf /var/lib/apt/lists/*
