#!/bin/bash
# Apply patches/series to a user's own Linux 6.1 tree: git am in a git tree,
# patch -p1 otherwise.  Refuses a tree that is not 6.1 or already has it.
# Usage: apply.sh KSRC PATCHDIR
set -eu -o pipefail
ksrc=${1:-} pdir=$(realpath "$2")

die() { echo "apply: $*" >&2; exit 1; }

[ -n "$ksrc" ] || die "name your tree: make apply KSRC=/path/to/linux-6.1"
[ -f "$ksrc/Makefile" ] || die "$ksrc has no Makefile; is it a kernel tree?"
ver=$(awk -F ' = ' '$1 == "VERSION" { v = $2 } $1 == "PATCHLEVEL" { p = $2 }
	END { print v "." p }' "$ksrc/Makefile")
[ "$ver" = 6.1 ] || die "$ksrc is Linux $ver, not 6.1"

patches=$(grep -vE '^[[:space:]]*(#|$)' "$pdir/series" || true)
[ -n "$patches" ] || { echo "apply: the series is empty; nothing to do"; exit 0; }
# The series is there if its last patch can be taken back out.
last=$pdir/$(echo "$patches" | tail -1)

if git -C "$ksrc" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git -C "$ksrc" apply --check -R "$last" >/dev/null 2>&1 &&
		die "$ksrc already has the series ($(basename "$last") is applied)"
	for p in $patches; do
		git -C "$ksrc" am -q "$pdir/$p" ||
			die "$p does not apply; 'git -C $ksrc am --abort' undoes the partial run"
	done
else
	(cd "$ksrc" && patch -p1 -R --dry-run -s -f < "$last" >/dev/null 2>&1) &&
		die "$ksrc already has the series ($(basename "$last") is applied)"
	for p in $patches; do
		(cd "$ksrc" && patch -p1 --dry-run -s -f < "$pdir/$p" >/dev/null) ||
			die "$p does not apply to $ksrc; nothing from it was written"
		(cd "$ksrc" && patch -p1 -s -f < "$pdir/$p")
	done
fi
echo "apply: $(echo "$patches" | wc -l) patches applied to $ksrc"
