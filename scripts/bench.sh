#!/bin/bash
# make bench: build the patched kernel and unpatched 6.1 (the series' base,
# same config without the series' options), boot each on one vCPU under
# QEMU -icount shift=0 (one guest nanosecond per instruction), run
# bench/guest.sh there and write the report to bench/results/.
# What makes a re-run give the same counts: icount for time, the RTC starting
# at a fixed date and running on guest time (the random pool is seeded from
# it), no address space randomization (norandmaps), and ftrace=nop, which
# also skips the boot-time self tests.
# Each configuration of BENCH_CONFIGS (ARCH-MODEL, MODEL a preemption model
# with its config/bench-MODEL.config) is measured on both kernels, into
# build/bench/ARCH-MODEL/.
# Usage: bench.sh
set -eu -o pipefail
top=$(realpath "$(dirname "$0")/..")
cd "$top"
tree=build/linux
base=build/base
out=build/bench
mkdir -p "$out" build/logs

# The module and user program, built for ARCH's kernel in OBJ, into OBJ/bench.
bench_files() {
	arch=$1 obj=$(realpath "$2")
	rm -rf "$obj/bench"
	mkdir -p "$obj/bench/module"
	cp bench/fgraph_bench.c "$obj/bench/module/"
	echo 'obj-m := fgraph_bench.o' > "$obj/bench/module/Kbuild"
	cross=''
	[ "$arch" != arm64 ] || cross=aarch64-linux-gnu-
	CCACHE_DIR=$top/build/ccache make -s -C "$obj" M="$obj/bench/module" \
		ARCH="$arch" CROSS_COMPILE="$cross" CC="ccache ${cross}gcc" modules
	mv "$obj/bench/module/fgraph_bench.ko" "$obj/bench/"
	rm -rf "$obj/bench/module"
	scripts/guest-prog.sh "$arch" "$obj/bench/ubench" bench/ubench.c
	install -m 755 bench/guest.sh "$obj/bench/guest.sh"
}

# The loop sizes given on the host, for the guest's command line
# (guest/init hands them to bench/guest.sh)
loop_sizes() {
	[ -z "${BENCH_CALLS:-}" ] || printf ' fgraph.bench_calls=%d' "$BENCH_CALLS"
	[ -z "${BENCH_SYSCALLS:-}" ] || printf ' fgraph.bench_syscalls=%d' "$BENCH_SYSCALLS"
	[ -z "${BENCH_FORKS:-}" ] || printf ' fgraph.bench_forks=%d' "$BENCH_FORKS"
}

# run CONF NAME TREE OBJ BASELINE [EXTRA]: build for CONF (ARCH-MODEL; EXTRA:
# one more config fragment), boot, keep the "@@ bench" lines in
# build/bench/CONF/NAME.txt.  Only the distro model has Debian's hot-path
# options; a model's "# boot: ARGS" line goes on the kernel command line.
run() {
	conf=$1 name=$2 src=$3 obj=$4 arch=${1%%-*}
	model=$top/config/bench-${conf#*-}.config
	distro=0
	[ "${conf#*-}" != distro ] || distro=1
	FGRAPH_DISTRO=$distro FGRAPH_BASELINE=$5 FGRAPH_EXTRA="$model ${6:-}" \
		scripts/kernel.sh "$arch" "$src" "$obj"
	bench_files "$arch" "$obj"
	scripts/initramfs.sh "$arch" "$src" "$obj"
	log=build/logs/bench-$conf-$name.log
	boot=$(sed -n 's/^# boot: / /p' "$model")
	OBJ=$(realpath "$obj") LOG=$(realpath "$log") SMP=1 \
		FGRAPH_APPEND="ftrace=nop norandmaps$boot$(loop_sizes)" \
		QEMU_EXTRA="-icount shift=0,align=off,sleep=off -rtc base=2020-01-01T00:00:00,clock=vm" \
		scripts/boot.sh "$arch" bench "${BENCH_TIMEOUT:-1200}"
	mkdir -p "$out/$conf"
	sed -n 's/^@@ bench //p' "$log" | tr -d '\r' > "$out/$conf/$name.txt"
	[ -s "$out/$conf/$name.txt" ] || { echo "bench: no results in $log" >&2; exit 1; }
	[ "$name" != patched ] || series_measured > "$out/$conf/measured"
}

# What the patched kernel was, for the report: the date, the series and
# its hash.
series_measured() {
	echo "$(date -u +%Y-%m-%d), $(grep -vc '^#' patches/series) patches" \
		"($(cat patches/*.patch | sha256sum | cut -c1-12))"
}

: "${BENCH_CONFIGS:=x86_64-none x86_64-voluntary x86_64-preempt x86_64-distro i386-preempt}"

# BENCH_ONLY=patched|base: measure one kernel, no report (for development).
# BENCH_REV=COMMIT: the patched kernel at that commit of the tree (a
# worktree, build/rev), into build/bench/CONF/patched-COMMIT.txt, no report:
# what one patch of the series changed.
only=${BENCH_ONLY:-}
rev=${BENCH_REV:-}
if [ -n "$rev" ]; then
	only=patched
	git -C "$tree" worktree prune
	[ -d build/rev ] || git -C "$tree" worktree add -q --detach "$(realpath -m build/rev)" "$rev"
	git -C build/rev checkout -q --detach "$rev"
fi
for conf in $BENCH_CONFIGS; do
	[ -f "config/bench-${conf#*-}.config" ] || { echo "bench: no config/bench-${conf#*-}.config" >&2; exit 1; }
	if [ "$only" != patched ]; then
		scripts/base-tree.sh
		run "$conf" base "$base" "build/obj-base-$conf" 1
	fi
	# The patched kernel without make check's test-only injection points.
	if [ -n "$rev" ]; then
		run "$conf" "patched-$rev" build/rev "build/obj-rev-$conf" 0 \
			"$top/config/bench-patched.config"
		continue
	fi
	[ "$only" = base ] || run "$conf" patched "$tree" "build/obj-bench-$conf" 0 \
		"$top/config/bench-patched.config"
done
[ -z "$only" ] || exit 0
# shellcheck disable=SC2086
scripts/bench-report.sh "$out" bench/results $BENCH_CONFIGS
