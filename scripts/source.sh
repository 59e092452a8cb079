#!/bin/bash
# Fetch Debian's linux-source-6.1 at the pinned version and check its tarball.
# Usage: source.sh KVER KSHA256 DLDIR; prints the tarball's path.
set -eu -o pipefail
kver=$1 ksha=$2 dl=$3

tarball=$dl/linux-source-$kver.tar.xz
if [ -f "$tarball" ] && echo "$ksha  $tarball" | sha256sum -c --status; then
	echo "$tarball"
	exit 0
fi

mkdir -p "$dl"
deb=$dl/linux-source-6.1_${kver}_all.deb
if [ ! -f "$deb" ]; then
	apt-get update -q >/dev/null 2>&1 || true
	if ! (cd "$dl" && apt-get download -q "linux-source-6.1=$kver" >/dev/null 2>&1); then
		{
			echo "source: linux-source-6.1=$kver is not in Debian's archive here."
			echo "source: versions on offer:"
			apt-cache madison linux-source-6.1 | awk '{print "    " $3}'
			echo "source: choose one explicitly: make KVER=<version> KSHA256=<sha256 of its tarball>"
			echo "source: (the sha256 is printed by this script when it does not match)"
		} >&2
		exit 1
	fi
fi

rm -rf "$dl/x"
dpkg-deb -x "$deb" "$dl/x"
mv "$dl/x/usr/src/linux-source-6.1.tar.xz" "$tarball"
rm -rf "$dl/x"
if ! echo "$ksha  $tarball" | sha256sum -c --status; then
	echo "source: sha256 mismatch for linux-source-6.1=$kver:" >&2
	echo "source:   expected $ksha" >&2
	echo "source:   got      $(sha256sum "$tarball" | cut -d' ' -f1)" >&2
	echo "source: if this version is the one you want: make KVER=$kver KSHA256=<got>" >&2
	rm -f "$tarball"
	exit 1
fi
echo "$tarball"
