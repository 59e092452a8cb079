#!/bin/bash
# Fail a guest's serial log on any kernel warning or crash (lockdep, KASAN,
# RCU stall, lockup, hung task, leak, list corruption), a failed boot-time
# tracer self test, an ftrace failure, or a missing end marker; quote the
# lines, and print each of the first three reports whole, decoded with
# scripts/decode_stacktrace.sh when OBJ holds the kernel's vmlinux.
# Usage: checklog.sh LOG [OBJ]
set -eu -o pipefail
log=$1 obj=${2:+$(realpath "$2")}
top=$(realpath "$(dirname "$0")/..")

bad='WARNING:|BUG:|Oops|general protection fault|Kernel panic|'
bad=$bad'possible recursive locking|possible circular locking|inconsistent lock state|'
bad=$bad'KASAN|UBSAN|ftrace failed|ftrace faulted|FAILED!|\[FAILED\]|'
bad=$bad'Testing .*: .*FAILED|Call Trace:|'
bad=$bad'rcu: INFO:|detected stalls|INFO: task .* blocked for more than|soft lockup|'
bad=$bad'suspected memory leaks|kmemleak: Cannot allocate|leak detector disabled|'
bad=$bad'list_(add|del) corruption|fgraph: (could not|keeping|no CPU hotplug)'
export bad

# A report runs from its "cut here" line to "---[ end trace"; from its
# "=====" line to the closing one (KASAN) or the end of its stack (lockdep,
# "</TASK>"); from its first line to either end.  150 lines at most.
reports() {
	tr -d '\r' < "$log" | awk '
		BEGIN { bad = ENVIRON["bad"] }
		{ l[NR] = $0 }
		function ends(j, s) {
			if (l[j] ~ /---\[ end trace/) return 1
			if (l[s] ~ /cut here/) return 0
			if (l[j] ~ /=====+$/) return j > s
			return l[j] ~ /<\/TASK>/ && !kasan
		}
		END {
			for (i = 1; i <= NR && shown < 3; i++) {
				if (l[i] !~ bad || l[i] ~ /^@@ / || i <= done) continue
				s = i
				for (j = i - 1; j >= i - 3 && j > done && j > 0; j--)
					if (l[j] ~ /cut here|=====+$/) s = j
				printf "---- report %d (log line %d)\n", ++shown, s
				kasan = 0
				for (j = s; j <= NR && j < s + 150; j++) {
					print l[j]
					if (l[j] ~ /KASAN/) kasan = 1
					if (ends(j, s)) break
				}
				done = j
			}
		}'
}

# decode_stacktrace.sh drops leading blanks: keep them (as \001) on the
# lines it has nothing to decode in.
decode() {
	if [ -n "$obj" ] && [ -e "$obj/vmlinux" ]; then
		# addr2line names sources as OBJ/../linux/...: strip that
		sed '/+0x/!{ :a; s/^\(\x01*\) /\1\x01/; ta; }' |
		"$top/build/linux/scripts/decode_stacktrace.sh" "$obj/vmlinux" \
			"$obj/$(realpath --relative-to="$obj" "$top/build/linux")" "$obj" 2>/dev/null |
		sed 's/\x01/ /g'
	else
		cat
	fi
}

found=$(grep -anE "$bad" "$log" | grep -v '^[0-9]*:@@ ' | head -20 || true)
status=0
if [ -n "$found" ]; then
	echo "checklog: $log shows kernel trouble:"
	echo "$found" | sed 's/^/    /'
	reports | decode | sed 's/^/    /'
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
