#!/bin/sh
# Fails when a file is not as its language's formatter writes it:
#   C and C++: clang-format (.clang-format: Google style; gst/.clang-format:
#     GStreamer's layout);
#   GLSL (shaders/): clang-format (shaders/.clang-format), which parses it
#     as C++;
#   Python: black (pyproject.toml);
#   shell (tools/, .ci/run): shfmt (.editorconfig);
#   Meson (meson.build, meson_options.txt): muon fmt (muon-meson), which
#     writes the Meson style guide (Debian 12's meson 1.0 has no `meson
#     format`).
# Formatters change their output between releases, so the check is pinned
# to Debian 12's (clang-format 14, black 23, shfmt 3.6, muon 0.1); elsewhere
# it says so and passes. `tools/check-format.sh --fix` rewrites the files
# instead.
set -eu
cd "$(dirname "$0")/.."

tools/apt-install.sh clang-format black shfmt muon-meson

fix=false
[ "${1:-}" = --fix ] && fix=true

clang_major=$(clang-format --version | sed -n 's/.*version \([0-9]*\).*/\1/p')
black_major=$(black --version | sed -n 's/^black[^0-9]*\([0-9]*\)\..*/\1/p')
shfmt_minor=$(shfmt --version | sed -n 's/^v\{0,1\}\([0-9]*\.[0-9]*\).*/\1/p')
muon_minor=$(dpkg-query -W -f '${Version}' muon-meson | sed -n 's/^\([0-9]*\.[0-9]*\).*/\1/p')
if [ "$clang_major" != 14 ] || [ "$black_major" != 23 ] ||
  [ "$shfmt_minor" != 3.6 ] || [ "$muon_minor" != 0.1 ]; then
  echo "check-format: clang-format $clang_major / black $black_major /" \
    "shfmt $shfmt_minor / muon $muon_minor are not the pinned 14 / 23 / 3.6" \
    "/ 0.1 (Debian 12): not checked"
  exit 0
fi

cxx=$(git ls-files '*.c' '*.cc' '*.h' '*.comp')
py=$(git ls-files '*.py')
sh=$(git ls-files '*.sh' .ci/run)
build=$(git ls-files meson.build '*/meson.build' meson_options.txt)
if $fix; then
  clang-format -i $cxx
  black -q $py
  shfmt -w $sh
  for f in $build; do
    muon-meson fmt -i "$f"
  done
  exit 0
fi
status=0
clang-format --dry-run --Werror $cxx || status=1
black -q --check $py || {
  echo "check-format: black would reformat:"
  black --check $py 2>&1 | grep '^would' || true
  status=1
}
shfmt -d $sh || status=1
for f in $build; do
  muon-meson fmt "$f" | cmp -s - "$f" || {
    echo "check-format: muon fmt would reformat $f"
    status=1
  }
done
[ $status = 0 ] &&
  echo "check-format: $(echo $cxx $py $sh $build | wc -w) files as their formatters write them"
exit $status
