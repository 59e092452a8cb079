#!/bin/bash
# Read a guest log and print one line per test: "SUITE<TAB>RESULT<TAB>NAME".
# Suites: boot (the kernel's boot-time tracer self tests), ftracetest (after
# its in-guest rerun), and each of the project's own guest test suites.
# Usage: results.sh LOG
set -eu
log=$1

# "Testing X: ... PASSED" may span lines (the ops tests print progress).
boot_tests() {
	tr -d '\r' < "$log" | sed 's/^\[ *[0-9.]*\] //' | awk '
		/^Run \/init/ { exit }
		/^Testing [^:]*:/ { name = $0; sub(/^Testing /, "", name); sub(/:.*/, "", name) }
		name != "" && /PASSED/ { print "boot\tPASS\t" name; name = "" }
		name != "" && /FAILED/ { print "boot\tFAIL\t" name; name = "" }'
}

# "[12] (instance)  desc<TAB>[PASS]" -> "PASS<TAB>(instance) desc"
ftrace_lines() {
	tr -d '\r' < "$log" | grep -a "^@@ $1 " | sed "s/^@@ $1 //" | awk -F '\t' '
		{ r = $2; gsub(/[][]/, "", r); d = $1; sub(/^\[[0-9]+\] */, "", d);
		  gsub(/  +/, " ", d); print r "\t" d }'
}

ftracetest_tests() {
	ftrace_lines ftracetest-rerun > "$log.rerun"
	ftrace_lines ftracetest | awk -F '\t' -v rr="$log.rerun" '
		BEGIN { while ((getline l < rr) > 0) { split(l, a, "\t"); re[a[2]] = a[1] } }
		$1 != "PASS" && re[$2] == "PASS" { print "ftracetest\tPASS\t" $2 " (passed on rerun, first " $1 ")"; next }
		{ print "ftracetest\t" $1 "\t" $2 }'
	rm -f "$log.rerun"
}

own_tests() {
	tr -d '\r' < "$log" | grep -a '^@@ test ' | awk '{ s = $3; r = $4; $1 = $2 = $3 = $4 = "";
		sub(/^ +/, ""); print s "\t" r "\t" $0 }'
}

boot_tests
ftracetest_tests
own_tests
