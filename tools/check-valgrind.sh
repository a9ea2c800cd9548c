#!/bin/sh
# Runs a short pipeline through each element on the cpu backend, and one
# through all three on the gpu backend (Mesa's lavapipe), under valgrind's
# memcheck, with the plugin of ./build (README command 2 builds it). Any
# memcheck error or definitely lost block fails.
# tools/sanitizers/valgrind.supp suppresses what other libraries do, each
# entry with its reason.
set -eu
cd "$(dirname "$0")/.."

tools/apt-install.sh valgrind gstreamer1.0-tools gstreamer1.0-plugins-base \
  mesa-vulkan-drivers

meson compile -C build gstdaedalus

log=$PWD/build/valgrind
rm -rf "$log"
mkdir -p "$log"
export GST_PLUGIN_PATH="$PWD/build/gst"
export GST_REGISTRY="$log/registry.bin"
# The registry is written once, outside valgrind: the scan forks
# gst-plugin-scanner, which is not ours to check.
gst-inspect-1.0 daedalus > /dev/null
c++ -std=c++20 -O1 -shared -fPIC -o "$log/hwy_timer_shim.so" \
  tools/sanitizers/hwy_timer_shim.cc
# GLib before 2.76 hands out memory from its own slices, which memcheck
# cannot check.
export G_SLICE=always-malloc G_DEBUG=gc-friendly
# auto would time every backend; each run names its own. The decision cache
# stays out of the user's home.
export XDG_CACHE_HOME="$log/cache"

# Frames reach the GPU's software rasterizer only at valgrind's pace: no
# timeout, and lavapipe's compute on the calling thread.
export DAEDALUS_GPU_TIMEOUT_MS=3600000 LP_NUM_THREADS=0

# Runs gst-launch-1.0 with the elements $2 under memcheck (log: $1.txt);
# fails on any error or definitely lost block.
check() {
  start=$(date +%s)
  if LD_PRELOAD="$log/hwy_timer_shim.so" valgrind --tool=memcheck \
    --error-exitcode=99 --leak-check=full \
    --show-leak-kinds=definite --errors-for-leak-kinds=definite \
    --suppressions=tools/sanitizers/valgrind.supp --gen-suppressions=all \
    --num-callers=40 --log-file="$log/$1.txt" \
    gst-launch-1.0 -q videotestsrc num-buffers=2 pattern=ball ! \
    video/x-raw,format=NV12,width=97,height=61 ! $2 ! fakesink > /dev/null; then
    echo "check-valgrind: $1: $(grep 'ERROR SUMMARY' "$log/$1.txt")" \
      "($(($(date +%s) - start)) s)"
  else
    echo "check-valgrind: $1 FAILED (build/valgrind/$1.txt):"
    grep -A40 "ERROR SUMMARY\|definitely lost in" "$log/$1.txt" | head -80
    return 1
  fi
}

# NV12 for interleaved chroma, an odd size for tails and edges; settings
# that filter (the defaults of daedalusmc pass buffers through).
deblock="daedalusdeblock qp=40"
cdef="daedaluscdef sec-strength=2"
mc="daedalusmc dx=0.3 dy=-1.7"
# valgrind runs a program's threads one at a time, so each check takes one
# core: the checks run side by side, the gpu one (the longest) beside the
# three cpu ones.
pids=""
for element in "$deblock" "$cdef" "$mc"; do
  check "${element%% *}-cpu" "$element backend=cpu" &
  pids="$pids $!"
done
# The three in one pipeline on the gpu backend: one Vulkan device, and
# frames passed from one element's Vulkan memory to the next. Lavapipe
# compiles each shader with LLVM, Mesa's code and most of this check's time
# under valgrind: the pipeline runs once outside it first, with Mesa's
# shader cache on, so that under valgrind the shaders come from the cache.
gpu="$deblock backend=gpu ! $cdef backend=gpu ! $mc backend=gpu"
export MESA_SHADER_CACHE_DIR="$log/cache/mesa"
mkdir -p "$MESA_SHADER_CACHE_DIR" # Mesa 22 makes only the last folder
gst-launch-1.0 -q videotestsrc num-buffers=1 ! \
  video/x-raw,format=NV12,width=97,height=61 ! $gpu ! fakesink > /dev/null
check gpu "$gpu" &
pids="$pids $!"
failed=0
for pid in $pids; do
  wait "$pid" || failed=1
done
exit $failed
