#!/bin/bash
# Lay the pinned 6.1 source out as a git repo with one base commit, then
# apply patches/series with git am.  Never drops commits that are not exported.
# Usage: tree.sh TARBALL TREE PATCHDIR
set -eu -o pipefail
tarball=$1 tree=$2 pdir=$3
base_tag=fgraph-base

# The patch-ids of the exported series, one per line.
series_ids() {
	for p in $(series_files); do
		git -C "$tree" patch-id --stable < "$pdir/$p" | cut -d' ' -f1
	done
}

series_files() {
	[ -f "$pdir/series" ] || return 0
	grep -vE '^[[:space:]]*(#|$)' "$pdir/series" || true
}

refuse() {
	echo "tree: $tree: $1" >&2
	echo "tree: export them with 'make export', or throw them away with 'make tree FORCE=1'." >&2
	exit 1
}

check_exported() {
	if [ -d "$tree/.git/rebase-apply" ] || [ -d "$tree/.git/rebase-merge" ]; then
		refuse "a git am or rebase is in progress (finish it or abort it)"
	fi
	if [ -n "$(git -C "$tree" status --porcelain --untracked-files=no)" ]; then
		refuse "has uncommitted changes"
	fi
	known=$(series_ids)
	lost=""
	for c in $(git -C "$tree" rev-list "$base_tag"..HEAD); do
		id=$(git -C "$tree" show "$c" | git -C "$tree" patch-id --stable | cut -d' ' -f1)
		[ -z "$id" ] && continue
		grep -qx "$id" <<< "$known" ||
			lost="$lost    $(git -C "$tree" log -1 --format='%h %s' "$c")\n"
	done
	[ -z "$lost" ] || refuse "$(printf 'commits not in patches/:\n%b' "$lost")"
}

unpack() {
	echo "tree: unpacking $(basename "$tarball") into $tree"
	rm -rf "$tree" "$tree.tmp"
	mkdir -p "$tree.tmp"
	tar -C "$tree.tmp" -xf "$tarball"
	mv "$tree.tmp/linux-source-6.1" "$tree"
	rmdir "$tree.tmp"
	# Debian's packaging ignores every top-level entry; a development tree
	# must see new files, so drop those two rules from the base.
	sed -i -e '\#^/\*$#d' -e '\#^!/debian/$#d' "$tree/.gitignore"
	git -C "$tree" init -q -b master
	git -C "$tree" add -A
	GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
		git -C "$tree" -c user.name=fgraph-multi -c user.email=fgraph-multi@localhost \
		commit -q -m "Debian linux-source-6.1 $(basename "$tarball" .tar.xz)"
	git -C "$tree" tag "$base_tag"
}

# The patch-ids of the tree's commits after the base, oldest first.
tree_ids() {
	for c in $(git -C "$tree" rev-list --reverse "$base_tag"..HEAD); do
		git -C "$tree" show "$c" | git -C "$tree" patch-id --stable | cut -d' ' -f1
	done
}

if [ -d "$tree/.git" ] && git -C "$tree" rev-parse -q --verify "$base_tag" >/dev/null; then
	[ "${FORCE:-0}" = 1 ] || check_exported
	# Already exactly the series: leave it alone, so that no file's mtime
	# changes and the next build stays incremental.
	if [ "${FORCE:-0}" != 1 ] && [ "$(tree_ids)" = "$(series_ids)" ]; then
		echo "tree: $tree already holds patches/series"
		exit 0
	fi
	git -C "$tree" am --abort >/dev/null 2>&1 || true
	git -C "$tree" checkout -q -f -B master "$base_tag"
else
	unpack
fi
git -C "$tree" config user.name "fgraph-multi developers"
git -C "$tree" config user.email "fgraph-multi@localhost"

n=0
for p in $(series_files); do
	if ! git -C "$tree" am -q "$(realpath "$pdir/$p")" >/dev/null 2>&1; then
		git -C "$tree" am --abort >/dev/null 2>&1 || true
		echo "tree: patch $p does not apply; the tree is left at the patch before it." >&2
		exit 1
	fi
	n=$((n + 1))
done
echo "tree: $tree at $(git -C "$tree" log -1 --format=%h), $n patches applied"
