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

cross() {
	case ${1%%-*} in x86_64|i386) return 1 ;; esac
}

# build NAME TREE OBJ: the configuration's targets, FGRAPH_BASELINE as set.
# Their objects go first, so that every warning is printed again (ccache
# replays a cached compile's warnings).
build() {
	local arch=${1%%-*} dir
	case $arch in x86_64|i386) dir=x86 ;; *) dir=$arch ;; esac
	rm -rf "$3/kernel/trace" "$3/arch/$dir/kernel" "$3/kernel/kprobes.o"
	FGRAPH_EXTRA=$top/config/matrix/$1.config \
	FGRAPH_TARGETS="kernel/trace/ kernel/kprobes.o arch/$dir/kernel/" \
	scripts/kernel.sh "$arch" "$2" "$3"
}

# warnings LOG: its compiler warnings, without tree paths and line numbers
warnings() {
	grep 'warning:' "$1" |
		sed -E 's#^(\.\./|/[^ :]*/build/)(linux|base)/##; s/:[0-9]+(:[0-9]+)?:/:/' |
		LC_ALL=C sort -u || true
}

# verdict NAME: build NAME and its 6.1 twin if cross-built; say how it went
verdict() {
	local log=build/logs/matrix-$1.log blog=build/logs/matrix-$1-base.log new
	if ! build "$1" build/linux "build/obj-matrix-$1" > "$log" 2>&1; then
		echo "FAIL matrix $1 ($log):"
		grep -m 5 -E 'error|dropped|Error' "$log" | sed 's/^/    /' || true
		return 1
	fi
	cross "$1" || { echo "ok   matrix $1"; return 0; }
	[ "$base_ok" = 1 ] || { echo "FAIL matrix $1: no unpatched tree to compare with"; return 1; }
	if ! FGRAPH_BASELINE=1 build "$1" build/base "build/obj-matrix-base-$1" > "$blog" 2>&1; then
		echo "FAIL matrix $1: unpatched 6.1 did not build ($blog)"
		return 1
	fi
	new=$(LC_ALL=C comm -13 <(warnings "$blog") <(warnings "$log"))
	if [ -n "$new" ]; then
		echo "FAIL matrix $1: new against 6.1:"
		sed -n '1,5s/^/    /p' <<< "$new"
		return 1
	fi
	echo "ok   matrix $1"
}

base_ok=0
for name in "${names[@]}"; do
	cross "$name" || continue
	scripts/base-tree.sh >&2 && base_ok=1
	break
done
for name in "${names[@]}"; do
	if verdict "$name"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
	fi
done
echo "== matrix: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
