#!/bin/sh
# Builds the kernel library and its tests with ThreadSanitizer in
# ./build-tsan (configuring it on first use) and runs the kernel and
# threading suites, whose pools have 2 to 4 threads there. Any report fails
# the run. Installs what it needs first.
set -eu
cd "$(dirname "$0")/.."

tools/apt-install.sh meson ninja-build pkg-config g++ libgtest-dev libhwy-dev

# The GStreamer and Vulkan layers are left out: the threads are the kernel
# library's, and the build stays short.
options="-Db_sanitize=thread -Db_lundef=false -Dplugin=disabled
  -Dvulkan=disabled -Dbench=false"
if [ -f build-tsan/build.ninja ]; then
  meson setup --reconfigure build-tsan $options
else
  meson setup build-tsan $options
fi
meson compile -C build-tsan

# The first report ends its test with a failure, which fails the run. The
# SIMD suites run about ten times slower than in a normal build (mc-simd:
# 10 s, 100 s), hence the longer timeouts.
TSAN_OPTIONS="halt_on_error=1 abort_on_error=1 ${TSAN_OPTIONS:-}" \
  meson test -C build-tsan --print-errorlogs --timeout-multiplier 2 \
  deblock deblock-simd cdef cdef-simd mc mc-simd \
  thread_pool threads shared-pool
