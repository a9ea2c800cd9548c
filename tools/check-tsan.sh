#!/bin/sh
# Builds the kernel library and its tests with ThreadSanitizer in
# ./build-tsan (configuring it on first use) and runs the kernel and
# threading suites, whose pools have 2 to 4 threads there. Any report fails
# the run. Installs what it needs first.
set -eu
cd "$(dirname "$0")/.."

tools/apt-install.sh meson ninja-build pkg-config g++ libgtest-dev libhwy-dev

# The GStreamer and Vulkan layers are left out: the threads are the kernel
# library's, and the build stays short; line tables only (-g1), enough for
# ThreadSanitizer's stacks. -O1 and one Highway target besides the portable
# baseline, AVX2, as tools/check-asan.sh: the threads split frames the same
# way whatever target computes the rows, and the SIMD files compiled with
# ThreadSanitizer for every target were most of this part's time
# (deblock_simd.cc and cdef_simd.cc half of its compile jobs).
set -- -Db_sanitize=thread -Db_lundef=false -Dplugin=disabled \
  -Dvulkan=disabled -Dbench=false -Doptimization=1 -Ddebug=false \
  -Dc_args=-g1 \
  "-Dcpp_args=-g1 -DHWY_DISABLED_TARGETS=(HWY_AVX3|HWY_AVX3_DL|HWY_SSE4|HWY_SSSE3)"
if [ -f build-tsan/build.ninja ]; then
  meson setup --reconfigure build-tsan "$@"
else
  meson setup build-tsan "$@"
fi
# Only the thread suites: the pool, every family's frames split across
# pools of 2 to 4 threads (the harness's HarnessThreads: each deblock mode,
# both depths; deblock's bands and their strips on frames wider than two
# strips: deblock-threads), backends sharing a pool, and the backends' 10-bit
# capabilities. The family and SIMD suites run their kernels on the calling
# thread, where ThreadSanitizer has nothing to find.
tests="thread_pool harness-threads shared-pool bit-depth deblock-threads"
# shellcheck disable=SC2046 # one target per word
ninja -C build-tsan $(tools/suite-targets.py build-tsan $tests)

# The first report ends its test with a failure, which fails the run.
TSAN_OPTIONS="halt_on_error=1 abort_on_error=1 ${TSAN_OPTIONS:-}" \
  meson test -C build-tsan --no-rebuild --print-errorlogs \
  --timeout-multiplier 2 $tests
