#!/bin/bash
# make expect: rewrite tests/manifest/ARCH.txt from the last make check of
# that arch, for review.  A test that passed gets a PASS line; one that did
# not keeps its manifest line if it gave the same result, else gets
# "RESULT<TAB>suite:name<TAB>TODO: ..." that make check refuses until a
# reason is written.  FLAKY is never written here: a person decides that.
# Tests that no longer ran are dropped.  Shows the change; commits nothing.
# Usage: expect.sh ARCH...   (x86_64-debug: the debug kernel's run)
set -eu -o pipefail
top=$(realpath "$(dirname "$0")/..")
cd "$top"
for arch in "$@"; do
	case $arch in
	*-debug) log=build/logs/$arch-check.log ;;
	*) log=build/logs/$arch-$(echo "${CHECK_JOBS:-ftracetest,tests}" | tr ',' '-').log ;;
	esac
	manifest=tests/manifest/$arch.txt
	if [ ! -f "$log" ]; then
		case $arch in
		*-debug) echo "expect: no $log (make check or make debug writes it): $arch skipped" >&2
			continue ;;
		esac
		echo "expect: no $log: run make check first" >&2
		exit 1
	fi
	mkdir -p tests/manifest
	touch "$manifest"
	new=$(mktemp)
	{
		echo "# Every test make check runs on $arch, with the result it must give."
		echo "# RESULT<TAB>suite:name<TAB>why (for anything but PASS).  RESULT is PASS,"
		echo "# FLAKY (may fail once and pass on the rerun; never an fgraph test) or"
		echo "# the result a test that cannot pass here gives.  make expect rewrites"
		echo "# this file from the last run; review the change before committing it."
		scripts/results.sh "$log" | awk -F '\t' -v mf="$manifest" '
			BEGIN { while ((getline l < mf) > 0) { if (l ~ /^#/ || l == "") continue
				split(l, a, "\t"); want[a[2]] = a[1]; line[a[2]] = l } }
			{ key = $1 ":" $3; res = ($2 == "FLAKY") ? "PASS" : $2
			  if (key in want && (want[key] == res || want[key] == "FLAKY")) print line[key]
			  else if (res == "PASS") print "PASS\t" key "\t"
			  else print res "\t" key "\tTODO: why it cannot pass here" }'
	} > "$new"
	if diff -u "$manifest" "$new"; then
		echo "expect: $manifest unchanged"
	else
		echo "expect: $manifest rewritten from $log; review with git diff"
	fi
	mv "$new" "$manifest"
done
