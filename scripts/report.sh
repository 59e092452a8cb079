#!/bin/bash
# Turn make check's verdict files (RESULTS/*.verdicts) into KTAP, one file
# each (listed non-passes as "# XFAIL" or "# SKIP" with their reason), and
# RESULTS/summary.json: the totals per suite and the versions of what ran.
# Usage: report.sh RESULTS
set -eu -o pipefail
results=$1
top=$(realpath "$(dirname "$0")/..")

to_ktap() { # verdicts
	awk '
		/^(ok  |FAIL) / {
			ok = ($1 == "ok"); line = $0; sub(/^(ok  |FAIL) +[^ ]+ /, "", line)
			res = line; sub(/ .*/, "", res); dir = ""
			if (ok && match(line, /\(expected: .*\)$/)) {
				why = substr(line, RSTART + 11, RLENGTH - 12)
				dir = (res == "UNRESOLVED" || res == "UNSUPPORTED") ? " # SKIP " why : " # XFAIL " why
				sub(/ \(expected: .*\)$/, "", line)
			}
			gsub(/#/, "", line)
			t[++n] = (ok ? "ok " : "not ok ") n " " line dir
		}
		END { print "KTAP version 1"; print "1.." n; for (i = 1; i <= n; i++) print t[i] }' "$1"
}

for v in "$results"/*.verdicts; do
	[ -e "$v" ] || continue
	to_ktap "$v" > "${v%.verdicts}.ktap"
done

busybox=$(find "$top/build/dl" -name 'busybox-static_*_amd64.deb' -printf '%f\n' 2>/dev/null | head -1)
export FGRAPH_KVER FGRAPH_SERIES FGRAPH_HARNESS FGRAPH_QEMU FGRAPH_GCC FGRAPH_BUSYBOX
FGRAPH_KVER=$(sed -n 's/^KVER *?= *//p' "$top/Makefile")
FGRAPH_SERIES=$(cat "$top/patches/series" "$top"/patches/*.patch | sha256sum | cut -c1-16)
FGRAPH_HARNESS=$(git -C "$top" describe --always --dirty 2>/dev/null || echo unknown)
FGRAPH_QEMU=$(qemu-system-x86_64 --version | head -1)
FGRAPH_GCC=$(gcc --version | head -1)
FGRAPH_BUSYBOX=${busybox:-unknown}
cat "$results"/*.verdicts | grep '^== ' | /usr/bin/python3 -c '
import json, os, re, sys
suites = {}
for l in sys.stdin:
    m = re.match(r"== (.*): (\d+) passed, (\d+) failed(?:, (\d+) flaky)?$", l.strip())
    if m:
        suites[m.group(1)] = {"passed": int(m.group(2)), "failed": int(m.group(3)),
                              "flaky": int(m.group(4) or 0)}
total = {k: sum(s[k] for s in suites.values()) for k in ("passed", "failed", "flaky")}
e = os.environ
print(json.dumps({"versions": {"kernel_source": "linux-source-6.1 " + e["FGRAPH_KVER"],
                               "series_sha256": e["FGRAPH_SERIES"],
                               "harness": e["FGRAPH_HARNESS"], "qemu": e["FGRAPH_QEMU"],
                               "gcc": e["FGRAPH_GCC"], "busybox": e["FGRAPH_BUSYBOX"]},
                  "suites": suites, "total": total}, indent=2))
' > "$results/summary.json"
