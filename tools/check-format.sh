#!/bin/sh
# Fails when a C++ or Python file is not as its formatter writes it:
# clang-format (.clang-format: Google style; gst/.clang-format: GStreamer's
# layout) and black (pyproject.toml). Formatters change their output between
# releases, so the check is pinned to Debian 12's (clang-format 14, black
# 23); elsewhere it says so and passes. `tools/check-format.sh --fix`
# rewrites the files instead.
set -eu
cd "$(dirname "$0")/.."

tools/apt-install.sh clang-format black

fix=false
[ "${1:-}" = --fix ] && fix=true

clang_major=$(clang-format --version | sed -n 's/.*version \([0-9]*\).*/\1/p')
black_major=$(black --version | sed -n 's/^black[^0-9]*\([0-9]*\)\..*/\1/p')
if [ "$clang_major" != 14 ] || [ "$black_major" != 23 ]; then
  echo "check-format: clang-format $clang_major / black $black_major are not" \
    "the pinned 14 / 23 (Debian 12): not checked"
  exit 0
fi

cxx=$(git ls-files '*.cc' '*.h' | grep -v '^shaders/')
py=$(git ls-files '*.py')
if $fix; then
  clang-format -i $cxx
  black -q $py
  exit 0
fi
status=0
clang-format --dry-run --Werror $cxx || status=1
black -q --check $py || { echo "check-format: black would reformat:"; black --check $py 2>&1 | grep '^would' || true; status=1; }
[ $status = 0 ] && echo "check-format: $(echo $cxx $py | wc -w) files as their formatters write them"
exit $status
