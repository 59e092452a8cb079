#!/bin/bash
# Turn the guest's benchmark lines into bench/results/: README.md (tables,
# targets, then bench/notes.md), calls.png (instructions per call against the
# number of users) and the raw lines of both kernels.
# Usage: bench-report.sh BASE.txt PATCHED.txt OUTDIR
set -eu
base=$1 patched=$2 dir=$3
top=$(realpath "$(dirname "$0")/..")
mkdir -p "$dir"
cp "$base" "$dir/base.txt"
cp "$patched" "$dir/patched.txt"

# Upstream Linux 6.12 on this machine kind, as measured for the issue that
# asked for this benchmark (instructions per call, K accepting users).
ref612="1 340
2 570
4 802
8 1266
16 2178"

# per_call FILE CASE: instructions per call, one decimal; "n/a" if not run
per_call() {
	awk -v c="$2" '$1 == c {
		if ($2 == "n/a") { print "n/a"; exit }
		for (i = 2; i < NF; i += 2) v[$i] = $(i + 1)
		printf "%.1f\n", v["ns"] / (v["calls"] ? v["calls"] : v["loops"]); exit
	}' "$1"
}

# field FILE CASE NAME: a named value of a case
field() {
	awk -v c="$2" -v n="$3" '$1 == c { for (i = 2; i < NF; i += 2) if ($i == n) print $(i + 1) }' "$1"
}

# a - b, one decimal, or n/a
minus() {
	case "$1$2" in *n/a*) echo n/a ;; *) awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f\n", a - b }' ;; esac
}

ratio() {
	case "$1$2" in *n/a*) echo n/a ;; *) awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f\n", a / b }' ;; esac
}

# Every accepting user must have seen each call enter and return once, and
# its data intact; users filtering on another function must see nothing.
sanity() {
	awk '$2 == "ns" && $4 == "calls" {
		for (i = 2; i < NF; i += 2) v[$i] = $(i + 1)
		want = 0
		if ($1 ~ /^users-[0-9]+$/) want = substr($1, 7) * v["calls"]
		if ($1 ~ /accept-1$/ || $1 ~ /^reserve-/) want = v["calls"]
		if (v["entries"] != want || v["returns"] != want || v["bad"] != 0)
			printf "%s: %s: %d entries, %d returns, %d bad; expected %d calls\n",
				FILENAME, $1, v["entries"], v["returns"], v["bad"], want
	}' "$base" "$patched"
}

micro_row() {
	c=$1 what=$2
	b=$(per_call "$base" "$c") p=$(per_call "$patched" "$c")
	echo "| $what | $b | $p | $(minus "$p" "$(per_call "$patched" loop)") | $(ratio "$p" "$b") |"
}

# target NAME VALUE LIMIT [eq]: one line saying whether VALUE <= LIMIT
# (VALUE == LIMIT with eq)
target() {
	awk -v n="$1" -v v="$2" -v l="$3" -v eq="${4:-}" 'BEGIN {
		if (v == "n/a") { printf "- %s: not measured\n", n; exit }
		if (eq && v + 0 != l + 0) printf "- %s: **missed**, %.1f against %.1f\n", n, v, l
		else if (v + 0 <= l + 0) printf "- %s: **met**, %.1f (limit %.1f)\n", n, v, l
		else printf "- %s: **missed** by %.1f (%.1f%%), %.1f against a limit of %.1f\n", n, v - l, (v - l) * 100 / l, v, l
	}'
}

versions() {
	echo "- Date: $(date -u +%Y-%m-%d)"
	echo "- Kernel: Debian linux-source-6.1 $(sed -n 's/^KVER *?= *//p' "$top/Makefile")," \
		"x86_64, config/*.config (tinyconfig + tracing options, -O2, ORC)"
	echo "- Series: $(grep -vc '^#' "$top/patches/series") patches" \
		"($(cat "$top"/patches/*.patch | sha256sum | cut -c1-12)); baseline: the same source without them"
	echo "- QEMU: $(qemu-system-x86_64 --version | head -1)," \
		"-accel tcg -icount shift=0,align=off,sleep=off -smp 1 -rtc clock=vm (fixed base);" \
		"kernel command line ftrace=nop norandmaps"
	echo "- Compiler: $(gcc --version | head -1)"
}

plot() {
	printf '%s\n' "$ref612" > "$dir/ref612.dat"
	for k in 1 2 4 8 16; do
		echo "$k $(per_call "$patched" "users-$k")"
	done > "$dir/users.dat"
	gnuplot <<EOF
set terminal png size 800,500
set output "$dir/calls.png"
set title "Instructions per hooked call (QEMU icount), K users all accepting"
set xlabel "users (K)"
set ylabel "instructions per call"
set xtics (1, 2, 4, 8, 16)
set key top left
set grid
plot "$dir/users.dat" with linespoints lw 2 title "fgraph-multi (6.1 + series)", \
     "$dir/ref612.dat" with linespoints dt 2 title "upstream 6.12 (reference)", \
     $(per_call "$base" users-1) with lines dt 3 title "unpatched 6.1, 1 user", \
     $(per_call "$patched" users-16-accept-1) with lines dt 4 title "fgraph-multi, 16 registered, 1 accepting"
EOF
	rm -f "$dir/ref612.dat" "$dir/users.dat"
}

# VALUE to three significant digits, as an integer
sig3() {
	awk -v v="$1" 'BEGIN { e = 1; while (v >= 1000 * e) e *= 10; printf "%d\n", int(v / e + 0.5) * e }'
}

# a / b to one decimal, from the unrounded values
slowdown() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f\n", a / b }'
}

macro_row() {
	c=$1 what=$2
	bo=$(per_call "$base" "$c-off") bg=$(per_call "$base" "$c-graph")
	po=$(per_call "$patched" "$c-off") pg=$(per_call "$patched" "$c-graph")
	echo "| $what | $(sig3 "$bo") | $(sig3 "$bg") | $(slowdown "$bg" "$bo")× |" \
		"$(sig3 "$po") | $(sig3 "$pg") | $(slowdown "$pg" "$po")× |"
}

report() {
	p1=$(per_call "$patched" users-1)
	p16=$(per_call "$patched" users-16)
	cat <<EOF
# Benchmark: instructions per hooked call

Made by \`make bench\` (scripts/bench.sh); every number is a guest
instruction count (QEMU \`-icount shift=0\`: one guest nanosecond per
instruction).  A re-run gives the same report; the raw lines it is made
from (base.txt, patched.txt) may differ in their last digits, by far less
than one instruction per call in the micro cases.

$(versions)

## Micro: a noinline function called $(field "$patched" loop calls) times from kernel code

Interrupts are off during the loop.  Each user's entryfunc increments an
atomic counter and returns 1, its retfunc increments another
(bench/fgraph_bench.c).  Instructions per call; the overhead is over the
untraced loop of the same kernel.

| case | unpatched 6.1 | fgraph-multi | overhead | ratio |
|---|---:|---:|---:|---:|
$(micro_row loop "0 users (untraced)")
$(micro_row function "function tracer (tracefs, filtered)")
$(micro_row users-1 "1 user")
$(micro_row users-2 "2 users")
$(micro_row users-4 "4 users")
$(micro_row users-8 "8 users")
$(micro_row users-16 "16 users")
$(micro_row users-4-accept-1 "4 registered, 1 accepting")
$(micro_row users-16-accept-1 "16 registered, 1 accepting")
$(micro_row reserve-8 "1 user, 8 bytes per call")
$(micro_row reserve-64 "1 user, 64 bytes per call")
$(micro_row reserve-256 "1 user, 256 bytes per call")
$(micro_row function_graph "function_graph tracer (tracefs, filtered)")
$(micro_row function_graph-retval "function_graph tracer, funcgraph-retval")
$(micro_row function_graph-args "function_graph tracer, funcgraph-args")
$(micro_row function_graph-retaddr "function_graph tracer, funcgraph-retaddr")
$(micro_row function_graph-all "function_graph tracer, all three")

Per added accepting user: $(awk -v a="$p1" -v b="$p16" 'BEGIN { printf "%.1f", (b - a) / 15 }')
instructions ((16 users - 1 user) / 15).

![instructions per call](calls.png)

The upstream 6.12 line is not measured here: it is the reference the benchmark's
issue gives for this machine kind and method.

## Targets

$(target "0 users equal to unpatched 6.1" "$(per_call "$patched" loop)" "$(per_call "$base" loop)" eq)
$(target "1 user at most unpatched 6.1" "$p1" "$(per_call "$base" users-1)")
$(target "function_graph tracer, filtered, at most unpatched 6.1" \
	"$(per_call "$patched" function_graph)" "$(per_call "$base" function_graph)")
$(target "function_graph tracer on every function, getppid() loop, at most unpatched 6.1" \
	"$(per_call "$patched" getppid-graph)" "$(per_call "$base" getppid-graph)")
$(target "function_graph tracer on every function, fork+exec loop, at most unpatched 6.1" \
	"$(per_call "$patched" forkexec-graph)" "$(per_call "$base" forkexec-graph)")
$(target "16 accepting users: at most 25 per added user over 1 user" \
	"$(awk -v a="$p1" -v b="$p16" 'BEGIN { printf "%.1f", (b - a) / 15 }')" 25)
$(target "16 registered, 1 accepting within 5% of 1 user" \
	"$(per_call "$patched" users-16-accept-1)" "$(awk -v a="$p1" 'BEGIN { print a * 1.05 }')")
$(target "reserving and retrieving 8 bytes per call: at most 30 more" \
	"$(minus "$(per_call "$patched" reserve-8)" "$p1")" 30)

## Macro: user space, function_graph tracer on every function

Guest instructions (user and kernel) per iteration, to three significant digits:
with every function traced, these loops vary by up to about 0.05% from one run to
the next (the micro counts above do not vary), so more digits would not repeat.

| loop | 6.1 off | 6.1 graph | 6.1 slowdown | fgraph-multi off | fgraph-multi graph | fgraph-multi slowdown |
|---|---:|---:|---:|---:|---:|---:|
$(macro_row getppid "getppid() ($(field "$patched" getppid-off loops) calls)")
$(macro_row forkexec "fork + exec /bin/true + wait ($(field "$patched" forkexec-off loops) times)")

## Memory

| | unpatched 6.1 | fgraph-multi |
|---|---:|---:|
| shadow stack bytes per task | $(field "$base" depth stack) | $(field "$patched" depth stack) |
| allocated for it (slab object) | $(field "$base" depth alloc) | $(field "$patched" depth alloc) |
| deepest nesting of hooked calls (1 user, no data) | $(field "$base" depth depth) | $(field "$patched" depth depth) |

$(cat "$top/bench/notes.md")
EOF
}

# Every case bench/guest.sh runs must have a line with a value: on the
# patched kernel every case, on unpatched 6.1 all but the multi-user ones
# ("n/a" there: 6.1 has one user and no per-call data).
missing() {
	local f c v
	for f in "$base" "$patched"; do
		for c in loop function function_graph function_graph-retval \
			 function_graph-args function_graph-retaddr function_graph-all \
			 users-1 users-2 users-4 users-8 \
			 users-16 users-4-accept-1 users-16-accept-1 reserve-8 reserve-64 \
			 reserve-256 depth getppid-off getppid-graph forkexec-off forkexec-graph; do
			v=$(awk -v c="$c" '$1 == c { print $2 == "" ? "empty" : $2; exit }' "$f")
			case "$f:$c:$v" in
			*::) echo "$f: no line for $c" ;;
			"$base":users-[2-9]*:n/a | "$base":users-1[0-9]*:n/a | "$base":reserve-*:n/a) ;;
			"$base":function_graph-*:n/a) ;;
			*:n/a | *:empty) echo "$f: $c was not measured ($v)" ;;
			esac
		done
	done
}

# The tracer cases wrote their events: one or more per call for the
# filtered ones, some for the macro loops.
events_recorded() {
	awk 'FNR == 1 { files[FILENAME] = 1 }
	$1 ~ /-events$/ {
		c = $1; sub(/-events$/, "", c); want = (c ~ /-graph$/) ? 1 : calls[c]
		if ($2 + 0 < want || want == 0)
			printf "%s: %s: %d events recorded, expected at least %d\n", FILENAME, c, $2, want
		seen[FILENAME, c] = 1; next }
	{ for (i = 2; i < NF; i += 2) if ($i == "loops" || $i == "calls") calls[$1] = $(i + 1) }
	END { n = split("function function_graph getppid-graph forkexec-graph", need, " ")
		for (f in files) for (i = 1; i <= n; i++) if (!((f, need[i]) in seen))
			printf "%s: no events count for %s\n", f, need[i] }' "$base" "$patched"
}

bad=$(missing; sanity; events_recorded)
if [ -n "$bad" ]; then
	echo "bench: results missing, or callbacks missed calls or data:" >&2
	echo "$bad" >&2
	exit 1
fi
plot
report > "$dir/README.md"
echo "bench: results in $dir/README.md"
