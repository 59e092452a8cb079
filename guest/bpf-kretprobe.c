// SPDX-License-Identifier: GPL-2.0
/*
 * A BPF program at the return of vfs_read(), attached the two ways a BPF
 * tool attaches one, with nothing but the bpf(2) and perf_event_open(2)
 * system calls:
 *
 *   kprobe   a perf kretprobe event (the kprobe PMU) and
 *            PERF_EVENT_IOC_SET_BPF, as libbpf's
 *            bpf_program__attach_kprobe() and bcc do;
 *   multi    a kprobe_multi link with BPF_F_KPROBE_MULTI_RETURN (fprobe).
 *            6.1 has kprobe_multi links only with fprobes, on x86_64,
 *            and the series adds arm64's: on i386 the link must be
 *            refused with EOPNOTSUPP.
 *
 * Either way the probe must be on the function graph shadow stack: the
 * kretprobe listed [FGRAPH] in kprobes/list, the fprobe a user of its own
 * in fgraph_users.  Only where kprobes sit on ftrace sites (x86): on arm64
 * the kretprobe keeps 6.1's trampoline, and must not be listed [FGRAPH].
 *
 * This process then reads the first 64 bytes of /proc/version three
 * times, and three times more while the function_graph tracer in an
 * instance hooks vfs_read()'s caller ksys_read(), whose return address on
 * the stack is then the tracer's trampoline.  The program, which runs only
 * for this process, counts its runs, the sum of the return values and the
 * runs whose instruction pointer lies in ksys_read(), and keeps the last
 * run's bpf_get_func_ip() and stack trace.  All six calls must have
 * returned 64 into ksys_read(), the function must be vfs_read(), the
 * tracer must have seen ksys_read(), and the stack trace must start at
 * the instruction pointer, name ksys_read() once and no return trampoline,
 * and be the same with the caller hooked as without: the unwinder must
 * have put the real return address in place of the tracer's.
 *
 *   bpf-kretprobe kprobe|multi
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <asm/ptrace.h>

#define FUNC	"vfs_read"
#define CALLER	"ksys_read"
#define CALLS	3
#define BYTES	64
#define DEPTH	16

#define KPROBES	"/sys/kernel/debug/kprobes/list"
#define USERS	"/sys/kernel/tracing/fgraph_users"
#define INST	"/sys/kernel/tracing/instances/bpf_kretprobe"

#ifdef __x86_64__
#define REG_RET	offsetof(struct pt_regs, rax)
#define REG_IP	offsetof(struct pt_regs, rip)
#define REG_SZ	BPF_DW
#elif defined(__aarch64__)
/* A BPF program's context on arm64 is a struct user_pt_regs */
#define REG_RET	offsetof(struct user_pt_regs, regs[0])
#define REG_IP	offsetof(struct user_pt_regs, pc)
#define REG_SZ	BPF_DW
#else
#define REG_RET	offsetof(struct pt_regs, eax)
#define REG_IP	offsetof(struct pt_regs, eip)
#define REG_SZ	BPF_W
#endif

/* The map's one value, as the program fills it */
struct seen {
	uint64_t runs;
	uint64_t ret_sum;
	uint64_t ip_in_caller;
	uint64_t ip;
	uint64_t func_ip;
	int64_t stack_bytes;
	uint64_t stack[DEPTH];
};

/* A jump to the program's last two instructions: "return 0" */
#define OUT	0x7fff

#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), \
			    .off = (o), .imm = (i) })
/* dst = imm64: two instructions */
#define LD_IMM64(d, s, v) \
	INSN(BPF_LD | BPF_DW | BPF_IMM, d, s, 0, (uint32_t)(v)), \
	INSN(0, 0, 0, 0, (uint32_t)((uint64_t)(v) >> 32))
#define ATOMIC_ADD(d, s, field) \
	INSN(BPF_STX | BPF_ATOMIC | BPF_DW, d, s, offsetof(struct seen, field), \
	     BPF_ADD)
#define STORE(d, s, field) \
	INSN(BPF_STX | BPF_MEM | BPF_DW, d, s, offsetof(struct seen, field), 0)

static int instance_made;

static void cleanup(void)
{
	int fd;

	if (!instance_made)
		return;
	fd = open(INST "/current_tracer", O_WRONLY);
	if (fd >= 0) {
		if (write(fd, "nop", 3) != 3)
			printf("bpf-kretprobe: cannot stop the instance's tracer\n");
		close(fd);
	}
	rmdir(INST);
	instance_made = 0;
}

static void die(const char *what)
{
	printf("bpf-kretprobe: %s: %s\n", what, strerror(errno));
	cleanup();
	exit(1);
}

static void fail(const char *what)
{
	printf("bpf-kretprobe: %s\n", what);
	cleanup();
	exit(1);
}

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

static int map_create(void)
{
	union bpf_attr a = {
		.map_type = BPF_MAP_TYPE_ARRAY,
		.key_size = 4,
		.value_size = sizeof(struct seen),
		.max_entries = 1,
	};
	int fd = sys_bpf(BPF_MAP_CREATE, &a);

	if (fd < 0)
		die("BPF_MAP_CREATE");
	return fd;
}

/*
 * if (current's tgid != tgid) return 0;
 * v = &map[0]; v->runs++; v->ret_sum += regs->ax; v->ip = regs->ip;
 * if (lo <= v->ip && v->ip < hi) v->ip_in_caller++;
 * v->func_ip = bpf_get_func_ip(regs);
 * v->stack_bytes = bpf_get_stack(regs, v->stack, sizeof(v->stack), 0);
 */
static int prog_load(int map, int tgid, uint64_t lo, uint64_t hi, int multi)
{
	struct bpf_insn insn[] = {
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 6, 1, 0, 0),
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_current_pid_tgid),
		INSN(BPF_ALU64 | BPF_RSH | BPF_K, 0, 0, 0, 32),
		INSN(BPF_JMP | BPF_JNE | BPF_K, 0, 0, OUT, tgid),
		INSN(BPF_ST | BPF_MEM | BPF_W, 10, 0, -4, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 2, 10, 0, 0),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -4),
		LD_IMM64(1, BPF_PSEUDO_MAP_FD, map),
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem),
		INSN(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, OUT, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 7, 0, 0, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 0, 1),
		ATOMIC_ADD(7, 1, runs),
		INSN(BPF_LDX | BPF_MEM | REG_SZ, 1, 6, REG_RET, 0),
		ATOMIC_ADD(7, 1, ret_sum),
		INSN(BPF_LDX | BPF_MEM | REG_SZ, 1, 6, REG_IP, 0),
		STORE(7, 1, ip),
		/* Both jumps below go to the bpf_get_func_ip() call */
		LD_IMM64(2, 0, lo),
		INSN(BPF_JMP | BPF_JLT | BPF_X, 1, 2, 5, 0),
		LD_IMM64(2, 0, hi),
		INSN(BPF_JMP | BPF_JGE | BPF_X, 1, 2, 2, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 0, 1),
		ATOMIC_ADD(7, 1, ip_in_caller),
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 1, 6, 0, 0),
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_func_ip),
		STORE(7, 0, func_ip),
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 1, 6, 0, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 2, 7, 0, 0),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0,
		     offsetof(struct seen, stack)),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 3, 0, 0, DEPTH * 8),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 4, 0, 0, 0),
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_stack),
		STORE(7, 0, stack_bytes),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	static char log[65536];
	union bpf_attr a = {
		.prog_type = BPF_PROG_TYPE_KPROBE,
		.insns = (uintptr_t)insn,
		.insn_cnt = sizeof(insn) / sizeof(insn[0]),
		.license = (uintptr_t)"GPL",
		.log_buf = (uintptr_t)log,
		.log_size = sizeof(log),
		.log_level = 1,
		.expected_attach_type = multi ? BPF_TRACE_KPROBE_MULTI : 0,
	};
	int i, n = a.insn_cnt, fd;

	for (i = 0; i < n; i++)
		if (BPF_CLASS(insn[i].code) == BPF_JMP && insn[i].off == OUT)
			insn[i].off = n - 2 - (i + 1);
	fd = sys_bpf(BPF_PROG_LOAD, &a);
	if (fd < 0) {
		printf("%s", log);
		die("BPF_PROG_LOAD");
	}
	return fd;
}

static int read_int(const char *path, const char *prefix)
{
	char buf[64];
	FILE *f = fopen(path, "r");
	int v;

	if (!f)
		die(path);
	if (!fgets(buf, sizeof(buf), f) ||
	    strncmp(buf, prefix, strlen(prefix)) ||
	    sscanf(buf + strlen(prefix), "%d", &v) != 1)
		fail(path);
	fclose(f);
	return v;
}

/* A kretprobe perf event on FUNC running the program */
static int attach_kprobe(int prog)
{
	const char *pmu = "/sys/bus/event_source/devices/kprobe";
	char path[128];
	struct perf_event_attr a = { .size = sizeof(a) };
	int fd;

	snprintf(path, sizeof(path), "%s/type", pmu);
	a.type = read_int(path, "");
	snprintf(path, sizeof(path), "%s/format/retprobe", pmu);
	a.config = 1ULL << read_int(path, "config:");
	a.config1 = (uintptr_t)FUNC;	/* kprobe_func */
	fd = syscall(__NR_perf_event_open, &a, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		die("perf_event_open(kretprobe " FUNC ")");
	if (ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog))
		die("PERF_EVENT_IOC_SET_BPF");
	if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
		die("PERF_EVENT_IOC_ENABLE");
	return fd;
}

/* A kprobe_multi link at FUNC's return running the program, or -1 */
static int attach_multi(int prog)
{
	const char *syms[] = { FUNC };
	union bpf_attr a = {
		.link_create = {
			.prog_fd = prog,
			.attach_type = BPF_TRACE_KPROBE_MULTI,
			.kprobe_multi = {
				.flags = BPF_F_KPROBE_MULTI_RETURN,
				.cnt = 1,
				.syms = (uintptr_t)syms,
			},
		},
	};
	return sys_bpf(BPF_LINK_CREATE, &a);
}

/* How many lines of @path have @a and @b in them */
static int count_lines(const char *path, const char *a, const char *b)
{
	char line[512];
	FILE *f = fopen(path, "r");
	int n = 0;

	if (!f)
		die(path);
	while (fgets(line, sizeof(line), f))
		n += strstr(line, a) && strstr(line, b);
	fclose(f);
	return n;
}

/* What the probe's attachment must add: an fprobe user, or a kretprobe */
static int on_fgraph(int multi)
{
	return multi ? count_lines(USERS, " fprobe\n", "")
		     : count_lines(KPROBES, " " FUNC "+0x0 ", "[FGRAPH]");
}

#if defined(__x86_64__) || defined(__i386__)
#define KRETPROBE_ON_STACK	1	/* kprobes on ftrace sites */
#else
#define KRETPROBE_ON_STACK	0
#endif

static void write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC);

	if (fd < 0)
		die(path);
	if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		die(path);
	close(fd);
}

/* The function_graph tracer on CALLER alone, in an instance of its own */
static void hook_caller(void)
{
	/* One left by a run that was killed */
	instance_made = access(INST, F_OK) == 0;
	cleanup();
	if (mkdir(INST, 0755))
		die("mkdir " INST);
	instance_made = 1;
	write_file(INST "/set_ftrace_filter", CALLER);
	write_file(INST "/current_tracer", "function_graph");
}

/*
 * Did the instance's tracer see CALLER?  Its buffer is stopped first: the
 * reads of the trace file would be traced, and read, without end.
 */
static void check_hooked(void)
{
	int n;

	write_file(INST "/tracing_on", "0");
	n = count_lines(INST "/trace", " " CALLER "()", "");

	printf("the instance's tracer saw %d calls of " CALLER "()\n", n);
	if (n < CALLS)
		fail("the tracer in the instance did not hook " CALLER "()");
}

static void read_version(void)
{
	char buf[BYTES];
	int fd = open("/proc/version", O_RDONLY), i;

	if (fd < 0)
		die("/proc/version");
	/* read(2), not pread(2): vfs_read() returns into ksys_read() */
	for (i = 0; i < CALLS; i++)
		if (lseek(fd, 0, SEEK_SET) ||
		    read(fd, buf, sizeof(buf)) != sizeof(buf))
			fail("short read of /proc/version");
	close(fd);
}

static void lookup(int map, struct seen *s)
{
	uint32_t key = 0;
	union bpf_attr a = {
		.map_fd = map,
		.key = (uintptr_t)&key,
		.value = (uintptr_t)s,
	};

	if (sys_bpf(BPF_MAP_LOOKUP_ELEM, &a))
		die("BPF_MAP_LOOKUP_ELEM");
}

/* A kallsyms type of code: local, global or weak */
static int is_text(char type)
{
	return strchr("tTwW", type) != NULL;
}

/*
 * The kallsyms text symbol containing @addr: its name, start and the next
 * symbol's start (@end may be NULL)
 */
static uint64_t symbolize(uint64_t addr, char *name, uint64_t *end)
{
	char line[512], sym[256], type;
	unsigned long long a, start = 0, next = ~0ULL;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		die("/proc/kallsyms");
	strcpy(name, "?");
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &a, &type, sym) != 3 ||
		    !is_text(type))
			continue;
		if (a <= addr && a > start) {
			start = a;
			strcpy(name, sym);
		} else if (a > addr && a < next) {
			next = a;
		}
	}
	fclose(f);
	if (end)
		*end = next;
	return start;
}

/* The address of the text symbol @name */
static uint64_t sym_addr(const char *name)
{
	char line[512], sym[256], type;
	unsigned long long a;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		die("/proc/kallsyms");
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &a, &type, sym) == 3 &&
		    is_text(type) && !strcmp(sym, name)) {
			fclose(f);
			return a;
		}
	fclose(f);
	fail("a function is not in /proc/kallsyms");
	return 0;
}

static int is_trampoline(const char *name)
{
	return strstr(name, "return_to_handler") ||
	       strstr(name, "rethook_trampoline") ||
	       strstr(name, "kretprobe_trampoline");
}

static void check_stack(const struct seen *s)
{
	char name[256];
	int i, callers = 0;

	if (s->stack_bytes <= 0)
		fail("bpf_get_stack() gave no stack trace");
	if (s->stack[0] != s->ip)
		fail("the stack trace does not start at the instruction pointer");
	for (i = 0; i < s->stack_bytes / 8; i++) {
		uint64_t start = symbolize(s->stack[i], name, NULL);

		printf("  %s+0x%llx\n", name,
		       (unsigned long long)(s->stack[i] - start));
		if (is_trampoline(name))
			fail("a return trampoline in the stack trace");
		callers += !strcmp(name, CALLER);
	}
	if (callers != 1)
		fail("the stack trace does not name " CALLER "() once");
	if (s->stack_bytes / 8 < 2)
		fail("the stack trace ends at " CALLER "()");
}

static void check(const struct seen *s, const struct seen *unhooked)
{
	char name[256];
	uint64_t start = symbolize(s->ip, name, NULL);

	printf("runs %llu, return values %llu in all, %llu into " CALLER "()\n",
	       (unsigned long long)s->runs, (unsigned long long)s->ret_sum,
	       (unsigned long long)s->ip_in_caller);
	printf("last instruction pointer %s+0x%llx\n", name,
	       (unsigned long long)(s->ip - start));
	if (s->runs != 2 * CALLS)
		fail("the program did not run once for each of the 6 calls");
	if (s->ret_sum != 2 * CALLS * BYTES)
		fail("the return values are not the 64 bytes each call read");
	if (s->ip_in_caller != 2 * CALLS)
		fail("an instruction pointer is not in " CALLER "()");
	if (s->func_ip != sym_addr(FUNC))
		fail("bpf_get_func_ip() is not " FUNC "()");
	printf("stack trace, " CALLER "() not hooked:\n");
	check_stack(unhooked);
	printf("stack trace, " CALLER "() hooked:\n");
	check_stack(s);
	if (s->stack_bytes != unhooked->stack_bytes ||
	    memcmp(s->stack, unhooked->stack, s->stack_bytes))
		fail("the stack trace through the hooked " CALLER "() differs");
}

int main(int argc, char **argv)
{
	struct seen s, before_reads, unhooked;
	int multi, map, prog, link, before;
	uint64_t lo, hi;
	char name[256];

	if (argc != 2 || (strcmp(argv[1], "kprobe") && strcmp(argv[1], "multi")))
		fail("usage: bpf-kretprobe kprobe|multi");
	multi = !strcmp(argv[1], "multi");
	setvbuf(stdout, NULL, _IONBF, 0);
	alarm(120);	/* a hang fails the test, not the whole run */
	lo = symbolize(sym_addr(CALLER), name, &hi);
	map = map_create();
	prog = prog_load(map, getpid(), lo, hi, multi);
#if !defined(__x86_64__) && !defined(__aarch64__)
	if (multi) {
		if (attach_multi(prog) >= 0 || errno != EOPNOTSUPP)
			fail("a kprobe_multi link without fprobes was not refused with EOPNOTSUPP");
		printf("bpf-kretprobe: multi: refused without fprobes, as in 6.1\n");
		return 0;
	}
#endif
	before = on_fgraph(multi);
	link = multi ? attach_multi(prog) : attach_kprobe(prog);
	if (link < 0)
		die("BPF_LINK_CREATE(kprobe_multi return " FUNC ")");
	if (multi && on_fgraph(multi) != before + 1)
		fail("the fprobe is not a user in fgraph_users");
	if (!multi && on_fgraph(multi) != before + KRETPROBE_ON_STACK)
		fail(KRETPROBE_ON_STACK ?
		     "the kretprobe is not listed [FGRAPH] in kprobes/list" :
		     "the kretprobe is listed [FGRAPH] without kprobes on ftrace");
	/* What ran the program so far is not counted */
	lookup(map, &before_reads);
	printf("%s: 3 reads\n", argv[1]);
	read_version();
	lookup(map, &unhooked);
	hook_caller();
	printf("%s: 3 reads with " CALLER "() hooked\n", argv[1]);
	read_version();
	close(link);
	check_hooked();
	cleanup();
	lookup(map, &s);
	s.runs -= before_reads.runs;
	s.ret_sum -= before_reads.ret_sum;
	s.ip_in_caller -= before_reads.ip_in_caller;
	check(&s, &unhooked);
	printf("bpf-kretprobe: %s: ok\n", argv[1]);
	return 0;
}
