#!/bin/sh
# Cross-compiles the kernel library and its GoogleTest suites for aarch64 (the
# NEON/SVE code paths of the Raspberry Pi 5 and other Arm machines) and runs
# them under qemu-user (-O2, line tables only, as ./build). Installs the cross
# toolchain and arm64 libraries first.
set -eu
cd "$(dirname "$0")/.."

# libc6:arm64 and libstdc++6:arm64: the loader and libraries the tests run
# on (cross/aarch64-linux-gnu.ini says why not the cross toolchain's).
tools/apt-install.sh \
  crossbuild-essential-arm64 qemu-user libhwy-dev:arm64 libgtest-dev:arm64 \
  libc6:arm64 libstdc++6:arm64

if [ -f build-aarch64/build.ninja ]; then
  meson setup --reconfigure build-aarch64
else
  meson setup build-aarch64 --cross-file cross/aarch64-linux-gnu.ini \
    -Dplugin=disabled -Dbench=false -Ddebug=false -Dc_args=-g1 -Dcpp_args=-g1
fi
# qemu's `-cpu max` has SVE and SVE2: the per-family SIMD suites' edge
# cases run on NEON (the Pi 5's) and SVE2; SVE, Highway's same source with
# a few ops apart, is left to the harness (`harness-simd` runs every target
# on every DSP function). That was a quarter of this run's time. The
# threads suites run (the pool's atomics and waits, deblock's strips on
# Arm's libstdc++) but for harness-threads (suite qemu-slow: every family
# on pools, the same C++ as the native run's, about 300 s here).
GTEST_FILTER='-*/SVE' meson test -C build-aarch64 --print-errorlogs \
  --timeout-multiplier 4 --no-suite qemu-slow
