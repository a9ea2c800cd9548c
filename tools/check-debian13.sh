#!/bin/sh
# Builds daedalus and runs the test suites that Debian 13 (trixie: GStreamer
# 1.26, GLib 2.84, Highway 1.2, GCC 14, Mesa's lavapipe), today's Raspberry
# Pi OS base, can change, in a fresh chroot that mmdebstrap makes from
# Debian's own packages: the plugin, the gst suite (the elements), the
# checkasm-style harness (every DSP function of every family on Highway 1.2's
# targets, and on Mesa 25's lavapipe, against the scalar reference), the
# runner, the shared device and hybrid. The per-family SIMD and gpu suites
# (plane- and leaf-level edge cases below the backends the harness drives)
# depend on the compiler and Highway only as the harness does: they run on
# Debian 12 and under qemu (tools/test-aarch64.sh). The element fuzz target runs on Debian 12 only (tools/check-fuzz.sh;
# docs/checks.md says why). The scalar reference, threading, backend choice,
# quality and layout tests depend on none of these versions: CI runs them
# on Debian 12 only, to keep this check short. The downloaded packages are
# kept in build-debian13/apt-cache, so a re-run downloads nothing; the
# chroot itself is thrown away. What the build and tests print comes back
# as build-debian13/check.log (with each step's start and CPU time), the
# build's .ninja_log beside it.
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

# The elements on GStreamer 1.26: gst-deblock walks the base class every
# element shares (caps, buffers, 10-bit and interlaced video, the gpu
# backend's pool, auto's trial and fallback), gst-tenbit_chain all three
# elements in one 10-bit chain (P010's layout as GStreamer 1.26 describes
# it), gst-auto_strength the estimate; the other element suites (their own
# properties and modes over that base) are left to Debian 12 (CI's time).
tests="gst-plugin gst-deblock gst-auto_strength gst-tenbit_chain decision-cache
  damage-simd harness-simd gpu-runner shared-gpu hybrid harness-gpu"
tests=$(echo $tests)

# Inside: the build of what those suites need and their run as README
# command 2 runs them, built as tools/check-asan.sh builds (-O1, no debug
# info) and, as there, one Highway target besides the baseline, AVX2
# (Highway 1.2's code for one x86 target is what this check needs:
# Raspberry Pi OS, which it stands for, runs none of them, and Debian 12's
# suites test every target); everything niced (the CI machine is shared),
# two jobs (its 2 cores), its output in check.log.
cat > "$src/check-debian13-inside.sh" << INSIDE
set -e
cd /src
exec > check.log 2>&1
trap 'echo \$? > status' EXIT
# Each step's start time and the CPU time (user, sys) its commands took so
# far (times in this shell: in a pipe it would count a subshell's), to see
# where the check spends it.
step() { echo "check-debian13: \$(date +%T) \$*"; times > times.txt; tail -1 times.txt; }
step versions
dpkg-query -W libgstreamer1.0-dev libglib2.0-dev libhwy-dev \
  mesa-vulkan-drivers g++
step build
nice -n 10 meson setup build -Dbench=false \
  -Doptimization=1 -Ddebug=false \
  "-Dcpp_args=-DHWY_DISABLED_TARGETS=(HWY_AVX3|HWY_AVX3_DL|HWY_AVX3_ZEN4|HWY_AVX3_SPR|HWY_SSE4|HWY_SSSE3)"
nice -n 10 ninja -C build -j2 \$(tools/suite-targets.py build $tests)
step tests
nice -n 10 meson test -C build --no-rebuild --print-errorlogs $tests
step done
INSIDE

# A download that fails is tried again.
mmdebstrap --variant=apt --aptopt="Acquire::Retries \"5\"" \
  --include="$packages" \
  --setup-hook="mkdir -p \"\$1/var/cache/apt/archives\"" \
  --setup-hook="sync-in $out/apt-cache /var/cache/apt/archives" \
  --customize-hook="sync-out /var/cache/apt/archives $out/apt-cache" \
  --customize-hook="copy-in $src /" \
  --customize-hook="chroot \"\$1\" sh /src/check-debian13-inside.sh" \
  --customize-hook="copy-out /src/check.log /src/status /src/build/.ninja_log $out" \
  trixie /dev/null
status=$(cat "$out/status")
tail -30 "$out/check.log"
echo "check-debian13: exit status $status (the whole log: build-debian13/check.log)"
exit "$status"
