#!/bin/sh
# Builds the gstreamer1.0-daedalus Debian package from this tree in
# ./build-package (dpkg-buildpackage -b; `tools/check-package.sh arm64`
# cross-builds the arm64 one in a Debian 12 chroot), runs lintian on it
# (its report in build-package/lintian-<arch>.txt; an error or warning
# fails), and installs
# the native one with apt in a fresh Debian 12 chroot that has nothing else
# of daedalus and no GST_PLUGIN_PATH, where gst-inspect-1.0 must find the
# three elements (its output in build-package/gst-inspect-<arch>.txt).
set -eu
cd "$(dirname "$0")/.."
arch=${1:-$(dpkg --print-architecture)}
native=$(dpkg --print-architecture)

tools/apt-install.sh dpkg-dev debhelper lintian mmdebstrap fakeroot \
  meson ninja-build pkg-config glslang-tools

# The tree as git sees it (tracked files and new ones not ignored), so no
# build folder goes in.
out=$PWD/build-package
src=$out/src-$arch/daedalus
rm -rf "$out/src-$arch"
mkdir -p "$src"
git ls-files -z --cached --others --exclude-standard |
  xargs -0 cp --parents -t "$src"
# The plugin as the package builds it, on every core (debian/rules builds
# no tests: CI runs them from the tree).
export DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:-nocheck parallel=$(nproc)}"
if [ "$arch" = "$native" ]; then
  tools/apt-install.sh g++ libgstreamer1.0-dev \
    libgstreamer-plugins-base1.0-dev libhwy-dev libvulkan-dev
  (cd "$src" && dpkg-buildpackage -b -us -uc)
else
  # Cross-built in a fresh Debian 12 chroot holding the other
  # architecture's libraries: on this machine their -dev packages would
  # replace the native ones.
  mmdebstrap --variant=apt --aptopt="Acquire::Retries \"5\"" \
    --architectures="$native,$arch" \
    --include="build-essential,crossbuild-essential-$arch,debhelper" \
    --include="meson,ninja-build,pkg-config,glslang-tools" \
    --include="libgstreamer1.0-dev:$arch,libhwy-dev:$arch,libvulkan-dev:$arch" \
    --include="libgstreamer-plugins-base1.0-dev:$arch" \
    --customize-hook="copy-in $out/src-$arch /" \
    --customize-hook="chroot \"\$1\" sh -c 'cd /src-$arch/daedalus && \
      dpkg-buildpackage -b -us -uc -a $arch'" \
    --customize-hook="sync-out /src-$arch $out/src-$arch" \
    bookworm /dev/null
fi
deb=$(ls "$out/src-$arch"/gstreamer1.0-daedalus_*_"$arch".deb)
cp "$deb" "$out/"
deb=$out/$(basename "$deb")
dpkg-deb --contents "$deb"

# The package and the upload description (.changes) that comes with it:
# every tag down to pedantic is recorded; errors and warnings fail.
report=$out/lintian-$arch.txt
status=0
lintian --fail-on error,warning --info --pedantic --show-overrides \
  "$deb" "$out/src-$arch"/daedalus_*_"$arch".changes > "$report" || status=$?
cat "$report"
echo "lintian: $(wc -l < "$report") lines for $arch (build-package/lintian-$arch.txt)"
[ "$status" = 0 ] || exit "$status"

[ "$arch" = "$native" ] || exit 0

# A fresh minimal bookworm (Debian's packages only) with GStreamer's tools;
# the package and what it depends on come in through apt, as on a user's
# machine. mmdebstrap throws the chroot away after the hooks.
inspect=$out/gst-inspect-$arch.txt
mmdebstrap --variant=apt --aptopt="Acquire::Retries \"5\"" \
  --include=gstreamer1.0-tools \
  --customize-hook="copy-in $deb /tmp" \
  --customize-hook="chroot \"\$1\" sh -c 'DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends /tmp/$(basename "$deb")'" \
  --customize-hook="chroot \"\$1\" env -u GST_PLUGIN_PATH \
    -u GST_PLUGIN_PATH_1_0 gst-inspect-1.0 daedalus > $inspect" \
  bookworm /dev/null
cat "$inspect"
for element in daedalusdeblock daedaluscdef daedalusmc; do
  grep -q "^ *$element:" "$inspect" ||
    {
      echo "check-package: $element not found after installing" >&2
      exit 1
    }
done
if grep -q "Unknown package origin" "$inspect"; then
  echo "check-package: no package origin" >&2
  exit 1
fi
echo "check-package: gstreamer1.0-daedalus ($arch) installs and loads"
