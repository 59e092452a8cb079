#!/bin/bash
# The debug kernel: x86_64 with KASAN, lockdep, PROVE_RCU, atomic-sleep and
# list debugging, kmemleak, lockup and hung-task detection and line numbers
# (config/debug.config), built in build/obj-debug-x86_64 with full
# preemption (base.config), so lockdep and KASAN see every interleaving.
#   debug.sh check     the boot self tests, ftracetest's test.d/ftrace/, our
#                      guest tests, a stress run of STRESS_SECONDS (120) and
#                      a kmemleak scan, judged against
#                      tests/manifest/x86_64-debug.txt
#   debug.sh stress S  the boot self tests, the BTF output test (only this
#                      kernel has BTF), a stress run of S seconds and the
#                      kmemleak scan (make stress, and CI)
# Prints verdicts and "== SUITE x86_64-debug: ..." summaries as check.sh
# reads them; a splat is printed decoded.  DEBUG_TIMEOUT: the guest's limit
# in seconds (default: 4800, for stress 900, plus the stress run).
set -eu -o pipefail
mode=${1:-}
top=$(realpath "$(dirname "$0")/..")
cd "$top"
obj=build/obj-debug-x86_64 logs=build/logs name=x86_64-debug
mkdir -p "$logs"

# Without Debian's hot-path options (distro.config): with them, this
# KASAN guest ran 43 of test.d/ftrace's tests in 48 minutes, against all
# of them in 41 without; make check's x86_64 kernel runs them.
build() {
	FGRAPH_DISTRO=0 FGRAPH_EXTRA=$top/config/debug.config \
		scripts/kernel.sh x86_64 build/linux "$obj" &&
		scripts/initramfs.sh x86_64 build/linux "$obj"
}

# The manifest's lines for the tests a stress run has.
btf_test='ftrace - function_graph arguments and return values by their BTF types'
stress_manifest() {
	grep -P "^[A-Z]+\t(boot:|kunit:|job:(stress|kmemleak|ftracetest) |stress:|kmemleak:|ftracetest:$btf_test)" \
		tests/manifest/$name.txt
}

case $mode in
check)
	secs=${STRESS_SECONDS:-120}
	base=4800
	jobs=ftracetest,tests,stress,kmemleak
	append="fgraph.ft=test.d/ftrace fgraph.stress=$secs"
	manifest=tests/manifest/$name.txt ;;
stress)
	secs=${2:-}
	base=900
	jobs=ftracetest,stress,kmemleak
	append="fgraph.ft=test.d/ftrace/fgraph-args-btf.tc fgraph.stress=$secs"
	manifest=$(mktemp)
	trap 'rm -f "$manifest"' EXIT
	stress_manifest > "$manifest" ;;
*) echo "usage: debug.sh check | stress SECONDS" >&2; exit 2 ;;
esac
case $secs in
'' | *[!0-9]*) echo "debug.sh: the stress run's seconds must be a number, not '$secs'" >&2; exit 2 ;;
esac
limit=$((base + secs))
# A hung task or a soft lockup ends the run at once rather than at the
# timeout; switching every function on and off under KASAN takes minutes,
# and a task waiting for ftrace_lock meanwhile is not hung.
append="$append hung_task_panic=1 softlockup_panic=1 sysctl.kernel.hung_task_timeout_secs=300"

judge() {
	if ! build > "$logs/$name-build.log" 2>&1; then
		echo "FAIL $name build (see $logs/$name-build.log):"
		grep -E 'error|dropped' "$logs/$name-build.log" | head -5 | sed 's/^/    /'
		echo "== build $name: 0 passed, 1 failed, 0 flaky"
		return
	fi
	if OBJ=$top/$obj MEM=2048 LOG=$log FGRAPH_APPEND="$append" \
	   scripts/boot.sh x86_64 "$jobs" "${DEBUG_TIMEOUT:-$limit}"; then
		echo "ok   $name log: no kernel trouble, end marker"
		echo "== log $name: 1 passed, 0 failed, 0 flaky"
	else
		echo "FAIL $name log: see above"
		echo "== log $name: 0 passed, 1 failed, 0 flaky"
	fi
	scripts/results.sh "$log" | scripts/compare.sh "$name" "$manifest"
}

log=$logs/$name-$mode.log
judge | tee "$log.verdicts"
! grep -q '^FAIL' "$log.verdicts"
