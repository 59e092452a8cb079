#!/bin/bash
# Judge results.sh lines against an expectation file and print one verdict per
# test ("ok"/"FAIL") and a summary per suite.  An expectation line is
# "RESULT<TAB>suite:name<TAB>why it does not pass"; a test not listed must PASS.
# Usage: compare.sh ARCH EXPECT < results
set -eu
arch=$1 expect=$2

awk -F '\t' -v arch="$arch" -v ef="$expect" '
	BEGIN {
		while ((getline l < ef) > 0) {
			if (l ~ /^#/ || l == "") continue
			split(l, a, "\t"); want[a[2]] = a[1]; why[a[2]] = a[3]
		}
	}
	{
		key = $1 ":" $3; base = key; sub(/ \(passed on rerun.*/, "", base)
		seen[base] = 1; order[++n] = $1
		w = (base in want) ? want[base] : "PASS"
		if ($2 == "PASS" && w != "PASS") {
			v = "ok"; note = " (listed as " w ": now passes; update the expectation)"
		} else if ($2 == w) {
			v = "ok"; note = (w == "PASS") ? "" : " (expected: " why[base] ")"
		} else {
			v = "FAIL"; note = " (expected " w ")"
		}
		printf "%-4s %s %s %s%s\n", v, arch, $2, key, note
		if (v == "ok") pass[$1]++; else fail[$1]++
		suites[$1] = 1
	}
	END {
		for (k in want) if (!(k in seen)) {
			s = k; sub(/:.*/, "", s)
			printf "FAIL %s MISSING %s (expected %s, never ran)\n", arch, k, want[k]
			fail[s]++; suites[s] = 1
		}
		for (s in suites)
			printf "== %s %s: %d passed, %d failed\n", s, arch, pass[s] + 0, fail[s] + 0
	}'
