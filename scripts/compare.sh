#!/bin/bash
# Judge results.sh lines against the arch's manifest and print one verdict
# per test ("ok" or "FAIL") and a summary per suite.  The manifest lists
# every test make check runs: "RESULT<TAB>suite:name<TAB>why", RESULT one
# of PASS, FLAKY (may fail once and pass on the rerun; never an fgraph
# test), or the result a test that cannot pass here gives (FAIL, XFAIL,
# UNRESOLVED, UNSUPPORTED), with its reason.  A test that ran and is not
# listed, a listed test that never ran, a FLAKY result not allowed, and a
# listed failure that passes (XPASS) all fail.
# Usage: compare.sh ARCH MANIFEST < results
set -eu -o pipefail
arch=$1 manifest=$2

awk -F '\t' -v arch="$arch" -v mf="$manifest" '
	function verdict(ok, suite, text) {
		printf "%-4s %s %s\n", ok ? "ok" : "FAIL", arch, text
		if (ok) pass[suite]++; else fail[suite]++
		suites[suite] = 1
	}
	BEGIN {
		while ((getline l < mf) > 0) {
			if (l ~ /^#/ || l == "") continue
			split(l, a, "\t"); want[a[2]] = a[1]; why[a[2]] = a[3]
			if (a[1] != "PASS" && (a[3] == "" || a[3] ~ /^TODO/))
				bad[a[2]] = "listed " a[1] " without a reason"
			if (a[1] == "FLAKY" && tolower(a[2]) ~ /fgraph|function graph|function_graph/)
				bad[a[2]] = "an fgraph test may not be marked FLAKY"
		}
	}
	{
		key = $1 ":" $3; suite = $1; seen[key] = 1; res = $2
		note = ($4 != "") ? " (" $4 ")" : ""
		if (key in bad) { verdict(0, suite, res " " key ": manifest: " bad[key]); next }
		if (!(key in want)) { verdict(0, suite, res " " key note " (not in manifest: add it, make expect)"); next }
		w = want[key]
		if (res == "FLAKY") {
			flaky[suite]++; nflaky++
			if (w == "FLAKY") verdict(1, suite, "FLAKY " key note " (allowed: " why[key] ")")
			else verdict(0, suite, "FLAKY " key note)
		} else if (res == "PASS" && (w == "PASS" || w == "FLAKY")) {
			verdict(1, suite, "PASS " key)
		} else if (res == "PASS") {
			verdict(0, suite, "XPASS " key " (listed " w ": " why[key] "; it passes now: update the manifest)")
		} else if (res == w) {
			verdict(1, suite, res " " key " (expected: " why[key] ")")
		} else {
			verdict(0, suite, res " " key note " (expected " w ")")
		}
	}
	END {
		for (k in want) if (!(k in seen)) {
			s = k; sub(/:.*/, "", s)
			verdict(0, s, "MISSING " k " (expected " want[k] ", never ran)")
		}
		for (s in suites)
			printf "== %s %s: %d passed, %d failed, %d flaky\n", s, arch, pass[s] + 0, fail[s] + 0, flaky[s] + 0
	}'
