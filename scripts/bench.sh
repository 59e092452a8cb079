#!/bin/bash
# make bench: build the patched kernel and unpatched 6.1 (the series' base,
# same config without the series' options), boot each on one vCPU under
# QEMU -icount shift=0 (one guest nanosecond per instruction), run
# bench/guest.sh there and write the report to bench/results/.
# What makes a re-run give the same counts: icount for time, the RTC starting
# at a fixed date and running on guest time (the random pool is seeded from
# it), no address space randomization (norandmaps), and ftrace=nop, which
# also skips the boot-time self tests.
# Usage: bench.sh
set -eu
top=$(realpath "$(dirname "$0")/..")
cd "$top"
tree=build/linux
base=build/base
out=build/bench
mkdir -p "$out" build/logs

# The unpatched tree: a worktree of the series' base commit.
base_tree() {
	if [ ! -d "$base" ]; then
		git -C "$tree" worktree prune
		git -C "$tree" worktree add -q --detach "$(realpath -m "$base")" fgraph-base
	fi
	git -C "$base" checkout -q --detach fgraph-base
}

# The module and user program, built for the kernel in OBJ, into OBJ/bench.
bench_files() {
	obj=$(realpath "$1")
	rm -rf "$obj/bench"
	mkdir -p "$obj/bench/module"
	cp bench/fgraph_bench.c "$obj/bench/module/"
	echo 'obj-m := fgraph_bench.o' > "$obj/bench/module/Kbuild"
	CCACHE_DIR=$top/build/ccache make -s -C "$obj" M="$obj/bench/module" \
		CC="ccache gcc" modules
	mv "$obj/bench/module/fgraph_bench.ko" "$obj/bench/"
	rm -rf "$obj/bench/module"
	gcc -static -O2 -Wall -o "$obj/bench/ubench" bench/ubench.c
	install -m 755 bench/guest.sh "$obj/bench/guest.sh"
}

# run NAME TREE OBJ BASELINE [EXTRA]: build (EXTRA: a last config
# fragment), boot, keep the "@@ bench" lines in build/bench/NAME.txt
run() {
	name=$1 src=$2 obj=$3
	FGRAPH_BASELINE=$4 FGRAPH_EXTRA=${5:-} scripts/kernel.sh x86_64 "$src" "$obj"
	bench_files "$obj"
	scripts/initramfs.sh x86_64 "$src" "$obj"
	log=build/logs/bench-$name.log
	OBJ=$(realpath "$obj") LOG=$(realpath "$log") SMP=1 FGRAPH_APPEND="ftrace=nop norandmaps" \
		QEMU_EXTRA="-icount shift=0,align=off,sleep=off -rtc base=2020-01-01T00:00:00,clock=vm" \
		scripts/boot.sh x86_64 bench "${BENCH_TIMEOUT:-1200}"
	sed -n 's/^@@ bench //p' "$log" | tr -d '\r' > "$out/$name.txt"
	[ -s "$out/$name.txt" ] || { echo "bench: no results in $log" >&2; exit 1; }
}

# BENCH_ONLY=patched|base: measure one kernel, no report (for development)
only=${BENCH_ONLY:-}
if [ "$only" != patched ]; then
	base_tree
	run base "$base" build/obj-base-x86_64 1
fi
# The patched kernel without make check's test-only injection points.
[ "$only" = base ] || run patched "$tree" build/obj-bench-x86_64 0 \
	"$top/config/bench-patched.config"
[ -z "$only" ] || exit 0
scripts/bench-report.sh "$out/base.txt" "$out/patched.txt" bench/results
