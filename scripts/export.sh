#!/bin/bash
# Write the build tree's commits after the base back to patches/ and rewrite
# patches/series.  Usage: export.sh TREE PATCHDIR
set -eu -o pipefail
tree=$1 pdir=$2

[ -d "$tree/.git" ] || { echo "export: no tree at $tree; run 'make tree'" >&2; exit 1; }
if [ -d "$tree/.git/rebase-apply" ] || [ -d "$tree/.git/rebase-merge" ]; then
	echo "export: a git am or rebase is in progress in $tree: finish or abort it first" >&2
	exit 1
fi
if [ -n "$(git -C "$tree" status --porcelain --untracked-files=no)" ]; then
	echo "export: $tree has uncommitted changes; commit them first" >&2
	exit 1
fi
mkdir -p "$pdir"
rm -f "$pdir"/*.patch
git -C "$tree" format-patch -q --zero-commit --no-signature --no-cover-letter \
	-o "$(realpath "$pdir")" fgraph-base..HEAD
{
	echo "# fgraph-multi: applied in this order by 'make tree' (git am)"
	(cd "$pdir" && ls -1 -- *.patch 2>/dev/null) || true
} > "$pdir/series"
echo "export: $(grep -vc '^#' "$pdir/series" || true) patches in $pdir"
