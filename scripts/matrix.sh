#!/bin/bash
# Build kernel/trace/, kernel/kprobes.o and arch/x86/kernel/ for each
# configuration in config/matrix/ (ARCH-NAME.config: the usual fragments
# plus that one) and print one verdict line per configuration, "== matrix:
# N passed, N failed" last.  Build output of a failure is in build/logs/matrix-NAME.log.
# Usage: matrix.sh [NAME...]   (default: every configuration)
set -eu -o pipefail
top=$(realpath "$(dirname "$0")/..")
cd "$top"
mkdir -p build/logs
pass=0 fail=0
names=("$@")
[ ${#names[@]} -gt 0 ] || mapfile -t names < <(ls config/matrix | sed 's/\.config$//')
for name in "${names[@]}"; do
	arch=${name%%-*}
	log=build/logs/matrix-$name.log
	if FGRAPH_EXTRA=$top/config/matrix/$name.config \
	   FGRAPH_TARGETS="kernel/trace/ kernel/kprobes.o arch/x86/kernel/" \
	   scripts/kernel.sh "$arch" build/linux "build/obj-matrix-$name" > "$log" 2>&1; then
		echo "ok   matrix $name"
		pass=$((pass + 1))
	else
		echo "FAIL matrix $name (build/logs/matrix-$name.log):"
		grep -E 'error|dropped' "$log" | head -5 | sed 's/^/    /'
		fail=$((fail + 1))
	fi
done
echo "== matrix: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
