#!/bin/bash
# Read a guest log and print one line per test:
# "SUITE<TAB>RESULT<TAB>NAME[<TAB>NOTE]".
# Suites: boot (the kernel's boot-time self tests, "Testing X: PASSED" or
# ": OK": PASS, FAIL, or UNKNOWN when no verdict came), kunit (the KUnit
# suites built in, run at boot: each case and each suite), ftracetest (FLAKY when a test failed and
# passed on its rerun), job (each guest job ended, and ftracetest's own
# totals match the tests it reported), and each of the project's own guest
# test suites.
# Usage: results.sh LOG
set -eu -o pipefail
# Serial logs end lines with \r\n: read a clean copy.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
tr -d '\r' < "$1" > "$log"

# "Testing X: ... PASSED" may span lines (the ops tests print progress).
boot_tests() {
	sed 's/^\[ *[0-9.]*\] //' "$log" | awk '
		function unknown() { if (name != "") print "boot\tUNKNOWN\t" name "\tno PASSED or FAILED"; name = "" }
		over { next }
		/^Run \/init/ { unknown(); over = 1; next }
		/(^|: )Testing [^:]*:/ { unknown(); name = $0; sub(/^.*Testing /, "", name); sub(/:.*/, "", name) }
		name != "" && /PASSED|: OK$/ { print "boot\tPASS\t" name; name = "" }
		name != "" && /FAILED|: NG$/ { print "boot\tFAIL\t" name; name = "" }
		END { if (!over) unknown() }'
}

# KUnit's KTAP at boot: each case of each suite, "kunit<TAB>PASS<TAB>suite.case"
# (SKIP for "# SKIP"), and each suite's own verdict as "suite" alone.
kunit_tests() {
	sed 's/^\[ *[0-9.]*\] //' "$log" | awk '
		function verdict(ok, rest) {
			r = ok ? "PASS" : "FAIL"
			if (rest ~ /# SKIP/) r = "SKIP"
			sub(/ *#.*/, "", rest); sub(/^- /, "", rest)
			return r "\t" rest
		}
		/^    # Subtest: / { suite = $3; next }
		suite != "" && /^        (not )?ok [0-9]+ / { next }
		suite != "" && /^    (not )?ok [0-9]+ / {
			ok = $1 == "ok"; rest = $0; sub(/^ *(not )?ok [0-9]+ /, "", rest)
			split(verdict(ok, rest), v, "\t")
			print "kunit\t" v[1] "\t" suite "." v[2]; next }
		suite != "" && /^(not )?ok [0-9]+ / {
			ok = $1 == "ok"; rest = $0; sub(/^(not )?ok [0-9]+ /, "", rest)
			split(verdict(ok, rest), v, "\t")
			print "kunit\t" v[1] "\t" v[2]; suite = "" }'
}

# "[12] (instance)  desc<TAB>[PASS]" -> "PASS<TAB>(instance) desc"
ftrace_lines() {
	grep -a "^@@ $1 " "$log" | sed "s/^@@ $1 //" | awk -F '\t' '
		{ r = $2; gsub(/[][]/, "", r); d = $1; sub(/^\[[0-9]+\] */, "", d);
		  gsub(/  +/, " ", d); print r "\t" d }' || true
}

# "@@ why [12] (instance)  desc<TAB>reason" -> "desc<TAB>reason"
ftrace_why() {
	grep -a "^@@ why " "$log" | sed 's/^@@ why //' | awk -F '\t' '
		{ d = $1; sub(/^\[[0-9]+\] */, "", d); gsub(/  +/, " ", d); print d "\t" $2 }' || true
}

ftracetest_tests() {
	ftrace_lines ftracetest-rerun > "$log.rerun"
	ftrace_why > "$log.why"
	ftrace_lines ftracetest | awk -F '\t' -v rr="$log.rerun" -v wf="$log.why" '
		BEGIN { while ((getline l < rr) > 0) { split(l, a, "\t"); re[a[2]] = a[1] }
			while ((getline l < wf) > 0) { split(l, a, "\t"); why[a[1]] = ": " a[2] } }
		$1 != "PASS" && re[$2] == "PASS" { print "ftracetest\tFLAKY\t" $2 "\t" $1 " first" why[$2] ", PASS on the rerun"; next }
		$1 != "PASS" && ($2 in why) { print "ftracetest\t" $1 "\t" $2 "\t" substr(why[$2], 3); next }
		{ print "ftracetest\t" $1 "\t" $2 }'
	rm -f "$log.rerun" "$log.why"
}

# Each job must end; ftracetest's totals must count the tests it listed.
job_checks() {
	local job listed total
	for job in $(sed -n 's/^@@ begin //p' "$log"); do
		if grep -aq "^@@ end $job rc=" "$log"; then
			echo -e "job\tPASS\t$job ended"
		else
			echo -e "job\tFAIL\t$job ended\tno @@ end line"
		fi
	done
	grep -aq '^@@ begin ftracetest' "$log" || return 0
	listed=$(ftrace_lines ftracetest | grep -c . || true)
	total=$(sed -n '/^@@ begin ftracetest/,/^@@ end ftracetest/p' "$log" |
		sed -n 's/^# of [a-z() ]*: *\([0-9]*\)$/\1/p' | awk '{ s += $1 } END { print s + 0 }')
	if [ "$listed" -gt 0 ] && [ "$listed" = "$total" ]; then
		echo -e "job\tPASS\tftracetest totals"
	else
		echo -e "job\tFAIL\tftracetest totals\tftracetest counted $total tests, listed $listed"
	fi
}

own_tests() {
	grep -a '^@@ test ' "$log" | awk '{ s = $3; r = $4; $1 = $2 = $3 = $4 = "";
		sub(/^ +/, ""); print s "\t" r "\t" $0 }' || true
}

boot_tests
kunit_tests
ftracetest_tests
job_checks
own_tests
