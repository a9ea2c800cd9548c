#!/bin/sh
# Installs what daedalus needs on Debian 12 / Raspberry Pi OS bookworm and
# builds it in ./build (configuring it on first use). Idempotent.
set -eu
cd "$(dirname "$0")/.."

packages="
  meson ninja-build pkg-config g++
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  libgtest-dev
"

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

missing=$(dpkg-query -W -f '${Package} ${db:Status-Status}\n' $packages 2>/dev/null \
  | awk '$2 != "installed" {print $1}'; \
  for p in $packages; do dpkg-query -W "$p" >/dev/null 2>&1 || echo "$p"; done)
if [ -n "$missing" ]; then
  as_root apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $packages
fi

if [ -f build/build.ninja ]; then
  meson setup --reconfigure build
else
  meson setup build
fi
meson compile -C build
