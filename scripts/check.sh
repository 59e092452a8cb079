#!/bin/bash
# Build, boot and test each arch: boot-time self tests, ftracetest against
# tests/expect/, and the project's own guest tests.  Prints a summary per
# suite and arch and "N passed, N failed" overall as its last line.
# Usage: check.sh ARCH...
set -eu
top=$(realpath "$(dirname "$0")/..")
cd "$top"
logs=build/logs
mkdir -p "$logs"
report=$logs/check.log
: > "$report"
total_pass=0 total_fail=0

# Per arch: what the guest runs and how long it may take.
guest_jobs() {
	case $1 in
	x86_64) echo "ftracetest,tests" ;;
	*) echo "${CHECK_JOBS_I386:-ftracetest,tests}" ;;
	esac
}

count() {
	total_pass=$((total_pass + $1))
	total_fail=$((total_fail + $2))
}

check_arch() {
	arch=$1
	if ! scripts/kernel.sh "$arch" build/linux "build/obj-$arch" ||
	   ! scripts/initramfs.sh "$arch" build/linux "build/obj-$arch"; then
		echo "== build $arch: 0 passed, 1 failed" | tee -a "$report"
		count 0 1
		return
	fi
	jobs=$(guest_jobs "$arch")
	log=$logs/$arch-$(echo "$jobs" | tr ',' '-').log
	if scripts/boot.sh "$arch" "$jobs" "${CHECK_TIMEOUT:-2700}"; then
		echo "== log $arch: 1 passed, 0 failed" | tee -a "$report"
		count 1 0
	else
		echo "== log $arch: 0 passed, 1 failed" | tee -a "$report"
		count 0 1
	fi
	scripts/results.sh "$log" | scripts/compare.sh "$arch" "tests/expect/$arch.txt" > "$log.verdicts"
	cat "$log.verdicts" >> "$report"
	grep '^FAIL' "$log.verdicts" || true
	grep '^== ' "$log.verdicts" | sort
	p=$(grep '^== ' "$log.verdicts" | awk '{ s += $(NF-3) } END { print s + 0 }')
	f=$(grep '^== ' "$log.verdicts" | awk '{ s += $(NF-1) } END { print s + 0 }')
	count "$p" "$f"
}

for arch in "$@"; do
	check_arch "$arch"
done
echo "(every verdict: $report)"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
