#!/bin/bash
# Build kernel/trace/, kernel/kprobes.o and arch/ARCH/kernel/ for each
# configuration in config/matrix/ (ARCH-NAME.config: the usual fragments
# plus that one) and print one verdict line per configuration, "== matrix:
# N passed, N failed" last.  The arches other than x86 are cross-built, and
# unpatched 6.1 (build/base) is built the same way: a warning the series'
# build has and 6.1's has not fails the configuration.  Build output of a
# failure is in build/logs/matrix-NAME.log (6.1's: matrix-NAME-base.log).
# Usage: matrix.sh [NAME...]   (default: every configuration)
set -eu -o pipefail
top=$(realpath "$(dirname "$0")/..")
cd "$top"
mkdir -p build/logs
pass=0 fail=0
names=("$@")
[ ${#names[@]} -gt 0 ] || mapfile -t names < <(ls config/matrix | sed 's/\.config$//')

# build NAME TREE OBJ: the configuration's targets, FGRAPH_BASELINE as set
build() {
	local arch=${1%%-*} dir
	case $arch in x86_64|i386) dir=x86 ;; *) dir=$arch ;; esac
	FGRAPH_EXTRA=$top/config/matrix/$1.config \
	FGRAPH_TARGETS="kernel/trace/ kernel/kprobes.o arch/$dir/kernel/" \
	scripts/kernel.sh "$arch" "$2" "$3"
}

# warnings LOG: its compiler warnings, without tree paths and line numbers
warnings() {
	grep 'warning:' "$1" |
		sed -E 's#^(\.\./|/[^ :]*/build/)(linux|base)/##; s/:[0-9]+(:[0-9]+)?:/:/' |
		sort -u || true
}

# new_warnings NAME: those of the series' build that 6.1's has not
new_warnings() {
	local log=build/logs/matrix-$1.log blog=build/logs/matrix-$1-base.log
	scripts/base-tree.sh
	FGRAPH_BASELINE=1 build "$1" build/base "build/obj-matrix-base-$1" > "$blog" 2>&1 ||
		{ echo "6.1 did not build (see $blog)"; return; }
	comm -13 <(warnings "$blog") <(warnings "$log")
}

for name in "${names[@]}"; do
	log=build/logs/matrix-$name.log
	if ! build "$name" build/linux "build/obj-matrix-$name" > "$log" 2>&1; then
		echo "FAIL matrix $name ($log):"
		grep -E 'error|dropped' "$log" | head -5 | sed 's/^/    /'
		fail=$((fail + 1))
		continue
	fi
	case ${name%%-*} in
	x86_64|i386) new= ;;
	*) new=$(new_warnings "$name") ;;
	esac
	if [ -n "$new" ]; then
		echo "FAIL matrix $name: new against 6.1:"
		echo "$new" | head -5 | sed 's/^/    /'
		fail=$((fail + 1))
	else
		echo "ok   matrix $name"
		pass=$((pass + 1))
	fi
done
echo "== matrix: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
