#!/bin/bash
# Build every patch of the series on its own, on each arch, as
# 'git rebase -x' would, in the tree's own build directories (warm ccache),
# then put the tree back at the series' tip.
# Usage: series-build.sh TREE [ARCH...]
#   Environment: SERIES_FULL=1 builds whole kernels; by default only
#   kernel/trace/, kernel/kprobes.o, arch/x86/kernel/, lib/ and samples/,
#   where the series changes code (a minute or two per patch and arch);
#   SERIES_FROM=N starts at the Nth patch, SERIES_TO=N stops after the Nth.
set -eu -o pipefail
tree=$1
shift
arches=${*:-x86_64 i386}
top=$(realpath "$(dirname "$0")/..")
targets="kernel/trace/ kernel/kprobes.o arch/x86/kernel/ lib/ samples/"
[ "${SERIES_FULL:-0}" = 1 ] && targets=""

if [ -n "$(git -C "$tree" status --porcelain --untracked-files=no)" ]; then
	echo "series-build: $tree has uncommitted changes" >&2
	exit 1
fi
tip=$(git -C "$tree" rev-parse HEAD)
branch=$(git -C "$tree" symbolic-ref -q --short HEAD || echo "$tip")
trap 'git -C "$tree" checkout -q "$branch"' EXIT

mapfile -t commits < <(git -C "$tree" rev-list --reverse fgraph-base..HEAD)
failed=0
for arch in $arches; do
	n=0
	for c in "${commits[@]}"; do
		n=$((n + 1))
		[ "$n" -ge "${SERIES_FROM:-1}" ] || continue
		[ "$n" -le "${SERIES_TO:-${#commits[@]}}" ] || break
		subject=$(git -C "$tree" log -1 --format=%s "$c")
		git -C "$tree" checkout -q --detach "$c"
		log=$top/build/logs/series-$arch-$(printf %02d $n).log
		mkdir -p "$(dirname "$log")"
		if FGRAPH_BISECT=1 FGRAPH_TARGETS="$targets" \
			"$top/scripts/kernel.sh" "$arch" "$tree" "$top/build/obj-$arch" > "$log" 2>&1; then
			echo "ok   $arch $n/${#commits[@]} $subject"
		else
			echo "FAIL $arch $n/${#commits[@]} $subject (log $log)"
			failed=$((failed + 1))
		fi
	done
done
echo "series-build: $failed failed"
[ "$failed" = 0 ]
