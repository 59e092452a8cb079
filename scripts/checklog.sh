#!/bin/bash
# Fail a guest's serial log on any kernel warning or crash, a failed boot-time
# tracer self test, an ftrace failure, or a missing end marker; quote the lines.
# Usage: checklog.sh LOG
set -eu
log=$1

bad='WARNING:|BUG:|Oops|general protection fault|Kernel panic|'
bad=$bad'possible recursive locking|possible circular locking|inconsistent lock state|'
bad=$bad'KASAN|UBSAN|ftrace failed|ftrace faulted|FAILED!|\[FAILED\]|'
bad=$bad'Testing .*: .*FAILED|Call Trace:'
found=$(grep -anE "$bad" "$log" | grep -v '^[0-9]*:@@ ' | head -20 || true)
status=0
if [ -n "$found" ]; then
	echo "checklog: $log shows kernel trouble:"
	echo "$found" | sed 's/^/    /'
	status=1
fi
if grep -aq '^TIMEOUT after' "$log"; then
	echo "checklog: $log: the guest timed out; last lines:"
	running=$(grep -aE '^\[[0-9]+\] ' "$log" | tail -1 | grep -av '	\[[A-Z]*\]' || true)
	[ -n "$running" ] && echo "    running: $running"
	run=$(grep -a '^@@ run ' "$log" | tail -1 || true)
	[ -n "$run" ] && echo "    last test started: ${run#@@ run }"
	tail -5 "$log" | sed 's/^/    /'
	status=1
elif ! grep -aq '^@@ done' "$log"; then
	echo "checklog: $log: the guest never printed its end marker; last lines:"
	tail -15 "$log" | sed 's/^/    /'
	status=1
fi
exit $status
