#!/bin/bash
# Lint the project: shellcheck (warnings and errors) on the harness,
# checkpatch --strict on every patch of the series, kernel-doc on the C
# files the series touches (no more warnings than 6.1 had), and the
# series' .rst files must parse (docutils).  A checkpatch finding passes
# only if tests/lint-allow.txt lists it (patch subject, message, why: the
# patch's commit message says the same); anything else fails.
# Prints one verdict per finding and "== lint: N passed, N failed" last.
# Usage: lint.sh
set -eu -o pipefail
top=$(realpath "$(dirname "$0")/..")
cd "$top"
allow=tests/lint-allow.txt
pass=0 fail=0

verdict() { # ok|FAIL text
	printf '%-4s lint %s\n' "$1" "$2"
	if [ "$1" = ok ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
}

# guest/ holds the guest's scripts and the C source of its test programs
shopt -s extglob
shell_files=(scripts/*.sh .ci/run guest/!(*.c) bench/*.sh tests/guest/*/*)
if out=$(shellcheck -S warning "${shell_files[@]}" 2>&1); then
	verdict ok "shellcheck: ${#shell_files[@]} files clean"
else
	verdict FAIL "shellcheck:"
	echo "$out" | sed 's/^/    /'
fi

# "file:line: TYPE: message" -> the patch's subject part and the message
checkpatch_findings() {
	local p
	for p in patches/*.patch; do
		# Debian's python3 has ply for checkpatch's SPDX check
		(cd build/linux && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict \
			--terse --no-summary "../../$p" || true)
	done | sed -n 's|^\.\./\.\./patches/[0-9]*-\([^:]*\)\.patch:[0-9]*: \(.*\)$|\1\t\2|p'
}

[ -x build/linux/scripts/checkpatch.pl ] || { echo "lint: no build/linux: run make tree" >&2; exit 1; }
n=0
while IFS=$'\t' read -r patch msg; do
	n=$((n + 1))
	why=$(awk -F '\t' -v p="$patch" -v m="$msg" '$1 == p && $2 == m { print $3; exit }' "$allow")
	if [ -n "$why" ]; then
		verdict ok "checkpatch $patch: $msg (justified: $why)"
	else
		verdict FAIL "checkpatch $patch: $msg (not in $allow)"
	fi
done < <(checkpatch_findings)
[ "$n" -gt 0 ] || verdict ok "checkpatch: no findings"

# kernel-doc warnings of FILE at REV ("work" for the tree as it is)
kdoc_count() { # REV FILE
	local tmp
	tmp=$(mktemp --suffix=".${2##*.}")
	if [ "$1" = work ]; then cp "build/linux/$2" "$tmp"
	elif ! git -C build/linux show "$1:$2" > "$tmp" 2>/dev/null; then : > "$tmp"; fi
	(cd build/linux && ./scripts/kernel-doc -none "$tmp" 2>&1 || true) | grep -c 'warning' || true
	rm -f "$tmp"
}

files=$(git -C build/linux diff --name-only fgraph-base HEAD -- '*.c' '*.h')
for f in $files; do
	[ -f "build/linux/$f" ] || continue
	now=$(kdoc_count work "$f") was=$(kdoc_count fgraph-base "$f")
	if [ "$now" -le "$was" ]; then
		verdict ok "kernel-doc $f: $now warnings (6.1: $was)"
	else
		verdict FAIL "kernel-doc $f: $now warnings, 6.1 had $was"
	fi
done

for f in $(git -C build/linux diff --name-only fgraph-base HEAD -- '*.rst'); do
	if out=$(/usr/bin/python3 "$top/scripts/rst-parse.py" "build/linux/$f" 2>&1); then
		verdict ok "rst $f parses"
	else
		verdict FAIL "rst $f:"
		echo "$out" | head -5 | sed 's/^/    /'
	fi
done
# config/distro.config says what Debian builds: each line as Debian's file has it
debian=/usr/src/linux-config-6.1/config.amd64_none_amd64.xz
debian_config=$(xzcat "$debian")
while IFS= read -r line; do
	case "$line" in CONFIG_*=* | "# CONFIG_"*" is not set") ;; *) continue ;; esac
	if grep -qxF "$line" <<< "$debian_config"; then
		verdict ok "distro.config: '$line' as Debian builds it"
	else
		verdict FAIL "distro.config: '$line' is not in $(basename "$debian")"
	fi
done < config/distro.config
echo "== lint: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
