#!/bin/bash
# Make the guest's initramfs: Debian's static busybox for the arch, chrt,
# nice, sleep and trace-cmd with their libraries, the kernel's modules,
# ftracetest, our tests, the benchmark if OBJ/bench holds it, and init.
# Usage: initramfs.sh ARCH TREE OBJ
set -eu
arch=$1 tree=$(realpath "$2") obj=$(realpath "$3")
top=$(realpath "$(dirname "$0")/..")
case $arch in
x86_64) debarch=amd64 ;;
i386) debarch=i386 ;;
*) echo "initramfs: unknown arch $arch" >&2; exit 1 ;;
esac
debs=$top/build/dl/debs-$debarch
root=$obj/root
tracecmd_pkgs="trace-cmd libtracefs1 libtraceevent1 libtraceevent1-plugin libzstd1"
pkgs="busybox-static util-linux coreutils libc6 $tracecmd_pkgs"

have_debs() {
	for p in $pkgs; do
		ls "$debs/${p}"_*.deb >/dev/null 2>&1 || return 1
	done
}

fetch_debs() {
	mkdir -p "$debs"
	have_debs && return 0
	if ! dpkg --print-foreign-architectures | grep -qx "$debarch" &&
	   [ "$(dpkg --print-architecture)" != "$debarch" ]; then
		dpkg --add-architecture "$debarch"
	fi
	apt-get update -q >/dev/null 2>&1 || echo "initramfs: apt-get update had errors; using the package lists it has" >&2
	# shellcheck disable=SC2046
	(cd "$debs" && apt-get download -q $(for p in $pkgs; do echo "$p:$debarch"; done) \
		>/dev/null 2>&1)
}

# Put the dynamic loader and libc of the arch where the binaries look.
install_libc() {
	x=$(mktemp -d)
	dpkg-deb -x "$debs"/libc6_*.deb "$x"
	(cd "$x" && find . \( -name 'ld-linux*' -o -name 'libc.so.6' \) -print) |
		while read -r f; do
			mkdir -p "$root/$(dirname "$f")"
			cp -a "$x/$f" "$root/$f"
		done
	rm -rf "$x"
}

install_tool() {
	pkg=$1 path=$2
	x=$(mktemp -d)
	dpkg-deb -x "$debs"/"${pkg}"_*.deb "$x"
	install -D -m 755 "$x/$path" "$root/usr/bin/$(basename "$path")"
	rm -rf "$x"
}

# trace-cmd, its libraries and its event plugins, where the loader looks.
install_trace_cmd() {
	x=$(mktemp -d)
	for p in $tracecmd_pkgs; do
		dpkg-deb -x "$debs/${p}"_*.deb "$x"
	done
	install -m 755 "$x/usr/bin/trace-cmd" "$root/usr/bin/trace-cmd"
	(cd "$x" && find . -path '*/lib/*' \( -name '*.so*' \) -print) |
		while read -r f; do
			mkdir -p "$root/$(dirname "$f")"
			cp -a "$x/$f" "$root/$f"
		done
	rm -rf "$x"
}

fetch_debs
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,etc,root,lib}
x=$(mktemp -d)
dpkg-deb -x "$debs"/busybox-static_*.deb "$x"
install -m 755 "$x/bin/busybox" "$root/bin/busybox"
rm -rf "$x"
ln -s busybox "$root/bin/sh"
install_libc
install_tool util-linux usr/bin/chrt
install_tool coreutils usr/bin/nice
# busybox's i386 sleep returns at once here; the tests need one that sleeps.
install_tool coreutils bin/sleep
install_trace_cmd

cp -a "$obj/mods/lib/modules" "$root/lib/"
mkdir -p "$root/ftrace"
cp -a "$tree/tools/testing/selftests/ftrace/." "$root/ftrace/"
[ -d "$top/tests/guest" ] && cp -a "$top/tests/guest" "$root/tests"
[ -d "$obj/bench" ] && cp -a "$obj/bench" "$root/bench"
install -m 755 "$top/guest/init" "$root/init"
install -m 755 "$top/guest/stress" "$root/stress"
echo "root:x:0:0:root:/root:/bin/sh" > "$root/etc/passwd"
echo "root:x:0:" > "$root/etc/group"
echo "127.0.0.1 localhost" > "$root/etc/hosts"

(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) |
	gzip -1 > "$obj/initramfs.cpio.gz"
echo "initramfs: $obj/initramfs.cpio.gz ($(du -h "$obj/initramfs.cpio.gz" | cut -f1))"
