#!/bin/sh
# Installs what daedalus needs on Debian 12 / Raspberry Pi OS bookworm and
# builds it in ./build (configuring it on first use). Idempotent. The
# decoders are for the README's example pipelines: H.264/MPEG-4/MPEG-2
# (libav), AV1 and MPEG-TS (bad), MPEG-2 and AVI/MP4 demuxers (ugly, good);
# the 10-bit file test (gst-tenbit_file) encodes HEVC Main10 with x265enc
# (bad) and decodes it with avdec_h265 (libav).
# python3-skimage: the demo's photograph (skimage/data/coffee.png) and the
# quality benchmark's contents.
set -eu
cd "$(dirname "$0")/.."

tools/apt-install.sh \
  meson ninja-build pkg-config g++ \
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev \
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good \
  gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly gstreamer1.0-libav \
  libgtest-dev libhwy-dev \
  libvulkan-dev glslang-tools mesa-vulkan-drivers vulkan-validationlayers \
  python3-skimage

# -O2 with line tables only (-g1: file and line in backtraces, gdb and
# valgrind, no variables): full debug info (-g) took 80% more of the
# compiler's time on the Highway kernels, which compile once per SIMD
# target (cdef_simd.cc 70 s of CPU against 39; docs/checks.md). For full
# debug info: meson configure build -Ddebug=true.
if [ -f build/build.ninja ]; then
  meson setup --reconfigure build
else
  meson setup build -Ddebug=false -Dc_args=-g1 -Dcpp_args=-g1
fi
meson compile -C build
