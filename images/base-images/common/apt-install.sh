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
# No package documentation in the images (issue 28): Debian's changelogs, NEWS and README.Debian
# name the CVEs their updates fix, and a task's agent would read them. dpkg leaves these paths out of
# every package installed from now on (also the .debs a task installs with dpkg -i); what the root
# image already has is deleted. Copyright files stay, as in debian:*-slim.
cat >/etc/dpkg/dpkg.cfg.d/ssebench-no-docs <<'EXCLUDES'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
EXCLUDES
find /usr/share/doc -mindepth 1 ! -type d ! -name copyright -delete 2>/dev/null || true
find /usr/share/doc -mindepth 1 -type d -empty -delete 2>/dev/null || true
rm -rf /usr/share/man/* /usr/share/info/* /usr/share/lintian/* /usr/share/linda/*
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "$@"
apt-get clean
rm -rf /var/lib/apt/lists/*
