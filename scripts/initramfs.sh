#!/bin/bash
# Make the guest's initramfs: Debian's static busybox for the arch, chrt,
# nice, sleep, trace-cmd and perf with their libraries, the kernel's modules,
# ftracetest, our tests, the benchmark if OBJ/bench holds it, and init.
# Usage: initramfs.sh ARCH TREE OBJ
set -eu -o pipefail
arch=$1 tree=$(realpath "$2") obj=$(realpath "$3")
top=$(realpath "$(dirname "$0")/..")
case $arch in
x86_64) debarch=amd64 triplet=x86_64-linux-gnu ;;
i386) debarch=i386 triplet=i386-linux-gnu ;;
arm64) debarch=arm64 triplet=aarch64-linux-gnu ;;
*) echo "initramfs: unknown arch $arch" >&2; exit 1 ;;
esac
debs=$top/build/dl/debs-$debarch
root=$obj/root
tracecmd_pkgs="trace-cmd libtracefs1 libtraceevent1 libtraceevent1-plugin libzstd1"
perf_pkgs="linux-perf libaudit1 libcap-ng0 libbabeltrace1 libbz2-1.0 libcap2
libcrypt1 libdw1 libelf1 libexpat1 libgcc-s1 libglib2.0-0 liblzma5 libnuma1
libopencsd1 libpcre2-8-0 libperl5.36 libpython3.11 libslang2 libstdc++6
libunwind8 libuuid1 libzstd1 zlib1g"
pkgs="busybox-static util-linux coreutils libc6 $tracecmd_pkgs $perf_pkgs"

have_debs() {
	for p in $pkgs; do
		ls "$debs/${p}"_*.deb >/dev/null 2>&1 || return 1
	done
}

fetch_debs() {
	mkdir -p "$debs"
	have_debs && return 0
	if ! grep -qx "$debarch" <<< "$(dpkg --print-foreign-architectures)" &&
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

# perf and the libraries it loads: the closure of its NEEDED entries, not
# every library of its packages (perl's and python's modules stay out).
# Looked for in the arch's library directories only; the loader is
# install_libc's.
install_perf() {
	local x f n p needed queue seen=" "
	x=$(mktemp -d)
	for p in libc6 $perf_pkgs; do
		dpkg-deb -x "$debs/${p}"_*.deb "$x"
	done
	install -m 755 "$x/usr/bin/perf" "$root/usr/bin/perf"
	queue=(usr/bin/perf)
	while [ ${#queue[@]} -gt 0 ]; do
		f=${queue[0]} queue=("${queue[@]:1}")
		needed=$(readelf -d "$x/$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
		for n in $needed; do
			case $seen in *" $n "*) continue ;; esac
			seen+="$n "
			case $n in ld-linux*) continue ;; esac
			p=$(cd "$x" && find "lib/$triplet" "usr/lib/$triplet" -name "$n" -print -quit)
			if [ -z "$p" ]; then
				echo "initramfs: perf needs $n, which no package has" >&2
				rm -rf "$x"
				exit 1
			fi
			mkdir -p "$root/$(dirname "$p")"
			cp -L --remove-destination "$x/$p" "$root/$p"
			queue+=("$p")
		done
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
install_perf
# The BPF client test's loader, static like busybox
"$top/scripts/guest-prog.sh" "$arch" "$root/usr/bin/bpf-kretprobe" \
	"$top/guest/bpf-kretprobe.c"

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

# Written aside and renamed: a failed pipeline leaves no truncated archive
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) |
	gzip -1 > "$obj/initramfs.cpio.gz.tmp"
mv "$obj/initramfs.cpio.gz.tmp" "$obj/initramfs.cpio.gz"
echo "initramfs: $obj/initramfs.cpio.gz ($(du -h "$obj/initramfs.cpio.gz" | cut -f1))"
