#!/bin/bash
# make bench-profile: where one hooked call's instructions go, function by
# function.  Boots a kernel make bench built (base: unpatched 6.1, patched:
# the series) with QEMU's gdb stub, sets a bench case up in the guest, and
# single-steps one call of the target from its first instruction back to
# its caller, counting the instructions each function ran.  It uses the
# kernels of BENCH_CONF (a configuration of make bench, x86_64-preempt
# unless given).
# Usage: bench-profile.sh base|patched CASE
# (CASE: function_graph, users-N, users-N-accept-M, reserve-BYTES, entry-1,
# kretprobe-N, fprobe-entry|exit)
set -eu -o pipefail
kernel=$1 case=$2
top=$(realpath "$(dirname "$0")/..")
cd "$top"
conf=${BENCH_CONF:-x86_64-preempt}
case $kernel in
base) src=build/base obj=build/obj-base-$conf ;;
patched) src=build/linux obj=build/obj-bench-$conf ;;
*) echo "bench-profile: base or patched, not $kernel" >&2; exit 1 ;;
esac
if [ ! -f "$obj/vmlinux" ] || [ ! -d "$obj/bench" ]; then
	echo "bench-profile: no $kernel kernel in $obj: run make bench first" >&2
	exit 1
fi
arch=${conf%%-*}
gdb=gdb
[ "$arch" != arm64 ] || gdb="gdb-multiarch"
command -v $gdb >/dev/null || apt-get install -y -q $gdb >/dev/null

install -m 755 bench/guest.sh "$obj/bench/guest.sh"
scripts/initramfs.sh "$arch" "$src" "$obj" >/dev/null
log=$top/build/logs/bench-profile-$kernel.log
port=$((20000 + RANDOM % 20000))
boot=$(sed -n 's/^# boot: / /p' "config/bench-${conf#*-}.config")
# Not last run's marker: the wait below must see this guest's.
rm -f "$log"
OBJ=$(realpath "$obj") LOG=$log SMP=1 QEMU_EXTRA="-gdb tcp:127.0.0.1:$port" \
	FGRAPH_APPEND="fgraph.profile=$case ftrace=nop norandmaps$boot" \
	scripts/boot.sh "$arch" bench 900 >/dev/null 2>&1 &
trap 'pkill -f "tcp:127.0.0.1:$port" || true' EXIT

for _ in $(seq 300); do
	sleep 1
	grep -q '^@@ bench profile' "$log" 2>/dev/null && break
	pgrep -f "tcp:127.0.0.1:$port" >/dev/null || break
done
grep -q '^@@ bench profile ready' "$log" ||
	{ echo "bench-profile: the guest did not set $case up (see $log)" >&2; exit 1; }

# The kernel's text symbols, sorted, for the script to name each address.
nm -n "$obj/vmlinux" | awk '$2 ~ /^[tTwW]$/ { print $1, $3 }' > "$obj/bench/text.syms"
target=$(sed -n 's/^@@ bench profile ready \([0-9a-f]*\).*/\1/p' "$log")
[ -n "$target" ] || { echo "bench-profile: no target address in $log" >&2; exit 1; }
SYMS=$obj/bench/text.syms PORT=$port TARGET=$target timeout 600 $gdb -q -batch -nx \
	-x scripts/bench-profile.py "$obj/vmlinux" 2>&1 | grep -Ev '^(warning:|0x[0-9a-f]+ in )' |
	sed "1i # $kernel, $case: guest instructions of one hooked call, by function"
