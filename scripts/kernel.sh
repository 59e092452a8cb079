#!/bin/bash
# Configure and build one kernel out of tree: tinyconfig plus our fragments,
# with ccache; install its modules under OBJ/mods.
# Usage: kernel.sh ARCH TREE OBJ
#   x86_64 kernels have Debian's hot-path options (config/distro.config)
#   unless FGRAPH_DISTRO=0 (make bench's other configurations).
#   Environment: FGRAPH_BASELINE=1 leaves out config/series.config (the
#   unpatched kernel); FGRAPH_BISECT=1 lets the series' options be missing;
#   FGRAPH_EXTRA=FRAGMENT is merged last and only its own options must
#   survive, FGRAPH_TARGETS="dir/ ..." builds only those (config matrix).
#   arm64, riscv and s390 are cross-built with Debian's cross compilers;
#   riscv and s390 only for make matrix.
set -eu -o pipefail
arch=$1 tree=$(realpath "$2") obj=$(realpath -m "$3")
top=$(realpath "$(dirname "$0")/..")
frags="$top/config/base.config $top/config/tracing.config"
case $arch in
x86_64 | i386) cross='' frags="$frags $top/config/x86.config" ;;
arm64) cross=aarch64-linux-gnu- ;;
riscv) cross=riscv64-linux-gnu- ;;
s390) cross=s390x-linux-gnu- ;;
esac
[ "$arch" != x86_64 ] || [ "${FGRAPH_DISTRO:-1}" = 0 ] || frags="$frags $top/config/distro.config"
[ "${FGRAPH_BASELINE:-0}" = 1 ] || frags="$frags $top/config/series.config"
# The guest arches' own options, last: they may turn off what an arch lacks
# (only matrix-only arches have none).
case $arch in
x86_64 | i386 | arm64) frags="$frags $top/config/$arch.config" ;;
esac
[ "${FGRAPH_BASELINE:-0}" = 0 ] || [ ! -f "$top/config/$arch-base.config" ] ||
	frags="$frags $top/config/$arch-base.config"
extra=${FGRAPH_EXTRA:-}

export CCACHE_DIR=${CCACHE_DIR:-$top/build/ccache}
export CCACHE_BASEDIR=$top/build
kmake() {
	make -s -C "$tree" O="$obj" ARCH="$arch" CROSS_COMPILE="$cross" \
		CC="ccache ${cross}gcc" HOSTCC="ccache gcc" \
		KBUILD_BUILD_USER=fgraph KBUILD_BUILD_HOST=multi \
		KBUILD_BUILD_TIMESTAMP="2000-01-01" "$@"
}

# Every option a fragment asks for must survive Kconfig, unless a later
# fragment sets it (distro.config's preemption model over base.config's).
check_config() {
	bad=0
	# shellcheck disable=SC2086
	set -- ${extra:-$frags}
	while [ $# -gt 0 ]; do
		f=$1
		shift
		while IFS= read -r line; do
			case "$line" in
			CONFIG_*=*) want=$line name=${line%%=*} ;;
			"# CONFIG_"*" is not set") want=$line name=${line#\# } name=${name%% *} ;;
			*) continue ;;
			esac
			grep -qxF "$want" "$obj/.config" && continue
			# An option the arch lacks is not set, and not listed
			case $want in "# "*) grep -q "^$name=" "$obj/.config" || continue ;; esac
			[ $# -gt 0 ] && grep -qE "^(# )?${name}[= ]" "$@" && continue
			echo "kernel: $arch: Kconfig dropped '$want' ($(basename "$f"))" >&2
			# Building each patch of the series: its options come late.
			[ "${FGRAPH_BISECT:-0}" = 1 ] && [ "$f" = "$top/config/series.config" ] &&
				continue
			bad=1
		done < "$f"
	done
	return $bad
}

mkdir -p "$obj"
kmake tinyconfig >/dev/null
# shellcheck disable=SC2086
(cd "$obj" && "$tree/scripts/kconfig/merge_config.sh" -m -O "$obj" .config $frags $extra >/dev/null 2>&1)
# Its "override" notes are expected: show them only if it fails.
kmake olddefconfig > "$obj/olddefconfig.log" 2>&1 || { cat "$obj/olddefconfig.log" >&2; exit 1; }
check_config

if [ -n "${FGRAPH_TARGETS:-}" ]; then
	echo "kernel: building $FGRAPH_TARGETS for $arch in $obj"
	# shellcheck disable=SC2086
	kmake -j"${JOBS:-$(nproc)}" $FGRAPH_TARGETS
	exit
fi
echo "kernel: building $arch in $obj"
kmake -j"${JOBS:-$(nproc)}"
rm -rf "$obj/mods"
kmake INSTALL_MOD_PATH="$obj/mods" modules_install >/dev/null
echo "kernel: $arch ready: $(kmake -s kernelrelease)"
