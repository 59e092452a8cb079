# gdb script of bench-profile.sh: attach to the guest, stop at the next
# call of the target (TARGET, its address) and step through it until it
# returns to its caller.  Prints each function's instruction count in the
# order first run; the call's own code, its module's callbacks and
# ftrace's trampoline are all outside the kernel's text and counted
# together.
import bisect
import os

import gdb

addrs, names = [], []
with open(os.environ["SYMS"]) as f:
    for line in f:
        a, n = line.split()
        addrs.append(int(a, 16))
        names.append(n)


def name_of(pc):
    i = bisect.bisect_right(addrs, pc) - 1
    # Module code and ftrace's trampolines lie outside the kernel's text.
    if i < 0 or pc >= addrs[-1]:
        return "[module or trampoline]"
    return names[i]


def run(cmd):
    return gdb.execute(cmd, to_string=True)


def reg(r):
    return int(gdb.parse_and_eval("(unsigned long)$" + r))


run("set pagination off")
run("target remote 127.0.0.1:" + os.environ["PORT"])
func = int(os.environ["TARGET"], 16)
run("hbreak *%#x" % func)
run("continue")
run("delete")
# Where the call returns to: on the stack at x86's first instruction, in
# the link register at arm64's.
if "aarch64" in gdb.selected_frame().architecture().name():
    ret = reg("x30")
else:
    ret = int(gdb.parse_and_eval("*(unsigned long *)$rsp"))

counts, order = {}, []
steps = 0
while steps < 200000:
    pc = reg("pc")
    if pc == ret:
        break
    n = name_of(pc)
    if n not in counts:
        counts[n] = 0
        order.append(n)
    counts[n] += 1
    run("stepi")
    steps += 1
if steps >= 200000:
    print("warning: stopped after %d steps, before the call returned" % steps)
for n in order:
    print("%6d %s" % (counts[n], n))
print("%6d total (from %s to its return)" % (steps, name_of(func)))
run("kill")
