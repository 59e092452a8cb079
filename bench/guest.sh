#!/bin/sh
# Runs in the guest (fgraph.jobs=bench): every benchmark case, one
# "@@ bench CASE RESULT" line each, "n/a" where this kernel cannot run it.
set -eu
t=/sys/kernel/tracing
run=/sys/kernel/debug/fgraph_bench/run
calls=${BENCH_CALLS:-100000}

# bench CASE MODULE-COMMAND
bench() {
	if echo "$2" > $run 2>/dev/null; then
		echo "@@ bench $1 $(cat $run)"
	else
		echo "@@ bench $1 n/a"
	fi
}

# tracer NAME FILTER: make NAME the current tracer, tracing FILTER (all if
# empty), on an empty buffer
tracer() {
	echo "$2" > $t/set_ftrace_filter
	echo "$1" > $t/current_tracer
	echo > $t/trace
}

# events CASE: "@@ bench CASE-events N", the events the tracer wrote since
# the buffer was emptied (kept or overwritten)
events() {
	echo "@@ bench $1-events $(cat $t/per_cpu/cpu*/stats |
		awk '/^entries:/ { n += $2 } /^overrun:/ { n += $2 } END { print n + 0 }')"
}

# graph_opts CASE OPTION...: the filtered function_graph case with the
# tracer's OPTIONs on ("n/a" where the kernel has not got them)
graph_opts() {
	c=$1
	shift
	for o in "$@"; do
		[ -f $t/options/$o ] || { echo "@@ bench $c n/a"; return; }
	done
	for o in "$@"; do echo 1 > $t/options/$o; done
	tracer function_graph fgraph_bench_target
	bench "$c" "loop $calls"
	events "$c"
	for o in "$@"; do echo 0 > $t/options/$o; done
}

micro() {
	bench loop "loop $calls"
	tracer function fgraph_bench_target
	bench function "loop $calls"
	events function
	tracer function_graph fgraph_bench_target
	bench function_graph "loop $calls"
	events function_graph
	graph_opts function_graph-retval funcgraph-retval
	graph_opts function_graph-args funcgraph-args
	graph_opts function_graph-retaddr funcgraph-retaddr
	graph_opts function_graph-all funcgraph-args funcgraph-retaddr funcgraph-retval
	tracer nop ""
	for k in 1 2 4 8 16; do
		bench "users-$k" "users $calls $k $k 0"
	done
	bench users-1-2-1 "cycle $calls"
	bench entry-1 "entry $calls"
	bench users-4-accept-1 "users $calls 4 1 0"
	bench users-16-accept-1 "users $calls 16 1 0"
	for b in 8 64 256; do
		bench "reserve-$b" "users $calls 1 1 $b"
	done
	bench depth depth
	bench kretprobe-1 "kretprobe $calls 1"
	bench kretprobe-16 "kretprobe $calls 16"
	bench fprobe-entry "fprobe $calls 0"
	bench fprobe-exit "fprobe $calls 1"
}

# macro CASE UBENCH-ARGS: tracing off, then function_graph on every function
macro() {
	echo "@@ bench $1-off $(/bench/ubench $2)"
	tracer function_graph ""
	echo "@@ bench $1-graph $(/bench/ubench $2)"
	events "$1-graph"
	tracer nop ""
}

# profile CASE: set CASE up and call the target until the host's debugger
# (make bench-profile) has stepped through one call and stops the guest.
profile() {
	case $1 in
	function_graph) tracer function_graph fgraph_bench_target; cmd="loop 1000000000" ;;
	users-1-2-1) cmd="cycle 1000000000" ;;
	users-*-accept-*) n=${1#users-}
		cmd="users 1000000000 ${n%-accept-*} ${1##*-accept-} 0" ;;
	users-*) cmd="users 1000000000 ${1#users-} ${1#users-} 0" ;;
	reserve-*) cmd="users 1000000000 1 1 ${1#reserve-}" ;;
	entry-1) cmd="entry 1000000000" ;;
	kretprobe-*) cmd="kretprobe 1000000000 ${1#kretprobe-}" ;;
	fprobe-entry) cmd="fprobe 1000000000 0" ;;
	fprobe-exit) cmd="fprobe 1000000000 1" ;;
	*) echo "@@ bench profile: unknown case $1"; return 1 ;;
	esac
	# The debugger stops at the target's first call: its address, as a
	# kretprobe on 6.1 never enters the function graph code
	echo "@@ bench profile ready $(awk '$3 == "fgraph_bench_target" { print $1 }' /proc/kallsyms)"
	echo "$cmd" > $run
}

insmod /bench/fgraph_bench.ko
for w in $(cat /proc/cmdline); do
	case $w in
	fgraph.profile=*) profile "${w#fgraph.profile=}"; exit ;;
	esac
done
micro
macro getppid "getppid ${BENCH_SYSCALLS:-2000}"
macro forkexec "forkexec ${BENCH_FORKS:-20}"
rmmod fgraph_bench
