#!/bin/bash
# Lay out unpatched 6.1, the series' base commit, as a worktree of
# build/linux in build/base (make bench and make matrix compare with it).
# A worktree left behind by an earlier build/linux is made again.
set -eu -o pipefail
cd "$(realpath "$(dirname "$0")/..")"
if [ -d build/base ] && ! git -C build/base rev-parse --git-dir >/dev/null 2>&1; then
	rm -rf build/base
fi
if [ ! -d build/base ]; then
	git -C build/linux worktree prune
	git -C build/linux worktree add -q --detach "$(realpath -m build/base)" fgraph-base
fi
git -C build/base checkout -q --detach fgraph-base
