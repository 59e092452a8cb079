#!/bin/bash
# make check: for each arch, build, boot and judge every test against
# tests/manifest/ARCH.txt (boot-time self tests, ftracetest, the guest
# jobs, our guest tests); then the configuration build matrix and lint.
# Prints the failures and a summary per suite, then
# "N passed, N failed, N flaky" and, last, "N passed, N failed".
# Writes build/results/ARCH.ktap, matrix.ktap, lint.ktap, summary.json.
# Usage: check.sh ARCH...   (CHECK_SKIP="matrix lint" skips those)
set -eu -o pipefail
top=$(realpath "$(dirname "$0")/..")
cd "$top"
logs=build/logs results=build/results
mkdir -p "$logs" "$results"
report=$logs/check.log
: > "$report"
rm -f "$results"/*.ktap "$results"/*.tsv
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

check_arch() {
	local arch=$1 jobs log
	if ! scripts/kernel.sh "$arch" build/linux "build/obj-$arch" ||
	   ! scripts/initramfs.sh "$arch" build/linux "build/obj-$arch"; then
		echo "FAIL $arch build" | tee -a "$report" > "$results/$arch.verdicts"
		echo "== build $arch: 0 passed, 1 failed, 0 flaky" | tee -a "$report" >> "$results/$arch.verdicts"
		count 0 1
		return
	fi
	jobs=${CHECK_JOBS:-ftracetest,tests}
	log=$logs/$arch-$(echo "$jobs" | tr ',' '-').log
	{
		if scripts/boot.sh "$arch" "$jobs" "${CHECK_TIMEOUT:-2700}"; then
			echo "ok   $arch log: no kernel trouble, end marker"
			echo "== log $arch: 1 passed, 0 failed, 0 flaky"
		else
			echo "FAIL $arch log: see above"
			echo "== log $arch: 0 passed, 1 failed, 0 flaky"
		fi
		scripts/results.sh "$log" | scripts/compare.sh "$arch" "tests/manifest/$arch.txt"
	} > "$results/$arch.verdicts"
	finish "$results/$arch.verdicts"
}

# Show a verdict file's failures, flakes and summaries; add it up.
finish() { # file
	cat "$1" >> "$report"
	grep -E '^FAIL|FLAKY' "$1" || true
	grep '^== ' "$1" | sort
	count_summaries "$1"
}

for arch in "$@"; do
	check_arch "$arch"
done
case " ${CHECK_SKIP:-} " in *" matrix "*) ;; *)
	scripts/matrix.sh > "$results/matrix.verdicts" || true
	finish "$results/matrix.verdicts" ;;
esac
case " ${CHECK_SKIP:-} " in *" lint "*) ;; *)
	scripts/lint.sh > "$results/lint.verdicts" 2>&1 || true
	finish "$results/lint.verdicts" ;;
esac
scripts/report.sh "$results"
echo "(every verdict: $report; KTAP and JSON: $results/)"
echo "$total_pass passed, $total_fail failed, $total_flaky flaky"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
