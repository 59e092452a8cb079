#!/bin/bash
# Build a static user program for a guest: guest-prog.sh ARCH OUT SRC.
# i386's is built with Debian's i686 cross compiler: Debian does not let
# gcc-multilib (gcc -m32) be installed beside its other cross compilers.
set -eu -o pipefail
arch=$1 out=$2 src=$3
case $arch in
x86_64) cc=gcc ;;
i386) cc=i686-linux-gnu-gcc ;;
arm64) cc=aarch64-linux-gnu-gcc ;;
*) echo "guest-prog: no user compiler for $arch" >&2; exit 1 ;;
esac
exec "$cc" -static -O2 -Wall -o "$out" "$src"
