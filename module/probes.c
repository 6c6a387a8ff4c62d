// SPDX-License-Identifier: GPL-2.0
/*
 * Layer 4 (probes): the probe table, one hook per symbol of the fault
 * path, and the backends that attach it.
 *
 *   symbol                entry model (auto, ftrace)   return model (fprobe, kprobe)   light=1
 *   lock_vma_under_rcu    -                            return probe                    -
 *   handle_mm_fault       entry hook                   return probe                    -
 *   filemap_fault         return probe                 return probe                    return probe
 *   do_swap_page          return probe                 return probe                    return probe
 *   shmem_fault           return probe                 -                               return probe
 *   lock_mm_and_find_vma  return probe                 return probe                    return probe
 *   filemap_map_pages     return probe                 return probe                    -
 *   __vma_start_write     return probe                 return probe                    -
 *
 * light=1 is the entry model without the probes that run on every fault
 * (or in every fork()): what it still counts is in docs/counters.md.
 *
 * An entry hook is an ftrace_ops callback (a kprobe where ftrace cannot
 * take the symbol); a return probe is an fprobe (a kretprobe where fprobe
 * cannot).  lock_mm_and_find_vma() runs only on the mmap_lock fallback:
 * its return probe, which tells whether the arch handler went on to
 * handle_mm_fault() or gave up (no VMA, a fatal signal), costs nothing
 * on the common path.  __vma_start_write() is the VMA write lock of
 * fork() (once per VMA of the parent and of the child), mprotect(),
 * munmap() and, on the fault path, only a stack expansion's (the wait
 * model in lockwait.c; skip=__vma_start_write leaves it off, a cost inside
 * every fork() of a large process).  Every wrapper below reads the arguments
 * from its mechanism's registers and calls the model's handler, written
 * once on plain arguments (entry_model.c, return_model.c, io_fault.c);
 * a direct call, no indirect call on the fault path.
 *
 * The arch handlers themselves (x86 do_user_addr_fault is NOKPROBE, arm64
 * do_page_fault is __kprobes) are never probed.  Handlers run with
 * preemption disabled; they take no lock, allocate nothing, print nothing.
 */
#include <linux/fprobe.h>
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/ptrace.h>
#include <linux/seq_file.h>
#include <linux/string.h>

#include "count.h"
#include "entry_model.h"
#include "features.h"
#include "filter.h"
#include "io_fault.h"
#include "lockwait.h"
#include "probes.h"
#include "return_model.h"
#include "task_state.h"

enum rs_probe_id {
	RS_P_LOCK_VMA,
	RS_P_HANDLE_MM_FAULT,
	RS_P_FILEMAP_FAULT,
	RS_P_DO_SWAP_PAGE,
	RS_P_SHMEM_FAULT,
	RS_P_LOCK_MM,
	RS_P_MAP_PAGES,
	RS_P_VMA_WRITE,
	RS_NR_PROBES
};

/*
 * Not static: on s390x a module's static per-CPU variable is addressed
 * PC-relative (larl), and on the 7.3 s390x boot (boot-arches --module) that
 * address came out 4 GiB below the module's per-CPU copy, so the first
 * per_cpu() read of one oopsed (docs/arches.md).  An external symbol goes
 * through the GOT, as rs_stats does, which that boot read right.
 */
DECLARE_PER_CPU(u64 [RS_NR_PROBES], rs_probe_hits);
DEFINE_PER_CPU(u64 [RS_NR_PROBES], rs_probe_hits);
/* ftrace_ops hooks skipped on recursion (kprobes and fprobes count their own) */
DECLARE_PER_CPU(u64 [RS_NR_PROBES], rs_probe_missed);
DEFINE_PER_CPU(u64 [RS_NR_PROBES], rs_probe_missed);

static __always_inline void rs_hit(enum rs_probe_id id)
{
	this_cpu_inc(rs_probe_hits[id]);
}

/* rs_hit() from a hook that only runs in task context (see rs_inc_task()) */
static __always_inline void rs_hit_task(enum rs_probe_id id)
{
	__this_cpu_inc(rs_probe_hits[id]);
}

/* --- the entry model's entry hooks ---------------------------------------- */

static __always_inline void rs_emh_handle_mm_fault(unsigned long vma,
						   unsigned long address,
						   unsigned long flags)
{
	if (!rs_filter_match())
		return;
	rs_hit_task(RS_P_HANDLE_MM_FAULT);
	rs_em_handle_mm_fault(address, flags);
}

/*
 * Argument @n (0 to 2) of a probed function at its entry.  32-bit arm has
 * no regs_get_kernel_argument(); its procedure call standard passes the
 * first four word-sized arguments in r0-r3, and every argument read here
 * is word-sized (a pointer, an address, flags, a sequence count).
 */
static __always_inline unsigned long rs_kprobe_arg(struct pt_regs *regs,
						   unsigned int n)
{
#ifdef CONFIG_ARM
	return regs->uregs[n];
#else
	return regs_get_kernel_argument(regs, n);
#endif
}

/*
 * An entry hook as a kprobe (where ftrace cannot take the symbol): defines
 * @hook##_kp...
 */
#define RS_KPROBE_ENTRY_HOOK(hook)					\
static int hook##_kp(struct kprobe *p, struct pt_regs *regs)		\
{									\
	hook(rs_kprobe_arg(regs, 0),					\
	     rs_kprobe_arg(regs, 1),					\
	     rs_kprobe_arg(regs, 2));					\
	return 0;							\
}

RS_KPROBE_ENTRY_HOOK(rs_emh_handle_mm_fault)

#ifdef RS_HAVE_FTRACE_ARGS
/*
 * ...and as an ftrace_ops callback, @hook##_ft: the cheapest hook there is, called
 * straight from the function's ftrace trampoline.  The ops do not set
 * FTRACE_OPS_FL_RECURSION (that flag asks ftrace to wrap the callback in
 * its own recursion guard, ftrace_ops_assist_func()): the callback takes
 * the guard itself, and the guard disables preemption.
 */
#define RS_FTRACE_ENTRY_HOOK(hook, id)					\
static void notrace hook##_ft(unsigned long ip, unsigned long parent_ip,\
			      struct ftrace_ops *op,			\
			      struct ftrace_regs *fregs)		\
{									\
	int bit = ftrace_test_recursion_trylock(ip, parent_ip);		\
									\
	if (bit < 0) {							\
		this_cpu_inc(rs_probe_missed[id]);			\
		return;							\
	}								\
	hook(ftrace_regs_get_argument(fregs, 0),			\
	     ftrace_regs_get_argument(fregs, 1),			\
	     ftrace_regs_get_argument(fregs, 2));			\
	ftrace_test_recursion_unlock(bit);				\
}

RS_FTRACE_ENTRY_HOOK(rs_emh_handle_mm_fault, RS_P_HANDLE_MM_FAULT)
#endif

/* --- return probes: kretprobe, fprobe ------------------------------------ */

/*
 * lock_mm_and_find_vma(), in both models: the fallback is counted on entry,
 * and its return ends the part of it in which mmap_lock acquisitions are
 * the fault path's (lockwait.c).
 */
static int rs_lock_mm_enter(void *data, unsigned long mm,
			    unsigned long address, unsigned long regs)
{
	if (!rs_filter_match())
		return 1;
	if (rs_entry_model)
		rs_em_lock_mm(address, (struct pt_regs *)regs);
	else
		rs_rm_lock_mm(address);
	return 0;
}

static void rs_lock_mm_exit(void *data, unsigned long vma)
{
	rs_state_lock_mm_returned(vma != 0);
}

/*
 * A kretprobe's handlers @name##_krp_entry and @name##_krp_ret, calling
 * @enter (it returned 0: one hit of @id; __vma_start_write()'s returns 0
 * only for a call that waits) and @exit with the instance's data.
 */
#define RS_KRETPROBE(name, id, enter, exit)				\
static int name##_krp_entry(struct kretprobe_instance *ri,		\
			    struct pt_regs *regs)			\
{									\
	if (enter(ri->data, rs_kprobe_arg(regs, 0),			\
		  rs_kprobe_arg(regs, 1),				\
		  rs_kprobe_arg(regs, 2)))				\
		return 1;						\
	rs_hit(id);							\
	return 0;							\
}									\
static int name##_krp_ret(struct kretprobe_instance *ri,		\
			  struct pt_regs *regs)				\
{									\
	exit(ri->data, regs_return_value(regs));			\
	return 0;							\
}

RS_KRETPROBE(rs_lock_vma, RS_P_LOCK_VMA, rs_rm_lock_vma_enter,
	     rs_rm_lock_vma_exit)
RS_KRETPROBE(rs_hmf, RS_P_HANDLE_MM_FAULT, rs_rm_hmf_enter, rs_rm_hmf_exit)
RS_KRETPROBE(rs_filemap, RS_P_FILEMAP_FAULT, rs_filemap_fault_enter,
	     rs_filemap_fault_exit)
RS_KRETPROBE(rs_swap, RS_P_DO_SWAP_PAGE, rs_do_swap_page_enter,
	     rs_do_swap_page_exit)
RS_KRETPROBE(rs_shmem, RS_P_SHMEM_FAULT, rs_shmem_fault_enter,
	     rs_shmem_fault_exit)
RS_KRETPROBE(rs_lock_mm, RS_P_LOCK_MM, rs_lock_mm_enter, rs_lock_mm_exit)
RS_KRETPROBE(rs_map_pages, RS_P_MAP_PAGES, rs_map_pages_enter,
	     rs_map_pages_exit)
RS_KRETPROBE(rs_vma_write, RS_P_VMA_WRITE, rs_vma_write_enter,
	     rs_vma_write_exit)

#ifdef RS_HAVE_FPROBE_FREGS
/* An fprobe entry handler @name##_fp_entry calling @enter; one hit of @id. */
#define RS_FPROBE_ENTRY(name, id, enter)				\
static int name##_fp_entry(struct fprobe *fp, unsigned long ip,	\
			   unsigned long ret_ip,			\
			   struct ftrace_regs *fregs, void *data)	\
{									\
	if (enter(data, ftrace_regs_get_argument(fregs, 0),		\
		  ftrace_regs_get_argument(fregs, 1),			\
		  ftrace_regs_get_argument(fregs, 2)))			\
		return 1;						\
	rs_hit(id);							\
	return 0;							\
}

/* An fprobe exit handler @name##_fp_exit calling @exit. */
#define RS_FPROBE_EXIT(name, exit)					\
static void name##_fp_exit(struct fprobe *fp, unsigned long ip,	\
			   unsigned long ret_ip,			\
			   struct ftrace_regs *fregs, void *data)	\
{									\
	exit(data, ftrace_regs_get_return_value(fregs));		\
}

RS_FPROBE_ENTRY(rs_lock_vma, RS_P_LOCK_VMA, rs_rm_lock_vma_enter)
RS_FPROBE_EXIT(rs_lock_vma, rs_rm_lock_vma_exit)
RS_FPROBE_ENTRY(rs_hmf, RS_P_HANDLE_MM_FAULT, rs_rm_hmf_enter)
RS_FPROBE_EXIT(rs_hmf, rs_rm_hmf_exit)
RS_FPROBE_ENTRY(rs_filemap, RS_P_FILEMAP_FAULT, rs_filemap_fault_enter)
RS_FPROBE_EXIT(rs_filemap, rs_filemap_fault_exit)
RS_FPROBE_ENTRY(rs_swap, RS_P_DO_SWAP_PAGE, rs_do_swap_page_enter)
RS_FPROBE_EXIT(rs_swap, rs_do_swap_page_exit)
RS_FPROBE_ENTRY(rs_shmem, RS_P_SHMEM_FAULT, rs_shmem_fault_enter)
RS_FPROBE_EXIT(rs_shmem, rs_shmem_fault_exit)
RS_FPROBE_ENTRY(rs_lock_mm, RS_P_LOCK_MM, rs_lock_mm_enter)
RS_FPROBE_EXIT(rs_lock_mm, rs_lock_mm_exit)
RS_FPROBE_ENTRY(rs_map_pages, RS_P_MAP_PAGES, rs_map_pages_enter)
RS_FPROBE_EXIT(rs_map_pages, rs_map_pages_exit)
RS_FPROBE_ENTRY(rs_vma_write, RS_P_VMA_WRITE, rs_vma_write_enter)
RS_FPROBE_EXIT(rs_vma_write, rs_vma_write_exit)
#endif

/* --- the table ------------------------------------------------------------ */

/* How a model hooks a symbol. */
enum rs_hook {
	RS_HOOK_NONE,		/* not used by this model */
	RS_HOOK_ENTRY,		/* entry model: ftrace_ops, else a kprobe */
	RS_HOOK_RETURN,		/* fprobe with exit, else a kretprobe */
};

enum rs_model { RS_MODEL_ENTRY, RS_MODEL_RETURN, RS_NR_MODELS };

/* What a probe is attached with. */
enum rs_backend { RS_BE_NONE, RS_BE_KPROBE, RS_BE_FPROBE, RS_BE_FTRACE };

struct rs_probe {
	const char *symbol;
	bool core;			/* the module refuses to load without it */
	bool opt_in;			/* off unless fault_around=1 */
	bool common;			/* on every fault (or fork()): off with light=1 */
	enum rs_hook hook_by[RS_NR_MODELS];
	/* set at attach */
	enum rs_hook hook;		/* hook_by[] of the model in use */
	enum rs_backend on;
	int err;			/* 0: attached; -errno: why not */
	int fallback_err;		/* why the first choice was not used */
	struct kprobe kp;		/* an entry hook or probe on kprobes */
	struct kretprobe krp;		/* RS_HOOK_RETURN on kprobes */
#ifdef RS_HAVE_FPROBE_FREGS
	struct fprobe fp;		/* RS_HOOK_RETURN on fprobe */
#endif
#ifdef RS_HAVE_FTRACE_ARGS
	struct ftrace_ops ops;		/* RS_HOOK_ENTRY on ftrace */
#endif
};

static struct rs_probe rs_probes[RS_NR_PROBES] = {
	/*
	 * symbol, core probe, opt-in, common path, hook in the entry model,
	 * in the return model
	 */
	[RS_P_LOCK_VMA] = { "lock_vma_under_rcu", false, false, true,
		{ RS_HOOK_NONE, RS_HOOK_RETURN } },
	[RS_P_HANDLE_MM_FAULT] = { "handle_mm_fault", true, false, true,
		{ RS_HOOK_ENTRY, RS_HOOK_RETURN } },
	[RS_P_FILEMAP_FAULT] = { "filemap_fault", false, false, false,
		{ RS_HOOK_RETURN, RS_HOOK_RETURN } },
	[RS_P_DO_SWAP_PAGE] = { "do_swap_page", false, false, false,
		{ RS_HOOK_RETURN, RS_HOOK_RETURN } },
	[RS_P_SHMEM_FAULT] = { "shmem_fault", false, false, false,
		{ RS_HOOK_RETURN, RS_HOOK_NONE } },
	[RS_P_LOCK_MM] = { "lock_mm_and_find_vma", false, false, false,
		{ RS_HOOK_RETURN, RS_HOOK_RETURN } },
	[RS_P_MAP_PAGES] = { "filemap_map_pages", false, true, true,
		{ RS_HOOK_RETURN, RS_HOOK_RETURN } },
	[RS_P_VMA_WRITE] = { "__vma_start_write", false, false, true,
		{ RS_HOOK_RETURN, RS_HOOK_RETURN } },
};

/* The per-call data of a return probe's handlers. */
static const size_t rs_data_size[RS_NR_PROBES] = {
	[RS_P_LOCK_VMA] = sizeof(struct rs_addr_data),
	[RS_P_HANDLE_MM_FAULT] = sizeof(struct rs_hmf_data),
	[RS_P_FILEMAP_FAULT] = sizeof(struct rs_vmf_data),
	[RS_P_DO_SWAP_PAGE] = sizeof(struct rs_vmf_data),
	[RS_P_SHMEM_FAULT] = sizeof(struct rs_vmf_data),
	[RS_P_MAP_PAGES] = sizeof(struct rs_vmf_data),
	[RS_P_VMA_WRITE] = sizeof(struct rs_vmw_data),
};

/* Each probe's handlers, by mechanism. */
struct rs_krp_handlers {
	kretprobe_handler_t entry, ret;
};

static const struct rs_krp_handlers rs_krp_handlers[RS_NR_PROBES] = {
	[RS_P_LOCK_VMA] = { rs_lock_vma_krp_entry, rs_lock_vma_krp_ret },
	[RS_P_HANDLE_MM_FAULT] = { rs_hmf_krp_entry, rs_hmf_krp_ret },
	[RS_P_FILEMAP_FAULT] = { rs_filemap_krp_entry, rs_filemap_krp_ret },
	[RS_P_DO_SWAP_PAGE] = { rs_swap_krp_entry, rs_swap_krp_ret },
	[RS_P_SHMEM_FAULT] = { rs_shmem_krp_entry, rs_shmem_krp_ret },
	[RS_P_LOCK_MM] = { rs_lock_mm_krp_entry, rs_lock_mm_krp_ret },
	[RS_P_MAP_PAGES] = { rs_map_pages_krp_entry, rs_map_pages_krp_ret },
	[RS_P_VMA_WRITE] = { rs_vma_write_krp_entry, rs_vma_write_krp_ret },
};

/* kprobe handlers of the entry hooks */
static const kprobe_pre_handler_t rs_kp_handlers[RS_NR_PROBES] = {
	[RS_P_HANDLE_MM_FAULT] = rs_emh_handle_mm_fault_kp,
};

#ifdef RS_HAVE_FPROBE_FREGS
struct rs_fp_handlers {
	fprobe_entry_cb entry;
	fprobe_exit_cb exit;
};

static const struct rs_fp_handlers rs_fp_handlers[RS_NR_PROBES] = {
	[RS_P_LOCK_VMA] = { rs_lock_vma_fp_entry, rs_lock_vma_fp_exit },
	[RS_P_HANDLE_MM_FAULT] = { rs_hmf_fp_entry, rs_hmf_fp_exit },
	[RS_P_FILEMAP_FAULT] = { rs_filemap_fp_entry, rs_filemap_fp_exit },
	[RS_P_DO_SWAP_PAGE] = { rs_swap_fp_entry, rs_swap_fp_exit },
	[RS_P_SHMEM_FAULT] = { rs_shmem_fp_entry, rs_shmem_fp_exit },
	[RS_P_LOCK_MM] = { rs_lock_mm_fp_entry, rs_lock_mm_fp_exit },
	[RS_P_MAP_PAGES] = { rs_map_pages_fp_entry, rs_map_pages_fp_exit },
	[RS_P_VMA_WRITE] = { rs_vma_write_fp_entry, rs_vma_write_fp_exit },
};
#endif

#ifdef RS_HAVE_FTRACE_ARGS
/* The ftrace_ops callbacks of the entry hooks. */
static const ftrace_func_t rs_ftrace_handlers[RS_NR_PROBES] = {
	[RS_P_HANDLE_MM_FAULT] = rs_emh_handle_mm_fault_ft,
};
#endif

const char *rs_probe_why(int err)
{
	switch (err) {
	case 0:
		return "attached";
	case -ENOENT:
		return "not found (missing or inlined in this kernel)";
	case -EINVAL:
		return "not probeable (blacklisted, notrace or not a function start)";
	case -EEXIST:
		return "already probed";
	case -ENOMEM:
		return "out of memory";
	case -ENODEV:
		return "not attempted (this kernel lacks the feature)";
	case -ECANCELED:
		return "left off (skip= parameter)";
	case -EPERM:
		return "off by default (fault_around=1 turns it on)";
	case -EALREADY:
		return "not used by this counting model (docs/counters.md)";
	case -EXDEV:
		return "left off (light=1: no probe on the common fault path)";
	case -EPROTO:
		return "not attached (prototype unknown to the compile tests)";
	case -EOPNOTSUPP:
		return "not built in (no ftrace_regs fprobe or ftrace argument access)";
	case -ENOEXEC:
		return "no kprobe on a Thumb-2 kernel (its PUSH emulation can oops)";
	default:
		return "failed";
	}
}

static const char *rs_probe_type(const struct rs_probe *p)
{
	switch (p->on) {
	case RS_BE_FTRACE:
		return "ftrace";
	case RS_BE_FPROBE:
		return "fprobe";
	case RS_BE_KPROBE:
		return p->hook == RS_HOOK_RETURN ? "kretprobe" : "kprobe";
	default:
		return "-";
	}
}

/* Decided at build time by the Kbuild compile tests (module/conftest/). */
static bool rs_vma_refcnt_available(void)
{
#ifdef RS_HAVE_VMA_REFCNT
	return true;
#else
	return false;
#endif
}

bool rs_fprobe_available(void)
{
#ifdef RS_HAVE_FPROBE_FREGS
	return true;
#else
	return false;
#endif
}

bool rs_ftrace_available(void)
{
#ifdef RS_HAVE_FTRACE_ARGS
	return true;
#else
	return false;
#endif
}

static int rs_probe_attach_kprobe(struct rs_probe *p, unsigned int id,
				  int maxactive)
{
	const struct rs_krp_handlers *h = &rs_krp_handlers[id];

	/*
	 * 32-bit arm in Thumb-2: a kprobe emulates the probed instruction,
	 * and most functions begin with a 16-bit PUSH, which
	 * t16_emulate_push() runs in inline asm that loads r0-r7 from
	 * pt_regs while the compiler may keep its pt_regs pointer in r7 (the
	 * Thumb frame pointer, left out of the clobbers).  7.3 built by gcc
	 * 12 at -Os does, and its first probe hit stores through the probed
	 * context's r7: a page domain fault, init killed (docs/arches.md).
	 */
	if (IS_ENABLED(CONFIG_THUMB2_KERNEL))
		return -ENOEXEC;
	if (p->hook != RS_HOOK_RETURN) {
		p->kp.symbol_name = p->symbol;
		p->kp.pre_handler = rs_kp_handlers[id];
		return register_kprobe(&p->kp);
	}
	p->krp.kp.symbol_name = p->symbol;
	p->krp.entry_handler = h->entry;
	p->krp.handler = h->ret;
	p->krp.data_size = rs_data_size[id];
	p->krp.maxactive = maxactive;
	return register_kretprobe(&p->krp);
}

static int rs_probe_attach_fprobe(struct rs_probe *p, unsigned int id)
{
#ifdef RS_HAVE_FPROBE_FREGS
	const struct rs_fp_handlers *h = &rs_fp_handlers[id];

	p->fp.entry_handler = h->entry;
	p->fp.exit_handler = h->exit;
	p->fp.entry_data_size = rs_data_size[id];
	return register_fprobe_syms(&p->fp, &p->symbol, 1);
#else
	return -EOPNOTSUPP;
#endif
}

/*
 * An ftrace_ops filtered to the one symbol.  ftrace_set_filter() parses
 * its buffer as a glob and may write to it: give it a copy.  A symbol that
 * ftrace does not list (missing, inlined, notrace) fails with -EINVAL.
 */
static int rs_probe_attach_ftrace(struct rs_probe *p, unsigned int id)
{
#ifdef RS_HAVE_FTRACE_ARGS
	unsigned char sym[64];
	int len = strscpy((char *)sym, p->symbol, sizeof(sym));
	int err;

	if (len < 0)
		return -E2BIG;
	p->ops.func = rs_ftrace_handlers[id];
	err = ftrace_set_filter(&p->ops, sym, len, 1);
	if (!err)
		err = register_ftrace_function(&p->ops);
	if (err)
		ftrace_free_filter(&p->ops);
	return err;
#else
	return -EOPNOTSUPP;
#endif
}

static bool rs_skip_has(const char *w, size_t n, const char *name)
{
	return strlen(name) == n && !strncmp(w, name, n);
}

/*
 * skip: comma-separated symbols to leave unprobed (NULL: none), and
 * RS_SKIP_LOCKWAIT for both mmap_lock tracepoints.  Returns 0, or -EINVAL
 * naming the first word that is not a probe that may be skipped (the core
 * probe handle_mm_fault may not).
 */
int rs_probes_check_skip(const char *skip)
{
	const char *w = skip;

	while (w && *w) {
		size_t n = strcspn(w, ",");
		unsigned int i;

		for (i = 0; i < RS_NR_PROBES; i++)
			if (rs_skip_has(w, n, rs_probes[i].symbol))
				break;
		if (!rs_skip_has(w, n, RS_SKIP_LOCKWAIT) &&
		    (i == RS_NR_PROBES || rs_probes[i].core)) {
			pr_err("retryscope: skip=%s: \"%.*s\" is not a probe that can be left off (%s)\n",
			       skip, (int)n, w,
			       i == RS_NR_PROBES ? "unknown symbol" : "core probe");
			return -EINVAL;
		}
		w += n;
		if (*w)
			w++;
	}
	return 0;
}

bool rs_probe_skipped(const char *skip, const char *symbol)
{
	const char *w = skip;

	while (w && *w) {
		size_t n = strcspn(w, ",");

		if (rs_skip_has(w, n, symbol))
			return true;
		w += n;
		if (*w)
			w++;
	}
	return false;
}

/*
 * Attach one probe: the first mechanism that takes it.  The entry model's
 * entry hooks try ftrace_ops, then a kprobe; every other probe tries an
 * fprobe, then a kprobe or kretprobe.  A forced backend allows its own
 * mechanism alone (backend=ftrace: ftrace_ops for the entry hooks, the
 * cheapest that attaches for the return probes).
 */
static void rs_probe_attach(struct rs_probe *p, unsigned int id,
			    enum rs_backend_choice backend, int maxactive)
{
	enum rs_backend first;
	int err;

	first = p->hook == RS_HOOK_ENTRY ? RS_BE_FTRACE : RS_BE_FPROBE;
	if (backend == RS_BACKEND_KPROBE)
		first = RS_BE_NONE;

	err = -EOPNOTSUPP;
	if (first == RS_BE_FTRACE)
		err = rs_probe_attach_ftrace(p, id);
	else if (first == RS_BE_FPROBE)
		err = rs_probe_attach_fprobe(p, id);
	if (!err) {
		p->on = first;
		return;
	}
	p->fallback_err = first == RS_BE_NONE ? 0 : err;
	if (backend == RS_BACKEND_FPROBE ||
	    (backend == RS_BACKEND_FTRACE && p->hook == RS_HOOK_ENTRY)) {
		p->err = err;
		return;
	}
	p->err = rs_probe_attach_kprobe(p, id, maxactive);
	if (!p->err)
		p->on = RS_BE_KPROBE;
}

int rs_probes_attach(enum rs_backend_choice backend, const char *skip,
		     bool opt_in, bool light, int maxactive,
		     unsigned int *attached, unsigned int *wanted)
{
	bool entry_model = backend == RS_BACKEND_AUTO ||
			   backend == RS_BACKEND_FTRACE;
	enum rs_model model = entry_model ? RS_MODEL_ENTRY : RS_MODEL_RETURN;
	unsigned int i;

	*attached = 0;
	*wanted = 0;
	rs_model_select(entry_model, light);
	for (i = 0; i < RS_NR_PROBES; i++) {
		struct rs_probe *p = &rs_probes[i];

		p->hook = p->hook_by[model];
		p->on = RS_BE_NONE;
		p->fallback_err = 0;
		if (p->hook == RS_HOOK_NONE) {
			p->err = -EALREADY;
			continue;
		}
		if (p->opt_in && !opt_in) {
			p->err = -EPERM;
			continue;
		}
		if (light && p->common) {
			p->err = -EXDEV;
			continue;
		}
		(*wanted)++;
		if ((i == RS_P_LOCK_VMA && !RS_HAVE_PER_VMA_LOCK) ||
		    (i == RS_P_VMA_WRITE && !rs_vma_refcnt_available())) {
			p->err = -ENODEV;
			continue;
		}
		if (rs_probe_skipped(skip, p->symbol)) {
			p->err = -ECANCELED;
			continue;
		}
		rs_probe_attach(p, i, backend, maxactive);
		if (p->on) {
			(*attached)++;
			continue;
		}
		if (p->core) {
			pr_err("retryscope: core probe %s: %s (%d)\n",
			       p->symbol, rs_probe_why(p->err), p->err);
			rs_probes_detach();
			return p->err;
		}
		/* said here too: without debugfs there is no "probes" file */
		pr_info("retryscope: probe %s not attached: %s (%d)\n",
			p->symbol, rs_probe_why(p->err), p->err);
	}
	return *attached ? 0 : -ENODEV;
}

void rs_probes_detach(void)
{
	unsigned int i;

	for (i = 0; i < RS_NR_PROBES; i++) {
		struct rs_probe *p = &rs_probes[i];

		switch (p->on) {
		case RS_BE_KPROBE:
			if (p->hook == RS_HOOK_RETURN)
				unregister_kretprobe(&p->krp);
			else
				unregister_kprobe(&p->kp);
			break;
#ifdef RS_HAVE_FPROBE_FREGS
		case RS_BE_FPROBE:
			unregister_fprobe(&p->fp);
			break;
#endif
#ifdef RS_HAVE_FTRACE_ARGS
		case RS_BE_FTRACE:
			unregister_ftrace_function(&p->ops);
			ftrace_free_filter(&p->ops);
			break;
#endif
		default:
			break;
		}
		if (p->on)
			p->err = -ENOENT;
		p->on = RS_BE_NONE;
	}
}

static unsigned long rs_probe_nmissed(const struct rs_probe *p, unsigned int i)
{
	unsigned long n = 0;
	int cpu;

	switch (p->on) {
	case RS_BE_FTRACE:
		for_each_possible_cpu(cpu)
			n += per_cpu(rs_probe_missed, cpu)[i];
		return n;
#ifdef RS_HAVE_FPROBE_FREGS
	case RS_BE_FPROBE:
		return READ_ONCE(p->fp.nmissed);
#endif
	case RS_BE_KPROBE:
		if (p->hook != RS_HOOK_RETURN)
			return p->kp.nmissed;
		return p->krp.nmissed + p->krp.kp.nmissed;
	default:
		return 0;
	}
}

/*
 * What the attached probes use, e.g. "ftrace+fprobe" (the entry model on
 * 7.3), "fprobe", "kprobe"; "none" before attach.
 */
const char *rs_probes_backend(void)
{
	static const char * const names[] = {
		"none", "kprobe", "fprobe", "fprobe+kprobe", "ftrace",
		"ftrace+kprobe", "ftrace+fprobe", "ftrace+fprobe+kprobe",
	};
	unsigned int i, set = 0;

	for (i = 0; i < RS_NR_PROBES; i++) {
		if (rs_probes[i].on == RS_BE_KPROBE)
			set |= 1;
		else if (rs_probes[i].on == RS_BE_FPROBE)
			set |= 2;
		else if (rs_probes[i].on == RS_BE_FTRACE)
			set |= 4;
	}
	return names[set];
}

u64 rs_probes_nmissed(void)
{
	u64 n = 0;
	unsigned int i;

	for (i = 0; i < RS_NR_PROBES; i++)
		n += rs_probe_nmissed(&rs_probes[i], i);
	return n;
}

static void rs_probe_show(struct seq_file *m, const struct rs_probe *p,
			  unsigned int i)
{
	bool kret = p->on == RS_BE_KPROBE && p->hook == RS_HOOK_RETURN;
	u64 hits = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		hits += per_cpu(rs_probe_hits, cpu)[i];
	seq_printf(m, "%s %s %s %llu %lu %d\n", p->symbol, rs_probe_type(p),
		   p->on ? "on" : "off", hits, rs_probe_nmissed(p, i),
		   kret ? p->krp.maxactive : 0);
	if (!p->on)
		seq_printf(m, "#   %s: %s (%d)\n", p->symbol,
			   rs_probe_why(p->err), p->err);
	else if (p->fallback_err)
		seq_printf(m, "#   %s: %s: %s (%d); using a %s\n", p->symbol,
			   p->hook == RS_HOOK_ENTRY ? "ftrace" : "fprobe",
			   rs_probe_why(p->fallback_err), p->fallback_err,
			   rs_probe_type(p));
}

void rs_probes_show(struct seq_file *m)
{
	unsigned int i;

	seq_printf(m, "# model %s\n", rs_model_name());
	seq_puts(m, "# symbol type state hits nmissed maxactive\n");
	for (i = 0; i < RS_NR_PROBES; i++)
		rs_probe_show(m, &rs_probes[i], i);
}
