#!/bin/sh
# Builds daedalus and runs its test suites on Debian 13 (trixie: GStreamer
# 1.26, Highway 1.2, Mesa's lavapipe), today's Raspberry Pi OS base, in a
# fresh chroot that mmdebstrap makes from Debian's own packages. The
# downloaded packages are kept in build-debian13/apt-cache, so a re-run
# downloads nothing; the chroot itself is thrown away. What the build and
# tests print comes back as build-debian13/check.log.
set -eu
cd "$(dirname "$0")/.."

tools/apt-install.sh mmdebstrap

out=$PWD/build-debian13
mkdir -p "$out/apt-cache"
rm -f "$out/check.log" "$out/status"
src=$out/src
rm -rf "$src"
mkdir -p "$src"
# The tree as git sees it (tracked files and new ones not ignored).
git ls-files -z --cached --others --exclude-standard |
  xargs -0 cp --parents -t "$src"

# What tools/setup-debian.sh installs for the build and the tests (no
# decoders: nothing here plays a file).
packages=meson,ninja-build,pkg-config,g++,python3
packages=$packages,libgstreamer1.0-dev,libgstreamer-plugins-base1.0-dev
packages=$packages,gstreamer1.0-tools,gstreamer1.0-plugins-base
packages=$packages,libgtest-dev,libhwy-dev,libvulkan-dev,glslang-tools
packages=$packages,mesa-vulkan-drivers,vulkan-validationlayers

# Inside: the build and the tests as README command 2 runs them, niced
# (the CI machine is shared); everything they print goes to check.log.
cat > "$src/check-debian13-inside.sh" <<'INSIDE'
cd /src
{
  dpkg-query -W libgstreamer1.0-dev libglib2.0-dev libhwy-dev \
    mesa-vulkan-drivers &&
    nice -n 10 meson setup build -Dbench=false &&
    nice -n 10 meson compile -C build &&
    nice -n 10 meson test -C build --print-errorlogs
} > check.log 2>&1
echo $? > status
INSIDE

mmdebstrap --variant=apt --include="$packages" \
  --setup-hook="mkdir -p \"\$1/var/cache/apt/archives\"" \
  --setup-hook="sync-in $out/apt-cache /var/cache/apt/archives" \
  --customize-hook="sync-out /var/cache/apt/archives $out/apt-cache" \
  --customize-hook="copy-in $src /" \
  --customize-hook="chroot \"\$1\" sh /src/check-debian13-inside.sh" \
  --customize-hook="copy-out /src/check.log /src/status $out" \
  trixie /dev/null
status=$(cat "$out/status")
tail -30 "$out/check.log"
echo "check-debian13: exit status $status (the whole log: build-debian13/check.log)"
exit "$status"
