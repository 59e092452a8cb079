#!/bin/bash
# The lines of a manifest that a run of only the ftracetest cases under DIR
# gives: every other suite's, and those of the cases whose description a
# .tc file under DIR has (an "(instance)" run of one included).
# Usage: manifest-subset.sh MANIFEST DIR
set -eu -o pipefail
manifest=$1 dir=$2
[ -d "$dir" ] || { echo "manifest-subset: no $dir" >&2; exit 1; }
find "$dir" -name '*.tc' -exec sed -n 's/^# description: //p' {} + |
	awk -F '\t' '
		NR == FNR { want["ftracetest:" $0] = 1; next }
		/^#/ || $2 !~ /^ftracetest:/ { print; next }
		{ k = $2; sub(/^ftracetest:\(instance\) +/, "ftracetest:", k) }
		k in want' - "$manifest"
