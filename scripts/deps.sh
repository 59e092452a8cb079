#!/bin/bash
# Install the Debian packages the harness needs, once; quiet when all are there.
# i386's user programs are built with Debian's i686 cross compiler, not with
# gcc-multilib, which Debian does not let beside its other cross compilers.
set -eu -o pipefail

pkgs="build-essential gcc flex bison bc cpio xz-utils kmod libelf-dev libssl-dev
      ccache qemu-system-x86 qemu-system-arm gnuplot-nox git patch perl python3 dpkg-dev
      shellcheck python3-ply python3-git
      python3-docutils dwarves linux-config-6.1
      gcc-i686-linux-gnu libc6-dev-i386-cross
      gcc-aarch64-linux-gnu libc6-dev-arm64-cross gcc-riscv64-linux-gnu gcc-s390x-linux-gnu"

missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null 2>&1 || echo "deps: apt-get update had errors; using the package lists it has" >&2
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >/dev/null
