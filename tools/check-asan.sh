#!/bin/sh
# Builds daedalus with AddressSanitizer and UndefinedBehaviorSanitizer in
# ./build-asan (configuring it on first use) and runs the element suites and
# the kernel suites that fit CI's time. Any report fails the run: ASan and
# UBSan abort at the first, LeakSanitizer reports at each process's exit.
# Leaks that other libraries make are suppressed in tools/sanitizers/
# lsan.supp, each with its reason.
set -eu
cd "$(dirname "$0")/.."

tools/apt-install.sh \
  meson ninja-build pkg-config g++ \
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev \
  libgtest-dev libhwy-dev \
  libvulkan-dev glslang-tools mesa-vulkan-drivers vulkan-validationlayers

# -O1, line tables only (-g1: enough for ASan's stacks) and one Highway
# target besides the portable baseline, AVX2 (every x86 CPU CI runs on has
# it; meson test checks every target's output and guard bytes), make the
# Highway kernels build in a fraction of the time: the two largest files
# take half as long as with SSE4 and SSSE3 too (cdef_simd.cc: 162 to 77 s
# of CPU).
set -- -Db_sanitize=address,undefined -Db_lundef=false -Dbench=false \
  -Doptimization=1 -Ddebug=false -Dc_args=-g1 \
  "-Dcpp_args=-g1 -DHWY_DISABLED_TARGETS=(HWY_AVX3|HWY_AVX3_DL|HWY_SSE4|HWY_SSSE3)"
if [ -f build-asan/build.ninja ]; then
  meson setup --reconfigure build-asan "$@"
else
  meson setup build-asan "$@"
fi

# The gst suites (auto strength included), and the kernel suites that check
# the SIMD kernels (the damage estimator's too), the GPU runner and the
# fallback from a failing GPU (frame snapshots, writes into Vulkan memory)
# where ASan sees most (out-of-bounds loads, freed Vulkan memory), and the
# ELF note walk behind the decision cache's build-id (machine).
suites="gst-plugin gst-deblock gst-cdef gst-mc gst-auto_strength decision-cache
  deblock-simd cdef-simd mc-simd damage-simd gpu-runner fallback machine"
targets=gstdaedalus
for suite in $suites; do targets="$targets $suite-test"; done
# The shared harness's SIMD group: every family on every target.
suites="$suites harness-simd"
targets="$targets harness-test"
meson compile -C build-asan $targets

# A registry written by gst-plugin-scanner, which cannot load the sanitized
# plugin, would list it as broken.
rm -f build-asan/tests/gst/registry-*.bin
# LeakSanitizer's tracer takes a thread's dynamic TLS block for a glibc 2.19
# header when its address happens to sit at the header's size past a page
# (google/sanitizers#1322), scans a bogus range and dies with "Tracer caught
# signal 11": CI failed so once in ~60 runs. Not tracking dynamic TLS avoids
# it; no pointer of ours lives only there.
export ASAN_OPTIONS=abort_on_error=1:intercept_tls_get_addr=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export LSAN_OPTIONS="suppressions=$PWD/tools/sanitizers/lsan.supp"
# GLib before 2.76 hands out memory from its own slices, which ASan cannot
# check.
export G_SLICE=always-malloc
export CK_TIMEOUT_MULTIPLIER=4
# The Vulkan layer and driver stay loaded (the loader unloads them with
# each instance), so that LeakSanitizer still sees their globals and names
# them in stacks; the ASan runtime must come first.
preload="$(g++ -print-file-name=libasan.so):libVkLayer_khronos_validation.so"
preload="$preload:libvulkan_lvp.so"
# The shaders that lavapipe compiled for the test command's run (./build),
# where it ran: the same SPIR-V, which LLVM compiled again under ASan's
# interceptors otherwise (gst-cdef alone 131 s from an empty cache, 79 s
# from the test command's).
wrapper="env LD_PRELOAD=$preload"
if [ -d build/tests/mesa-shader-cache ]; then
  wrapper="$wrapper MESA_SHADER_CACHE_DIR=$PWD/build/tests/mesa-shader-cache"
fi
meson test -C build-asan --no-rebuild --print-errorlogs --timeout-multiplier 4 \
  --wrapper "$wrapper" $suites
