#!/bin/sh
# Builds the libFuzzer targets of tests/fuzz with clang and
# AddressSanitizer in ./build-fuzz (configuring it on first use) and runs
# each for FUZZ_SECONDS (default 30) from its seed corpus,
# tests/fuzz/corpus/<target>/; inputs it finds go to build-fuzz/corpus/,
# not the tree. A crash, a sanitizer report, a leak or a scalar/cpu mismatch
# fails, leaving the input in build-fuzz/artifacts/<target>-*: replay it
# with build-fuzz/tests/fuzz/<target>-fuzz FILE.
set -eu
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-30}

tools/apt-install.sh clang libclang-rt-14-dev meson ninja-build pkg-config \
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev libhwy-dev

# Coverage instrumentation everywhere (the kernel library and plugin too);
# no Vulkan (no target uses the GPU). To keep the build short (clang with
# sanitizers takes long over Highway's per-target code): AddressSanitizer
# only (tools/check-asan.sh runs UBSan), -O1, and of the SIMD targets only
# AVX2, the one the cpu backend runs on CI's machine (the SIMD suites check
# every target against the reference).
set -- -Dfuzz=true -Dtests=disabled -Dbench=false -Dvulkan=disabled \
  -Db_sanitize=address -Db_lundef=false \
  -Doptimization=1 -Ddebug=false \
  "-Dc_args=-g1 -fsanitize=fuzzer-no-link" \
  "-Dcpp_args=-g1 -fsanitize=fuzzer-no-link -DHWY_DISABLED_TARGETS=(HWY_AVX3|HWY_AVX3_DL|HWY_SSE4|HWY_SSSE3)"
if [ -f build-fuzz/build.ninja ]; then
  meson setup --reconfigure build-fuzz "$@"
else
  CC=clang CXX=clang++ meson setup build-fuzz "$@"
fi
# The targets and the plugin that element-fuzz loads, nothing else (the
# demo): each compile here is a slow one. Two jobs: the 2 cores of CI's
# machine.
fuzzers="deblock cdef mc damage element"
build_targets=gstdaedalus
for target in $fuzzers; do build_targets="$build_targets $target-fuzz"; done
meson compile -C build-fuzz -j 2 $build_targets

# intercept_tls_get_addr=0: see tools/check-asan.sh (LeakSanitizer's tracer
# crash on a misread dynamic TLS block).
export ASAN_OPTIONS=abort_on_error=1:intercept_tls_get_addr=0
export G_SLICE=always-malloc
rm -rf build-fuzz/artifacts
mkdir -p build-fuzz/artifacts
# Runs target $1 for $seconds s into build-fuzz/$1.log; a crash, report,
# leak or mismatch leaves an artifact.
fuzz() {
  mkdir -p "build-fuzz/corpus/$1"
  "build-fuzz/tests/fuzz/$1-fuzz" -max_total_time="$seconds" \
    -print_final_stats=1 -artifact_prefix="build-fuzz/artifacts/$1-" \
    "build-fuzz/corpus/$1" "tests/fuzz/corpus/$1" > "build-fuzz/$1.log" 2>&1
}
# Two targets at a time: each is one process on one of CI's two cores.
set -- $fuzzers
while [ $# -gt 0 ]; do
  pair=$1
  shift
  if [ $# -gt 0 ]; then
    pair="$pair $1"
    shift
  fi
  for target in $pair; do fuzz "$target" & done
  wait
  for target in $pair; do
    echo "check-fuzz: $target for $seconds s"
    grep -v "^#[0-9]*.*\(NEW\|REDUCE\|pulse\)" "build-fuzz/$target.log" || true
  done
  # The target's status is not kept: an artifact is the failure.
  if [ -n "$(ls build-fuzz/artifacts)" ]; then
    echo "check-fuzz: FAILED: $(ls build-fuzz/artifacts)" >&2
    exit 1
  fi
done
echo "check-fuzz: no crash, report, leak or mismatch in ${seconds}s per target"
