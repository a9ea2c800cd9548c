#!/bin/sh
# Installs the Debian packages named as arguments unless all are installed
# already (so a re-run needs neither root nor the network).
set -eu

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

missing=""
for p in "$@"; do
  # A package installed for two architectures prints one status each.
  dpkg-query -W -f '${db:Status-Status}\n' "$p" 2> /dev/null |
    grep -qx installed || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

case "$missing" in
  *:arm64*)
    dpkg --print-foreign-architectures | grep -qx arm64 ||
      as_root dpkg --add-architecture arm64
    ;;
esac
# Another apt or dpkg on the machine may hold the lock for a while: wait
# for it (up to 20 minutes) rather than fail; a failed download is tried
# again.
opts="-o DPkg::Lock::Timeout=1200 -o Acquire::Retries=5"
as_root apt-get $opts update -q
as_root env DEBIAN_FRONTEND=noninteractive \
  apt-get $opts install -y -q --no-install-recommends $missing
