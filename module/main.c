// SPDX-License-Identifier: GPL-2.0
/*
 * Layer 6 (module): retryscope, counting page-fault retries and mmap_lock
 * fallbacks by cause.  Parameters, load and unload; docs/module.md,
 * "Module layout", says which file holds what.
 *
 * Parameters (all optional):
 *   tgid=N          count only thread group N
 *   comm=PREFIX     count only tasks whose comm starts with PREFIX
 *   backend=NAME    auto (default): the entry model (entry_model.c):
 *                   entry hooks on ftrace_ops, return probes on
 *                   filemap_fault and do_swap_page alone (fprobes where
 *                   the kernel has ftrace_regs ones, as 7.3 does), each
 *                   falling back to kprobes; ftrace: the same with the
 *                   entry hooks on ftrace_ops only;
 *                   fprobe or kprobe: the return model, every return
 *                   value read, on that mechanism alone (fprobe and
 *                   ftrace fail to load where they are not available)
 *   skip=SYM[,SYM]  leave these probes off to cut the cost per fault
 *                   (lock_vma_under_rcu, filemap_fault, do_swap_page,
 *                   shmem_fault, lock_mm_and_find_vma); their counters
 *                   then stay 0.  mmap_lock: both mmap_lock tracepoints
 *                   (the *mmap_lock*_wait_ns and acquire counters)
 *   fault_around=1  also probe filemap_map_pages(): a retried file fault
 *                   usually finishes in the fault-around, without a
 *                   ->fault call; without the probe its latency is not
 *                   timed (latency.c).  Off by default: the probe costs
 *                   about 1% of the file minor-fault rate (make bench)
 *   maxactive=N     kretprobe instances per probe (default 64 per CPU,
 *                   at most 65536): filemap_fault and do_swap_page sleep
 *                   on I/O, so every sleeping thread holds one; misses
 *                   show as nmissed.  A process with thousands of threads
 *                   in I/O at once needs as many.
 *                   fprobes keep their state on the task's function-graph
 *                   stack and have no such limit
 *   light=1         no probe on the common fault path: the entry model
 *                   without its handle_mm_fault() hook (and without
 *                   __vma_start_write()), for kernels where that hook is
 *                   a kprobe (GKI: no function tracer).  Retries and
 *                   fallbacks after file and swap I/O, drop sites and
 *                   lock waits are counted; attempts, successes and
 *                   aborts are not, and their counters are not shown
 *                   (docs/counters.md, "Light mode").  backend=auto or
 *                   ftrace; not with fault_around=1
 *   totals_ms=N     every N ms (default 1000; 0: never; 10 to 60000) a
 *                   retryscope_counter trace event per counter that
 *                   changed, while that event is on (totals.c)
 *
 * The counters are in /sys/kernel/retryscope/ (sysfs.c) and, where debugfs
 * is available, /sys/kernel/debug/retryscope/ (debugfs.c); without debugfs
 * the module loads with sysfs alone.
 *
 * See docs/counters.md for what every counter means.
 */
#include <linux/cpumask.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "count.h"
#include "debugfs.h"
#include "features.h"
#include "filter.h"
#include "latency.h"
#include "probes.h"
#include "stats.h"
#include "sysfs.h"
#include "task_state.h"
#include "totals.h"
#include "tracepoints.h"

#define CREATE_TRACE_POINTS
#include "trace.h"

#define RS_MAXACTIVE_LIMIT 65536

static int tgid;
module_param(tgid, int, 0444);
MODULE_PARM_DESC(tgid, "count only this thread group (0: all)");

static char *comm;
module_param(comm, charp, 0444);
MODULE_PARM_DESC(comm, "count only tasks whose comm starts with this prefix");

static int maxactive;
module_param(maxactive, int, 0444);
MODULE_PARM_DESC(maxactive, "kretprobe instances per probe (0: 64 per CPU)");

static char *backend;
module_param(backend, charp, 0444);
MODULE_PARM_DESC(backend, "auto (default), ftrace, fprobe or kprobe");

static char *skip;
module_param(skip, charp, 0444);
MODULE_PARM_DESC(skip, "probes to leave off, comma-separated symbols; mmap_lock: the lock-wait tracepoints");

static bool fault_around;
module_param(fault_around, bool, 0444);
MODULE_PARM_DESC(fault_around, "also probe filemap_map_pages, to time the retried file faults that finish in the fault-around (most do); costs about 1% of the file minor-fault rate");

static bool light;
module_param(light, bool, 0444);
MODULE_PARM_DESC(light, "no probe on the common fault path: retries and fallbacks after I/O only (docs/counters.md)");

static unsigned int totals_ms = 1000;
module_param(totals_ms, uint, 0444);
MODULE_PARM_DESC(totals_ms, "retryscope_counter events every N ms (0: none)");

static enum rs_backend_choice rs_backend;
static bool rs_have_debugfs;

static const char *const rs_backend_names[] = {
	[RS_BACKEND_AUTO] = "auto",
	[RS_BACKEND_KPROBE] = "kprobe",
	[RS_BACKEND_FPROBE] = "fprobe",
	[RS_BACKEND_FTRACE] = "ftrace",
};

static int __init rs_parse_backend(void)
{
	int i;

	if (!backend)
		return 0;
	i = match_string(rs_backend_names, ARRAY_SIZE(rs_backend_names),
			 backend);
	if (i < 0) {
		pr_err("retryscope: backend=\"%s\": must be auto, ftrace, fprobe or kprobe\n",
		       backend);
		return -EINVAL;
	}
	rs_backend = i;
	if (rs_backend == RS_BACKEND_FPROBE && !rs_fprobe_available()) {
		pr_err("retryscope: backend=fprobe: this kernel has no ftrace_regs fprobe (CONFIG_FPROBE on the function-graph tracer)\n");
		return -EINVAL;
	}
	if (rs_backend == RS_BACKEND_FTRACE && !rs_ftrace_available()) {
		pr_err("retryscope: backend=ftrace: this kernel's ftrace callbacks cannot read arguments (no DYNAMIC_FTRACE_WITH_ARGS)\n");
		return -EINVAL;
	}
	return 0;
}

static int __init rs_check_params(void)
{
	int err;

	if (tgid < 0) {
		pr_err("retryscope: tgid=%d: must be >= 0\n", tgid);
		return -EINVAL;
	}
	if (comm && (!comm[0] || strlen(comm) >= TASK_COMM_LEN)) {
		pr_err("retryscope: comm=\"%s\": must be 1 to %d characters\n",
		       comm, TASK_COMM_LEN - 1);
		return -EINVAL;
	}
	if (tgid && comm) {
		pr_err("retryscope: give tgid= or comm=, not both\n");
		return -EINVAL;
	}
	if (maxactive < 0 || maxactive > RS_MAXACTIVE_LIMIT) {
		pr_err("retryscope: maxactive=%d: must be 1 to %d (0: default)\n",
		       maxactive, RS_MAXACTIVE_LIMIT);
		return -EINVAL;
	}
	if (totals_ms && (totals_ms < 10 || totals_ms > 60000)) {
		pr_err("retryscope: totals_ms=%u: 0 (none) or 10 to 60000\n", totals_ms);
		return -EINVAL;
	}
	err = rs_probes_check_skip(skip);
	if (!err)
		err = rs_parse_backend();
	if (err)
		return err;
	if (light && (rs_backend == RS_BACKEND_KPROBE ||
		      rs_backend == RS_BACKEND_FPROBE)) {
		pr_err("retryscope: light=1 is the entry model's: backend=auto or ftrace, not %s\n",
		       rs_backend_names[rs_backend]);
		return -EINVAL;
	}
	if (light && fault_around) {
		pr_err("retryscope: light=1 leaves filemap_map_pages() off: not with fault_around=1\n");
		return -EINVAL;
	}
	return 0;
}

/* sysfs, debugfs where it was created, then the histograms they read */
static void rs_interfaces_exit(void)
{
	if (rs_have_debugfs)
		rs_debugfs_exit();
	rs_sysfs_exit();
	rs_lat_exit();
}

static int __init rs_init(void)
{
	unsigned int probes, wanted, tps;
	int err;

	err = rs_check_params();
	if (err)
		return err;
	if (tgid)
		rs_filter_set_tgid(tgid);
	else if (comm)
		rs_filter_set_comm(comm);
	if (!maxactive)
		maxactive = min(64 * num_possible_cpus(), RS_MAXACTIVE_LIMIT);

	/* before sysfs and debugfs, which show what light=1 counts */
	rs_stats_set_light(light);
	err = rs_lat_init();
	if (err)
		return err;
	err = rs_sysfs_init();
	if (err) {
		pr_err("retryscope: cannot create /sys/kernel/retryscope (%d)\n", err);
		rs_lat_exit();
		return err;
	}
	/* Android's user builds do not mount debugfs: sysfs is enough */
	err = rs_debugfs_init();
	rs_have_debugfs = !err;
	if (err)
		pr_info("retryscope: no debugfs (%d): /sys/kernel/retryscope only\n",
			err);
	/*
	 * The tracepoints first: sched_process_free releases the slot a
	 * probe claims, so a task freed while the probes attach must find
	 * it on; a task_struct reused after that would inherit the state.
	 */
	tps = rs_tracepoints_attach(skip);
	err = rs_probes_attach(rs_backend, skip, fault_around, light,
			       maxactive, &probes, &wanted);
	if (err) {
		pr_err("retryscope: no probe could be attached (%d): not loading\n",
		       err);
		rs_tracepoints_detach();
		rs_interfaces_exit();
		return err;
	}
	err = rs_totals_start(totals_ms);
	if (err) {
		rs_probes_detach();
		rs_tracepoints_detach();
		rs_interfaces_exit();
		return err;
	}

	pr_info("retryscope: per-VMA lock %s, VM_FAULT_RETRY_VMA %s, PER_VMA_LOCK_STATS %s; %u/%u probes, %u/2 mmap_lock tracepoints attached, backend %s (%s, %s model), maxactive %d\n",
		RS_HAVE_PER_VMA_LOCK ? "yes" : "no",
		RS_VM_FAULT_RETRY_VMA_BITS ? "yes" : "no",
		IS_ENABLED(CONFIG_PER_VMA_LOCK_STATS) ? "yes" : "no",
		probes, wanted, tps, rs_backend_names[rs_backend],
		rs_probes_backend(), rs_model_name(), maxactive);
	if (!RS_HAVE_PER_VMA_LOCK)
		pr_info("retryscope: no per-VMA lock in this kernel: every fault takes mmap_lock; counting that path alone\n");
	return 0;
}

/*
 * The reverse of the load.  No handler runs once the detaching returns:
 * unregister_kretprobe() and unregister_ftrace_function() wait for the
 * handlers in flight, unregister_fprobe() of 7.3 waits an RCU grace
 * period for the exit handlers that passed its registered check (they
 * run under rcu_read_lock_sched), and tracepoint_synchronize_unregister()
 * for the tracepoint probes.  Only then are the histograms freed.
 */
static void __exit rs_exit(void)
{
	rs_totals_stop();
	rs_probes_detach();
	rs_tracepoints_detach();
	rs_interfaces_exit();
}

module_init(rs_init);
module_exit(rs_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Count page-fault retries and mmap_lock fallbacks by cause");
MODULE_AUTHOR("retryscope developers");
