// SPDX-License-Identifier: GPL-2.0
/*
 * fgraph_bench: what a hooked call costs with 0-16 function graph users.
 *
 * Write a case to /sys/kernel/debug/fgraph_bench/run, read the result back:
 *
 *   loop N              call the target N times, nothing registered by us
 *   users N K A B       K users, A of them filter on the target and the
 *                       others on another function; each user declares
 *                       B bytes of data per call (0: none), and each
 *                       accepting one writes its first and last word and
 *                       checks them on return
 *   entry N             one user on the target with an entryfunc and no
 *                       retfunc (the series only: 6.1 needs a retfunc)
 *   depth               one user on a function that recurses 200 deep:
 *                       how many of its calls were hooked at once
 *   kretprobe N K       K kretprobes on the target, each keeping a word of
 *                       entry data that its return handler checks (6.1:
 *                       rethook; the series: the shadow stack)
 *   fprobe N X          one fprobe on the target with an entry handler
 *                       only (X 0), or also an exit handler checking a
 *                       word of entry data (X 1)
 *
 * The result is "ns T calls N entries E returns R bad X" for a loop and
 * "depth D stack S alloc A" for depth (S: bytes of the task's shadow stack,
 * A: what the allocator gave for it).  The
 * loop runs with interrupts off, so under QEMU -icount shift=0 T is the
 * exact number of instructions the N calls took.
 *
 * Built against the series (FGRAPH_ARRAY_SIZE is defined) or unpatched 6.1,
 * where one user may register and register_ftrace_graph() is not exported.
 */
#include <linux/module.h>
#include <linux/ftrace.h>
#include <linux/debugfs.h>
#include <linux/fprobe.h>
#include <linux/kprobes.h>
#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#define BENCH_MAX_USERS	16
#define BENCH_RECURSE	200

struct bench_user {
	struct fgraph_ops	gops;
	bool			filtered;
	bool			registered;
};

static struct bench_user users[BENCH_MAX_USERS];
static atomic_t entries, returns, bad;
static int reserve_bytes;
static int depth_now, depth_max;
static DEFINE_MUTEX(bench_lock);
static char result[128];

noinline void fgraph_bench_target(void)
{
	barrier();
}

noinline void fgraph_bench_other(void)
{
	barrier();
}

noinline void fgraph_bench_recurse(int n)
{
	if (n > 0)
		fgraph_bench_recurse(n - 1);
	barrier();
}

#ifdef FGRAPH_ARRAY_SIZE
/* With the series: per-user filters and per-call data. */
#define BENCH_ENT_ARGS	struct ftrace_graph_ent *trace, struct fgraph_ops *gops
#define BENCH_RET_ARGS	struct ftrace_graph_ret *trace, struct fgraph_ops *gops
#define BENCH_PASS	trace, gops
#define BENCH_USERS	BENCH_MAX_USERS
#define BENCH_RESERVE	FGRAPH_MAX_DATA_SIZE

static int bench_filter(struct bench_user *u, const char *func)
{
	return ftrace_set_filter(&u->gops.ops, (unsigned char *)func,
				 strlen(func), 1);
}

static void bench_free_filter(struct bench_user *u)
{
	ftrace_free_filter(&u->gops.ops);
}

static int bench_register(struct fgraph_ops *gops)
{
	/* Declared: the core reserves it and hands it to the callbacks */
	gops->data_size = reserve_bytes;
	return register_ftrace_graph(gops);
}

static void bench_unregister(struct fgraph_ops *gops)
{
	unregister_ftrace_graph(gops);
}

static notrace void bench_store(BENCH_ENT_ARGS)
{
	unsigned long *data = fgraph_entry_data(trace);
	int words = reserve_bytes / sizeof(long);

	if (!data) {
		atomic_inc(&bad);
		return;
	}
	/* The first and the last word: one and the same for 8 bytes. */
	data[words - 1] = trace->func + words;
	data[0] = trace->func;
}

static notrace void bench_check(BENCH_RET_ARGS)
{
	unsigned long *data = fgraph_return_data(trace);
	int words = reserve_bytes / sizeof(long);

	if (!data || data[0] != trace->func ||
	    (words > 1 && data[words - 1] != trace->func + words))
		atomic_inc(&bad);
}

static size_t bench_stack_size(void)
{
	return FGRAPH_STACK_SIZE;
}

#else /* unpatched 6.1 */
#define BENCH_ENT_ARGS	struct ftrace_graph_ent *trace
#define BENCH_RET_ARGS	struct ftrace_graph_ret *trace
#define BENCH_PASS	trace
#define BENCH_USERS	1
#define BENCH_RESERVE	0	/* no per-call data in 6.1 */

static int (*bench_register_fn)(struct fgraph_ops *gops);
static void (*bench_unregister_fn)(struct fgraph_ops *gops);

/*
 * The only user follows the global filter (set_ftrace_filter), which says
 * nothing if @func matches nothing: the entry counts would show it.
 */
static int bench_filter(struct bench_user *u, const char *func)
{
	ftrace_set_global_filter((unsigned char *)func, strlen(func), 1);
	return 0;
}

static void bench_free_filter(struct bench_user *u)
{
	ftrace_set_global_filter(NULL, 0, 1);
}

/* 6.1 does not export the fgraph API: find it through kallsyms. */
static unsigned long bench_lookup(const char *name)
{
	static unsigned long (*lookup)(const char *name);
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };

	if (!lookup) {
		if (register_kprobe(&kp))
			return 0;
		lookup = (void *)kp.addr;
		unregister_kprobe(&kp);
	}
	return lookup(name);
}

static int bench_register(struct fgraph_ops *gops)
{
	if (!bench_register_fn) {
		bench_register_fn = (void *)bench_lookup("register_ftrace_graph");
		bench_unregister_fn = (void *)bench_lookup("unregister_ftrace_graph");
		if (!bench_register_fn || !bench_unregister_fn)
			return -ENOENT;
	}
	return bench_register_fn(gops);
}

static void bench_unregister(struct fgraph_ops *gops)
{
	bench_unregister_fn(gops);
}

static notrace void bench_store(BENCH_ENT_ARGS)
{
	atomic_inc(&bad);
}

static notrace void bench_check(BENCH_RET_ARGS)
{
	atomic_inc(&bad);
}

static size_t bench_stack_size(void)
{
	return FTRACE_RETFUNC_DEPTH * sizeof(struct ftrace_ret_stack);
}
#endif

static notrace int bench_entry(BENCH_ENT_ARGS)
{
	atomic_inc(&entries);
	if (reserve_bytes)
		bench_store(BENCH_PASS);
	return 1;
}

static notrace void bench_return(BENCH_RET_ARGS)
{
	atomic_inc(&returns);
	if (reserve_bytes)
		bench_check(BENCH_PASS);
}

static notrace int depth_entry(BENCH_ENT_ARGS)
{
	if (++depth_now > depth_max)
		depth_max = depth_now;
	return 1;
}

static notrace void depth_return(BENCH_RET_ARGS)
{
	depth_now--;
}

static void bench_del_users(void)
{
	int i;

	for (i = 0; i < BENCH_USERS; i++) {
		if (users[i].registered)
			bench_unregister(&users[i].gops);
		if (users[i].filtered)
			bench_free_filter(&users[i]);
		users[i].registered = false;
		users[i].filtered = false;
	}
}

/* Register users[first] to users[first + nr - 1] on @func. */
static int bench_add_users(int first, int nr, const char *func,
			   trace_func_graph_ent_t entry,
			   trace_func_graph_ret_t ret)
{
	int i, err;

	if (first + nr > BENCH_USERS)
		return -ENOSPC;
	for (i = first; i < first + nr; i++) {
		struct bench_user *u = &users[i];

		memset(u, 0, sizeof(*u));
		u->gops.entryfunc = entry;
		u->gops.retfunc = ret;
		err = bench_filter(u, func);
		if (err)
			return err;
		u->filtered = true;
		err = bench_register(&u->gops);
		if (err)
			return err;
		u->registered = true;
	}
	return 0;
}

static void bench_loop(unsigned long calls)
{
	unsigned long flags, i;
	ktime_t t0, t1;

	atomic_set(&entries, 0);
	atomic_set(&returns, 0);
	atomic_set(&bad, 0);
	local_irq_save(flags);
	t0 = ktime_get();
	for (i = 0; i < calls; i++)
		fgraph_bench_target();
	t1 = ktime_get();
	local_irq_restore(flags);
	snprintf(result, sizeof(result),
		 "ns %lld calls %lu entries %d returns %d bad %d\n",
		 ktime_to_ns(ktime_sub(t1, t0)), calls, atomic_read(&entries),
		 atomic_read(&returns), atomic_read(&bad));
}

static int bench_users(unsigned long calls, int nr, int accept, int bytes)
{
	int err;

	if (nr < 1 || nr > BENCH_USERS || accept < 0 || accept > nr ||
	    bytes < 0 || bytes > BENCH_RESERVE || bytes % sizeof(long))
		return -EINVAL;
	reserve_bytes = bytes;
	err = bench_add_users(0, accept, "fgraph_bench_target",
			      bench_entry, bench_return) ?:
	      bench_add_users(accept, nr - accept, "fgraph_bench_other",
			      bench_entry, bench_return);
	if (!err)
		bench_loop(calls);
	bench_del_users();
	return err;
}

/*
 * One user after a second one came and went: the cost of 1 user again,
 * if the core finds its way back to its one-user path.
 */
static int bench_cycle(unsigned long calls)
{
	int err;

	if (BENCH_USERS == 1)
		return -EOPNOTSUPP;
	reserve_bytes = 0;
	err = bench_add_users(0, 1, "fgraph_bench_target", bench_entry, bench_return) ?:
	      bench_add_users(1, 1, "fgraph_bench_other", bench_entry, bench_return);
	if (!err) {
		bench_unregister(&users[1].gops);
		users[1].registered = false;
		bench_loop(calls);
	}
	bench_del_users();
	return err;
}

static int bench_entry_only(unsigned long calls)
{
	int err;

	/* 6.1's register_ftrace_graph() would install a NULL retfunc */
	if (BENCH_USERS == 1)
		return -EOPNOTSUPP;
	reserve_bytes = 0;
	err = bench_add_users(0, 1, "fgraph_bench_target", bench_entry, NULL);
	if (!err)
		bench_loop(calls);
	bench_del_users();
	return err;
}

static int bench_depth(void)
{
	int err;

	depth_now = 0;
	depth_max = 0;
	/* Frames alone: no declared data left by a reserve case */
	reserve_bytes = 0;
	err = bench_add_users(0, 1, "fgraph_bench_recurse", depth_entry, depth_return);
	if (!err) {
		fgraph_bench_recurse(BENCH_RECURSE);
		snprintf(result, sizeof(result), "depth %d stack %zu alloc %zu\n",
			 depth_max, bench_stack_size(), ksize(current->ret_stack));
	}
	bench_del_users();
	return err;
}

/* Kretprobes and fprobes on the target: each call enters and returns */
#define BENCH_PROBES	16
#define BENCH_MAGIC	0x5eed

static struct kretprobe bench_krps[BENCH_PROBES];
static struct fprobe bench_fp;

static int bench_kret_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	*(unsigned long *)ri->data = BENCH_MAGIC;
	atomic_inc(&entries);
	return 0;
}

static int bench_kret_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	if (*(unsigned long *)ri->data != BENCH_MAGIC)
		atomic_inc(&bad);
	atomic_inc(&returns);
	return 0;
}

static int bench_kretprobes(unsigned long calls, int nr)
{
	struct kretprobe *rps[BENCH_PROBES];
	int i, err;

	if (nr < 1 || nr > BENCH_PROBES)
		return -EINVAL;
	for (i = 0; i < nr; i++) {
		memset(&bench_krps[i], 0, sizeof(bench_krps[i]));
		bench_krps[i].kp.addr = (kprobe_opcode_t *)fgraph_bench_target;
		bench_krps[i].entry_handler = bench_kret_entry;
		bench_krps[i].handler = bench_kret_return;
		bench_krps[i].data_size = sizeof(unsigned long);
		rps[i] = &bench_krps[i];
	}
	err = register_kretprobes(rps, nr);
	if (err)
		return err;
	bench_loop(calls);
	unregister_kretprobes(rps, nr);
	return 0;
}

static void bench_fp_entry(struct fprobe *fp, unsigned long ip,
			   struct pt_regs *regs, void *data)
{
	if (data)
		*(unsigned long *)data = BENCH_MAGIC;
	atomic_inc(&entries);
}

static void bench_fp_exit(struct fprobe *fp, unsigned long ip,
			  struct pt_regs *regs, void *data)
{
	if (*(unsigned long *)data != BENCH_MAGIC)
		atomic_inc(&bad);
	atomic_inc(&returns);
}

static int bench_fprobe(unsigned long calls, int exit)
{
	int err;

	memset(&bench_fp, 0, sizeof(bench_fp));
	bench_fp.entry_handler = bench_fp_entry;
	if (exit) {
		bench_fp.exit_handler = bench_fp_exit;
		bench_fp.entry_data_size = sizeof(unsigned long);
	}
	err = register_fprobe(&bench_fp, "fgraph_bench_target", NULL);
	if (err)
		return err;
	bench_loop(calls);
	unregister_fprobe(&bench_fp);
	return 0;
}

static int bench_run(char *cmd)
{
	unsigned long calls;
	int nr, accept, bytes;

	if (!strcmp(cmd, "depth"))
		return bench_depth();
	if (sscanf(cmd, "loop %lu", &calls) == 1) {
		bench_loop(calls);
		return 0;
	}
	if (sscanf(cmd, "cycle %lu", &calls) == 1)
		return bench_cycle(calls);
	if (sscanf(cmd, "entry %lu", &calls) == 1)
		return bench_entry_only(calls);
	if (sscanf(cmd, "kretprobe %lu %d", &calls, &nr) == 2)
		return bench_kretprobes(calls, nr);
	if (sscanf(cmd, "fprobe %lu %d", &calls, &nr) == 2)
		return bench_fprobe(calls, nr);
	if (sscanf(cmd, "users %lu %d %d %d", &calls, &nr, &accept, &bytes) == 4)
		return bench_users(calls, nr, accept, bytes);
	return -EINVAL;
}

static ssize_t bench_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	char buf[64];
	int err;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = 0;
	strim(buf);

	mutex_lock(&bench_lock);
	result[0] = 0;
	err = bench_run(buf);
	mutex_unlock(&bench_lock);
	return err ?: count;
}

static ssize_t bench_read(struct file *file, char __user *ubuf,
			  size_t count, loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&bench_lock);
	ret = simple_read_from_buffer(ubuf, count, ppos, result, strlen(result));
	mutex_unlock(&bench_lock);
	return ret;
}

static const struct file_operations bench_fops = {
	.write	= bench_write,
	.read	= bench_read,
	.llseek	= default_llseek,
};

static struct dentry *bench_dir;

static int __init fgraph_bench_init(void)
{
	bench_dir = debugfs_create_dir("fgraph_bench", NULL);
	debugfs_create_file("run", 0600, bench_dir, NULL, &bench_fops);
	return 0;
}

static void __exit fgraph_bench_exit(void)
{
	debugfs_remove_recursive(bench_dir);
}

module_init(fgraph_bench_init);
module_exit(fgraph_bench_exit);
MODULE_DESCRIPTION("Cost of a call hooked by function graph users");
MODULE_LICENSE("GPL");
