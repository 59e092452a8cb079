#!/bin/bash
# make check: for each arch, build, boot and judge every test against
# tests/manifest/ARCH.txt (boot-time self tests, ftracetest, the guest
# jobs, our guest tests); then the configuration build matrix, lint and
# the debug kernel (scripts/debug.sh: KASAN, lockdep, kmemleak, a stress
# run).
# Prints the failures and a summary per suite, then
# "N passed, N failed, N flaky" and, last, "N passed, N failed".
# Writes build/results/ARCH.ktap, matrix.ktap, lint.ktap, summary.json.
# Usage: check.sh ARCH...   (CHECK_SKIP="debug matrix lint" skips those;
# CHECK_DEBUG=stress runs only the debug kernel's stress run and leak scan)
set -eu -o pipefail
top=$(realpath "$(dirname "$0")/..")
cd "$top"
logs=build/logs results=build/results
mkdir -p "$logs" "$results"
report=$logs/check.log
: > "$report"
rm -f "$results"/*.ktap "$results"/*.tsv "$results"/*.verdicts
total_pass=0 total_fail=0 total_flaky=0

count() {
	total_pass=$((total_pass + $1))
	total_fail=$((total_fail + $2))
	total_flaky=$((total_flaky + ${3:-0}))
}

# Sum "== suite arch: P passed, F failed, K flaky" lines into the totals.
count_summaries() { # file
	local p f k
	read -r p f k < <(grep '^== ' "$1" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) flaky)?$/\1 \2 \4/' |
		awk '{ p += $1; f += $2; k += $3 } END { print p + 0, f + 0, k + 0 }')
	count "$p" "$f" "$k"
}

# Build ARCH's kernel and initramfs; a failure is its verdict.
build_arch() { # arch
	local arch=$1
	scripts/kernel.sh "$arch" build/linux "build/obj-$arch" &&
		scripts/initramfs.sh "$arch" build/linux "build/obj-$arch" && return
	echo "FAIL $arch build" | tee -a "$report" > "$results/$arch.verdicts"
	echo "== build $arch: 0 passed, 1 failed, 0 flaky" | tee -a "$report" >> "$results/$arch.verdicts"
	count 0 1
	return 1
}

# Boot ARCH and run its jobs; the log's verdict goes to ARCH.boot.
boot_arch() { # arch
	local arch=$1
	if scripts/boot.sh "$arch" "$jobs" "${CHECK_TIMEOUT:-2700}"; then
		echo "ok   $arch log: no kernel trouble, end marker"
		echo "== log $arch: 1 passed, 0 failed, 0 flaky"
	else
		echo "FAIL $arch log: see above"
		echo "== log $arch: 0 passed, 1 failed, 0 flaky"
	fi > "$results/$arch.boot" 2>&1
}

# Judge what ARCH's guest printed against its manifest.
judge_arch() { # arch
	local arch=$1 log
	log=$logs/$1-$(echo "$jobs" | tr ',' '-').log
	{
		cat "$results/$arch.boot"
		scripts/results.sh "$log" | scripts/compare.sh "$arch" "tests/manifest/$arch.txt"
	} > "$results/$arch.verdicts"
	finish "$results/$arch.verdicts"
}

# "-- NAME: M min S s" since START (seconds)
phase() { # name start
	local d=$((SECONDS - $2))
	echo "-- $1: $((d / 60)) min $((d % 60)) s" | tee -a "$report"
}

# Show a verdict file's failures (with the log excerpts checklog.sh quotes),
# flakes and summaries; add it up.
finish() { # file
	# A check that stopped before its summary line failed
	grep -q '^== ' "$1" ||
		printf 'FAIL %s: stopped before its summary\n== %s: 0 passed, 1 failed\n' \
			"$(basename "$1" .verdicts)" "$(basename "$1" .verdicts)" >> "$1"
	cat "$1" >> "$report"
	grep -aE '^FAIL|FLAKY|^SKIP|^checklog:|^    ' "$1" || true
	{ grep '^== ' "$1" || true; } | sort
	count_summaries "$1"
}

# The kernels one after the other (never two builds at once), then their
# guests side by side: each QEMU (TCG, one thread) takes a core.
jobs=${CHECK_JOBS:-ftracetest,tests}
built=()
start=$SECONDS
for arch in "$@"; do
	if build_arch "$arch"; then
		built+=("$arch")
	fi
done
phase "build $*" "$start"
start=$SECONDS
for arch in "${built[@]}"; do
	boot_arch "$arch" &
done
wait
phase "boot ${built[*]}" "$start"
for arch in "${built[@]}"; do
	judge_arch "$arch"
done
case " ${CHECK_SKIP:-} " in *" matrix "*) ;; *)
	start=$SECONDS
	scripts/matrix.sh > "$results/matrix.verdicts" || true
	finish "$results/matrix.verdicts"
	phase matrix "$start" ;;
esac
case " ${CHECK_SKIP:-} " in *" lint "*) ;; *)
	start=$SECONDS
	scripts/lint.sh > "$results/lint.verdicts" 2>&1 || true
	finish "$results/lint.verdicts"
	phase lint "$start" ;;
esac
# The debug kernel last: CI (CHECK_DEBUG=stress CHECK_DEBUG_AFTER=2700)
# runs only its boot self tests, stress run and leak scan, and only if the
# rest took less than that many seconds.
debug_run() {
	local mode=${CHECK_DEBUG:-check} took=$SECONDS v=$results/x86_64-debug.verdicts
	if [ -n "${CHECK_DEBUG_AFTER:-}" ] && [ "$took" -gt "$CHECK_DEBUG_AFTER" ]; then
		{
			echo "SKIP x86_64-debug: not run, the rest took ${took}s (CHECK_DEBUG_AFTER=$CHECK_DEBUG_AFTER)"
			echo "ok   x86_64-debug UNSUPPORTED debug:kernel (expected: skipped for time, see make debug)"
			echo "== debug x86_64-debug: 0 passed, 0 failed, 0 flaky"
		} > "$v"
	else
		local rc=0
		if [ "$mode" = stress ]; then
			scripts/debug.sh stress "${STRESS_SECONDS:-120}" > "$v" 2>&1 || rc=$?
		else
			scripts/debug.sh check > "$v" 2>&1 || rc=$?
		fi
		# debug.sh failed, yet printed no failure: say so
		if ! grep -q '^== ' "$v" || { [ $rc -ne 0 ] && ! grep -q '^FAIL' "$v"; }; then
			echo "FAIL x86_64-debug: debug.sh ended with status $rc (see $v)"
			echo "== debug x86_64-debug: 0 passed, 1 failed, 0 flaky"
		fi >> "$v"
	fi
	finish "$v"
}
case " ${CHECK_SKIP:-} " in *" debug "*) ;; *)
	start=$SECONDS
	debug_run
	phase debug "$start" ;;
esac
scripts/report.sh "$results"
echo "(every verdict: $report; KTAP and JSON: $results/)"
echo "$total_pass passed, $total_fail failed, $total_flaky flaky"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
