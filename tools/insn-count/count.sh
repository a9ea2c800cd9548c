#!/bin/sh
# Counts the aarch64 instructions each kernel executes per frame, our NEON
# code against our scalar reference, without Arm hardware: daedalus-bench
# cross-built for aarch64 (./build-insn-count, release) runs under
# qemu-user (-cpu max) with a TCG plugin of ours (insn_count.c) that counts
# every instruction executed. Each row runs the bench twice, with 2 and with
# 2 + N frame calls (--runs), and reports the difference over N, so that
# start-up, allocation and the frame's random fill cancel out.
#   tools/insn-count/count.sh [KERNELS] [FORMATS] [TARGETS]
# default: deblock,cdef,mc  I420  scalar,NEON (names as daedalus-bench
# --kernels, --formats and --targets take them); 1920x1080, one thread.
# INSN_SYMBOLS=N adds, under each row, the N symbols whose code executed the
# most of its instructions per frame (each translation block counted for
# the symbol of its first instruction; "?" is code outside the program's
# symbol table, libc's).
# Needs deb-src lines in apt's sources for the plugin header, which Debian
# ships only in QEMU's source package (apt-get source qemu).
set -eu
cd "$(dirname "$0")/../.."
kernels=${1:-deblock,cdef,mc}
formats=${2:-I420}
targets=${3:-scalar,NEON}
extra_runs=4
symbols=${INSN_SYMBOLS:-0}

tools/apt-install.sh crossbuild-essential-arm64 qemu-user libhwy-dev:arm64 \
  meson ninja-build pkg-config gcc dpkg-dev xz-utils
out=build-insn-count
mkdir -p "$out"

# The plugin API header of the QEMU that runs the count.
version=$(dpkg-query -W -f='${source:Version}' qemu-user)
header=$out/qemu/include/qemu/qemu-plugin.h
if [ ! -f "$header" ]; then
  rm -rf "$out/qemu-src"
  mkdir -p "$out/qemu-src"
  if ! (cd "$out/qemu-src" && apt-get source --download-only "qemu=$version"); then
    echo "count.sh: cannot fetch QEMU's source package ($version) for qemu-plugin.h:" \
      "add deb-src to apt's sources and run apt-get update" >&2
    exit 1
  fi
  mkdir -p "$out/qemu"
  tar -xJf "$out"/qemu-src/qemu_*.orig.tar.xz -C "$out/qemu" \
    --strip-components=1 --wildcards '*/include/qemu/qemu-plugin.h'
  rm -rf "$out/qemu-src"
fi
gcc -shared -fPIC -O2 -Wall -Wextra -Werror -I"$out/qemu/include/qemu" \
  -o "$out/libinsn-count.so" tools/insn-count/insn_count.c

# The benchmark alone, optimised as shipped.
if [ ! -f "$out/bench/build.ninja" ]; then
  meson setup "$out/bench" --cross-file cross/aarch64-linux-gnu.ini \
    --buildtype=release -Dplugin=disabled -Dvulkan=disabled -Dtests=disabled
fi
ninja -C "$out/bench" tools/daedalus-bench

plugin=$out/libinsn-count.so
[ "$symbols" -gt 0 ] && plugin=$plugin,symbols=on

# The plugin's lines for one bench run with `runs` frame calls per row:
# "total N", then "N SYMBOL" with INSN_SYMBOLS.
count() {
  qemu-aarch64 -cpu max -L /usr/aarch64-linux-gnu -plugin "$plugin" -d plugin \
    "$out/bench/tools/daedalus-bench" --kernels "$1" --formats "$2" \
    --targets "$3" --threads 1 --sizes 1920x1080 --runs "$4" 2>&1 |
    sed -n 's/^insn-count: /total /p; s/^insn-count-symbol: //p'
}

echo "| kernel | format | target | instructions per 1920x1080 frame |"
echo "|---|---|---|---|"
for kernel in $(echo "$kernels" | tr , ' '); do
  for format in $(echo "$formats" | tr , ' '); do
    for target in $(echo "$targets" | tr , ' '); do
      base=$(count "$kernel" "$format" "$target" 2)
      more=$(count "$kernel" "$format" "$target" $((2 + extra_runs)))
      a=$(echo "$base" | sed -n 's/^total //p')
      b=$(echo "$more" | sed -n 's/^total //p')
      awk -v k="$kernel" -v f="$format" -v t="$target" -v a="$a" \
        -v b="$b" -v n="$extra_runs" \
        'BEGIN { printf "| %s | %s | %s | %.2f M |\n", k, f, t, (b - a) / n / 1e6 }'
      [ "$symbols" -gt 0 ] || continue
      {
        echo "$base" | sed 's/^/a /'
        echo "$more" | sed 's/^/b /'
      } |
        awk -v n="$extra_runs" '$2 != "total" {
            name = $3; for (i = 4; i <= NF; i++) name = name " " $i
            d[name] += ($1 == "b" ? $2 : -$2) }
          END { for (s in d) if (d[s] != 0) printf "%.3f M %s\n", d[s] / n / 1e6, s }' |
        sort -rn | head -n "$symbols" | c++filt | sed 's/^/    /'
    done
  done
done
