// SPDX-License-Identifier: GPL-2.0
/*
 * The probe table: one hook per symbol of the fault path.
 *
 *   lock_vma_under_rcu    return model only: ret: a VMA or NULL (abort)
 *   handle_mm_fault       entry: flags, address; ret: VM_FAULT_* of one attempt
 *   filemap_fault         entry: vmf->flags; ret: RETRY / RETRY_VMA / MAJOR
 *   do_swap_page          the same for swap-in
 *   shmem_fault           entry model only: ret: RETRY / MAJOR (shmem swap-in)
 *   lock_mm_and_find_vma  entry: the arch handler falls back to mmap_lock
 *
 * Two models.  The entry model (backend=auto or ftrace, entry_model.c) hooks
 * the entries of handle_mm_fault and lock_mm_and_find_vma with ftrace_ops
 * (kprobes where ftrace cannot) and infers their outcomes from the next
 * hook; only filemap_fault, do_swap_page and shmem_fault have return
 * probes.  The return model (backend=fprobe or kprobe, the handlers below)
 * reads every return value, at several times the cost per fault.
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

#include "cause.h"
#include "entry_model.h"
#include "features.h"
#include "probes.h"
#include "stats.h"
#include "trace.h"

enum rs_probe_id {
	RS_P_LOCK_VMA,
	RS_P_HANDLE_MM_FAULT,
	RS_P_FILEMAP_FAULT,
	RS_P_DO_SWAP_PAGE,
	RS_P_SHMEM_FAULT,
	RS_P_LOCK_MM,
	RS_NR_PROBES
};

static DEFINE_PER_CPU(u64 [RS_NR_PROBES], rs_probe_hits);
/* ftrace_ops hooks skipped on recursion (kprobes and fprobes count their own) */
static DEFINE_PER_CPU(u64 [RS_NR_PROBES], rs_probe_missed);

/* Set at attach, before any hook runs: which model the handlers follow. */
static bool rs_entry_model __read_mostly;

static __always_inline void rs_hit(enum rs_probe_id id)
{
	this_cpu_inc(rs_probe_hits[id]);
}

static __always_inline unsigned int rs_fault_bits(vm_fault_t ret)
{
	return (__force unsigned int)ret;
}

/* --- lock_vma_under_rcu(mm, address) ----------------------------------- */

struct rs_addr_data {
	unsigned long address;
};

static __always_inline int rs_lock_vma_enter(void *data, unsigned long mm,
					     unsigned long address,
					     unsigned long unused)
{
	struct rs_addr_data *d = data;

	if (!rs_filter_match())
		return 1;
	rs_hit(RS_P_LOCK_VMA);
	d->address = address;
	return 0;
}

static __always_inline void rs_lock_vma_exit(void *data, unsigned long vma)
{
	struct rs_addr_data *d = data;
	struct rs_task_state ts;
	bool same;

	rs_state_get(&ts, d->address);
	same = rs_state_same_fault(&ts, d->address);
	if (vma) {
		/* A retry came back to the VMA lock instead of mmap_lock. */
		if (same && rs_state_is_retry(&ts))
			rs_count_retry_kept(&ts, d->address);
		return;
	}
	rs_inc(RS_vma_lock_abort);
	if (!same) {
		ts.attempt = 0;
		ts.tag = (d->address >> PAGE_SHIFT);
	}
	ts.state = RS_ST_VMA_ABORT;
	rs_state_set(&ts);
}

/* --- handle_mm_fault(vma, address, flags, regs) ------------------------- */

struct rs_hmf_data {
	unsigned long address;
	unsigned int flags;
	unsigned int attempt;
};

static __always_inline int rs_hmf_enter(void *data, unsigned long vma,
					unsigned long address,
					unsigned long flags)
{
	struct rs_hmf_data *d = data;
	struct rs_task_state ts;

	if (!rs_filter_match())
		return 1;
	rs_hit(RS_P_HANDLE_MM_FAULT);
	d->address = address;
	d->flags = flags;

	rs_state_get(&ts, d->address);
	if (rs_state_same_fault(&ts, d->address)) {
		d->attempt = ts.attempt + 1;
	} else {
		if (ts.mine && rs_state_is_retry(&ts))
			rs_inc(RS_faults_abandoned);
		d->attempt = 1;
		if (d->flags & FAULT_FLAG_USER)
			rs_inc(RS_user_faults);
	}
	ts.state = RS_ST_IN_FAULT;
	ts.attempt = d->attempt;
	ts.tag = d->address >> PAGE_SHIFT;
	rs_state_set(&ts);
	return 0;
}

static __always_inline void rs_hmf_exit(void *data, unsigned long retval)
{
	struct rs_hmf_data *d = data;
	unsigned int ret = retval;
	struct rs_task_state ts;
	enum rs_cause cause;

	if (d->flags & RS_FAULT_FLAG_VMA_LOCK)
		rs_inc(ret & rs_fault_bits(VM_FAULT_RETRY) ?
		       RS_vma_lock_retry : RS_vma_lock_success);

	rs_state_get(&ts, d->address);
	ts.attempt = d->attempt;
	ts.tag = d->address >> PAGE_SHIFT;

	if (ret & rs_fault_bits(VM_FAULT_RETRY)) {
		rs_inc(RS_fault_retry);
		if (ts.mine && ts.state == RS_ST_RETRY_FILE_IO) {
			cause = RS_CAUSE_FILE_IO;
			rs_inc(RS_fault_retry_file_io);
		} else if (ts.mine && ts.state == RS_ST_RETRY_SWAP_IO) {
			cause = RS_CAUSE_SWAP_IO;
			rs_inc(RS_fault_retry_swap_io);
		} else {
			cause = RS_CAUSE_OTHER_RETRY;
			ts.state = RS_ST_RETRY_OTHER;
			rs_inc(RS_fault_retry_other);
		}
		rs_state_set(&ts);
		trace_retryscope_fault_retry(d->address, cause, d->flags, ret,
					     d->attempt,
					     ret & RS_VM_FAULT_RETRY_VMA_BITS);
		return;
	}

	/* The fault is complete: account it as mm_account_fault() does. */
	if (d->flags & FAULT_FLAG_USER) {
		unsigned int n = d->attempt;

		rs_inc(rs_attempt_bucket(n));
		rs_note_attempts(n);
	}
	if (!(ret & rs_fault_bits(VM_FAULT_ERROR)) &&
	    ((ret & rs_fault_bits(VM_FAULT_MAJOR)) ||
	     (d->flags & FAULT_FLAG_TRIED)))
		rs_inc(RS_major_faults);
	ts.state = RS_ST_NONE;
	ts.attempt = 0;
	rs_state_set(&ts);
}

/* --- filemap_fault(vmf) and do_swap_page(vmf) --------------------------- */

struct rs_vmf_data {
	unsigned long address;
	unsigned int flags;	/* vmf->flags at entry */
	bool random;		/* VM_RAND_READ: no readahead, synchronous read */
};

static __always_inline void rs_vmf_entry_count(struct vm_fault *vmf,
					       struct rs_vmf_data *d,
					       enum rs_counter calls)
{
	unsigned int flags = READ_ONCE(vmf->flags);

	d->address = vmf->address;
	d->flags = flags;
	/* calls, vma_locked, tried, nowait are consecutive in RS_COUNTERS. */
	rs_inc(calls);
	if (flags & RS_FAULT_FLAG_VMA_LOCK)
		rs_inc(calls + 1);
	if (flags & FAULT_FLAG_TRIED)
		rs_inc(calls + 2);
	if (flags & FAULT_FLAG_RETRY_NOWAIT)
		rs_inc(calls + 3);
}

static __always_inline void rs_vmf_ret_count(unsigned int ret,
					     struct rs_vmf_data *d,
					     enum rs_counter retry,
					     enum rs_state state)
{
	struct rs_task_state ts;

	/* retry, retry_vma, major, error follow nowait in RS_COUNTERS. */
	if (ret & rs_fault_bits(VM_FAULT_RETRY)) {
		rs_inc(retry);
		if (ret & RS_VM_FAULT_RETRY_VMA_BITS)
			rs_inc(retry + 1);
		if (!rs_entry_model) {
			rs_state_get(&ts, d->address);
			if (ts.mine) {
				ts.state = state;
				rs_state_set(&ts);
			}
		}
	}
	if (rs_entry_model)
		rs_em_io_return(d->address, d->flags, ret, state);
	if (ret & rs_fault_bits(VM_FAULT_MAJOR))
		rs_inc(retry + 2);
	if (ret & rs_fault_bits(VM_FAULT_ERROR))
		rs_inc(retry + 3);
}

/*
 * filemap_fault() drops the lock in three places: readahead started I/O
 * (the only one where the RFC series sets VM_FAULT_RETRY_VMA), the folio
 * was locked by someone else's I/O, or a VM_RAND_READ mapping read the
 * folio synchronously (page_not_uptodate).  The last one is told apart by
 * the VMA flag: filemap_fault_retry_random.
 */
static __always_inline int rs_filemap_enter(void *data, unsigned long arg0,
					    unsigned long unused1,
					    unsigned long unused2)
{
	struct vm_fault *vmf = (struct vm_fault *)arg0;
	struct rs_vmf_data *d = data;

	if (!rs_filter_match())
		return 1;
	rs_hit(RS_P_FILEMAP_FAULT);
	rs_vmf_entry_count(vmf, d, RS_filemap_fault_calls);
	d->random = vmf->vma->vm_flags & VM_RAND_READ;
	if (d->random)
		rs_inc(RS_filemap_fault_random);
	return 0;
}

static __always_inline void rs_filemap_exit(void *data, unsigned long retval)
{
	struct rs_vmf_data *d = data;

	rs_vmf_ret_count(retval, d, RS_filemap_fault_retry, RS_ST_RETRY_FILE_IO);
	if (d->random && (retval & rs_fault_bits(VM_FAULT_RETRY)))
		rs_inc(RS_filemap_fault_retry_random);
}

static __always_inline int rs_swap_enter(void *data, unsigned long arg0,
					 unsigned long unused1,
					 unsigned long unused2)
{
	if (!rs_filter_match())
		return 1;
	rs_hit(RS_P_DO_SWAP_PAGE);
	rs_vmf_entry_count((struct vm_fault *)arg0, data, RS_swap_fault_calls);
	return 0;
}

static __always_inline void rs_swap_exit(void *data, unsigned long retval)
{
	rs_vmf_ret_count(retval, data, RS_swap_fault_retry, RS_ST_RETRY_SWAP_IO);
}

/*
 * shmem_fault(vmf), for the entry model alone: the return model reads
 * VM_FAULT_MAJOR from handle_mm_fault(); the entry model needs it from
 * the ->fault that sets it, and shmem sets it when it reads a folio back
 * from swap (tmpfs, memfd, shared anonymous memory).  A VM_FAULT_RETRY
 * (waiting for a hole punch) is an "other" retry.
 */
static __always_inline int rs_shmem_enter(void *data, unsigned long arg0,
					  unsigned long unused1,
					  unsigned long unused2)
{
	struct vm_fault *vmf = (struct vm_fault *)arg0;
	struct rs_vmf_data *d = data;

	if (!rs_filter_match())
		return 1;
	rs_hit(RS_P_SHMEM_FAULT);
	d->address = vmf->address;
	d->flags = READ_ONCE(vmf->flags);
	return 0;
}

static __always_inline void rs_shmem_exit(void *data, unsigned long retval)
{
	struct rs_vmf_data *d = data;

	rs_em_io_return(d->address, d->flags, retval, RS_ST_RETRY_OTHER);
}

/* --- lock_mm_and_find_vma(mm, address, regs) ---------------------------- */

static __always_inline int rs_lock_mm_enter(void *data, unsigned long mm,
					    unsigned long address,
					    unsigned long regs)
{
	struct rs_task_state ts;
	enum rs_cause cause;

	if (!rs_filter_match())
		return 0;
	rs_hit(RS_P_LOCK_MM);
	rs_state_get(&ts, address);
	cause = rs_state_fallback_cause(&ts, address);
	rs_inc(RS_mmap_lock_fallback);
	switch (cause) {
	case RS_CAUSE_VMA_ABORT:
		rs_inc(RS_fallback_vma_abort);
		break;
	case RS_CAUSE_FILE_IO:
		rs_inc(RS_fallback_after_file_io);
		break;
	case RS_CAUSE_SWAP_IO:
		rs_inc(RS_fallback_after_swap_io);
		break;
	case RS_CAUSE_OTHER_RETRY:
		rs_inc(RS_fallback_after_other_retry);
		break;
	default:
		rs_inc(RS_fallback_no_vma_lock);
		ts.attempt = 0;
		break;
	}
	trace_retryscope_mmap_fallback(address, cause, ts.attempt);
	ts.state = RS_ST_MMAP_LOCKED;
	ts.tag = address >> PAGE_SHIFT;
	rs_state_set(&ts);
	return 0;
}

/* --- the entry model's hooks (entry_model.c does the counting) -------- */

static __always_inline void rs_emh_hmf(unsigned long vma,
				       unsigned long address,
				       unsigned long flags)
{
	if (!rs_filter_match())
		return;
	rs_hit(RS_P_HANDLE_MM_FAULT);
	rs_em_handle_mm_fault(address, flags);
}

static __always_inline void rs_emh_lock_mm(unsigned long mm,
					   unsigned long address,
					   unsigned long regs)
{
	if (!rs_filter_match())
		return;
	rs_hit(RS_P_LOCK_MM);
	rs_em_lock_mm(address, (struct pt_regs *)regs);
}

/* An entry hook as a kprobe (where ftrace cannot take the symbol)... */
#define RS_KPROBE_ENTRY(name)						\
static int name##_kp(struct kprobe *p, struct pt_regs *regs)		\
{									\
	name(regs_get_kernel_argument(regs, 0),				\
	     regs_get_kernel_argument(regs, 1),				\
	     regs_get_kernel_argument(regs, 2));			\
	return 0;							\
}

RS_KPROBE_ENTRY(rs_emh_hmf)
RS_KPROBE_ENTRY(rs_emh_lock_mm)

#ifdef RS_HAVE_FTRACE_ARGS
/*
 * ...and as an ftrace_ops callback: the cheapest hook there is, called
 * straight from the function's ftrace trampoline.  The ops do not set
 * FTRACE_OPS_FL_RECURSION (that flag asks ftrace to wrap the callback in
 * its own recursion guard, ftrace_ops_assist_func()): the callback takes
 * the guard itself, and the guard disables preemption.
 */
#define RS_FTRACE_ENTRY(name, id)					\
static void notrace name##_ft(unsigned long ip, unsigned long parent_ip,\
			      struct ftrace_ops *op,			\
			      struct ftrace_regs *fregs)		\
{									\
	int bit = ftrace_test_recursion_trylock(ip, parent_ip);		\
									\
	if (bit < 0) {							\
		this_cpu_inc(rs_probe_missed[id]);			\
		return;							\
	}								\
	name(ftrace_regs_get_argument(fregs, 0),			\
	     ftrace_regs_get_argument(fregs, 1),			\
	     ftrace_regs_get_argument(fregs, 2));			\
	ftrace_test_recursion_unlock(bit);				\
}

RS_FTRACE_ENTRY(rs_emh_hmf, RS_P_HANDLE_MM_FAULT)
RS_FTRACE_ENTRY(rs_emh_lock_mm, RS_P_LOCK_MM)
#endif

/* --- the return model's two backends ------------------------------------ */

/*
 * Each handler above is written once, on plain arguments; these wrappers
 * read the arguments from a kretprobe's pt_regs or an fprobe's ftrace_regs
 * and call it directly (no indirect call on the fault path).
 */
#define RS_KRETPROBE_WRAPPERS(name)					\
static int name##_krp_entry(struct kretprobe_instance *ri,		\
			    struct pt_regs *regs)			\
{									\
	return name##_enter(ri->data, regs_get_kernel_argument(regs, 0),\
			    regs_get_kernel_argument(regs, 1),		\
			    regs_get_kernel_argument(regs, 2));		\
}									\
static int name##_krp_ret(struct kretprobe_instance *ri,		\
			  struct pt_regs *regs)				\
{									\
	name##_exit(ri->data, regs_return_value(regs));			\
	return 0;							\
}

RS_KRETPROBE_WRAPPERS(rs_lock_vma)
RS_KRETPROBE_WRAPPERS(rs_hmf)
RS_KRETPROBE_WRAPPERS(rs_filemap)
RS_KRETPROBE_WRAPPERS(rs_swap)
RS_KRETPROBE_WRAPPERS(rs_shmem)

static int rs_lock_mm_kp_pre(struct kprobe *p, struct pt_regs *regs)
{
	rs_lock_mm_enter(NULL, regs_get_kernel_argument(regs, 0),
			 regs_get_kernel_argument(regs, 1),
			 regs_get_kernel_argument(regs, 2));
	return 0;
}

#ifdef RS_HAVE_FPROBE_FREGS
#define RS_FPROBE_ENTRY(name)						\
static int name##_fp_entry(struct fprobe *fp, unsigned long ip,	\
			   unsigned long ret_ip,			\
			   struct ftrace_regs *fregs, void *data)	\
{									\
	return name##_enter(data, ftrace_regs_get_argument(fregs, 0),	\
			    ftrace_regs_get_argument(fregs, 1),		\
			    ftrace_regs_get_argument(fregs, 2));	\
}

#define RS_FPROBE_WRAPPERS(name)					\
RS_FPROBE_ENTRY(name)							\
static void name##_fp_exit(struct fprobe *fp, unsigned long ip,	\
			   unsigned long ret_ip,			\
			   struct ftrace_regs *fregs, void *data)	\
{									\
	name##_exit(data, ftrace_regs_get_return_value(fregs));		\
}

RS_FPROBE_WRAPPERS(rs_lock_vma)
RS_FPROBE_WRAPPERS(rs_hmf)
RS_FPROBE_WRAPPERS(rs_filemap)
RS_FPROBE_WRAPPERS(rs_swap)
RS_FPROBE_WRAPPERS(rs_shmem)
RS_FPROBE_ENTRY(rs_lock_mm)

/* Its argument (a .fp initializer) only where struct rs_probe has .fp. */
#define RS_IF_FPROBE(...) __VA_ARGS__
#else
#define RS_IF_FPROBE(...)
#endif

/* --- the table ------------------------------------------------------------ */

enum rs_backend { RS_BE_NONE, RS_BE_KPROBE, RS_BE_FPROBE, RS_BE_FTRACE };
enum { RS_MODEL_BOTH, RS_MODEL_ENTRY, RS_MODEL_RETURN };

struct rs_probe {
	const char *symbol;
	bool core;		/* the module refuses to load without it */
	bool ret;		/* the return model needs the return value */
	bool entry_hook;	/* the entry model hooks its entry alone */
	bool entry_only;	/* attached as an entry hook (.ekp or .ops) */
	unsigned char model;	/* RS_MODEL_*: the one model that needs it, or 0 */
	enum rs_backend on;	/* what it is attached with */
	int err;		/* 0: attached; -errno: why not */
	int fallback_err;	/* why the first choice was not used */
	struct kretprobe krp;	/* return model; .kp alone when !ret */
	struct kprobe ekp;	/* entry model entry hook on kprobes */
#ifdef RS_HAVE_FPROBE_FREGS
	struct fprobe fp;
#endif
#ifdef RS_HAVE_FTRACE_ARGS
	struct ftrace_ops ops;	/* entry model entry hook on ftrace */
#endif
};

/* The entry model's entry hook on @sym (its ftrace_ops is set up at attach). */
#define RS_ENTRY_HOOK(sym, name)					\
	.entry_hook = true,						\
	.ekp = { .symbol_name = #sym, .pre_handler = name##_kp },

#define RS_ENTRY_MODEL_ONLY .model = RS_MODEL_ENTRY,
#define RS_RETURN_MODEL_ONLY .model = RS_MODEL_RETURN,

#define RS_RET_PROBE(sym, is_core, name, type, ...)			\
	{ .symbol = #sym, .core = is_core, .ret = true,			\
	  .krp = { .kp.symbol_name = #sym,				\
		   .entry_handler = name##_krp_entry,			\
		   .handler = name##_krp_ret, .data_size = sizeof(type) },\
	  __VA_ARGS__							\
	  RS_IF_FPROBE(.fp = { .entry_handler = name##_fp_entry,	\
			       .exit_handler = name##_fp_exit,		\
			       .entry_data_size = sizeof(type) }) }

static struct rs_probe rs_probes[RS_NR_PROBES] = {
	[RS_P_LOCK_VMA] = RS_RET_PROBE(lock_vma_under_rcu, false, rs_lock_vma,
				       struct rs_addr_data,
				       RS_RETURN_MODEL_ONLY),
	[RS_P_HANDLE_MM_FAULT] = RS_RET_PROBE(handle_mm_fault, true, rs_hmf,
					      struct rs_hmf_data,
					      RS_ENTRY_HOOK(handle_mm_fault,
							    rs_emh_hmf)),
	[RS_P_FILEMAP_FAULT] = RS_RET_PROBE(filemap_fault, false, rs_filemap,
					    struct rs_vmf_data),
	[RS_P_DO_SWAP_PAGE] = RS_RET_PROBE(do_swap_page, false, rs_swap,
					   struct rs_vmf_data),
	[RS_P_SHMEM_FAULT] = RS_RET_PROBE(shmem_fault, false, rs_shmem,
					  struct rs_vmf_data,
					  RS_ENTRY_MODEL_ONLY),
	[RS_P_LOCK_MM] = { .symbol = "lock_mm_and_find_vma", .core = false,
			   .krp.kp = { .symbol_name = "lock_mm_and_find_vma",
				       .pre_handler = rs_lock_mm_kp_pre },
			   RS_ENTRY_HOOK(lock_mm_and_find_vma, rs_emh_lock_mm)
			   RS_IF_FPROBE(.fp = { .entry_handler = rs_lock_mm_fp_entry }) },
};

#ifdef RS_HAVE_FTRACE_ARGS
/* The ftrace_ops callbacks of the entry hooks, by probe. */
static const ftrace_func_t rs_ftrace_entry[RS_NR_PROBES] = {
	[RS_P_HANDLE_MM_FAULT] = rs_emh_hmf_ft,
	[RS_P_LOCK_MM] = rs_emh_lock_mm_ft,
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
	case -EALREADY:
		return "not used by this counting model (docs/counters.md)";
	case -EOPNOTSUPP:
		return "not built in (no ftrace_regs fprobe or ftrace argument access)";
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
		return p->ret && !p->entry_only ? "kretprobe" : "kprobe";
	default:
		return "-";
	}
}

/* Decided at build time by the Kbuild compile tests (module/conftest/). */
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

static int rs_probe_attach_kprobe(struct rs_probe *p, int maxactive)
{
	if (p->entry_only)
		return register_kprobe(&p->ekp);
	if (!p->ret)
		return register_kprobe(&p->krp.kp);
	p->krp.maxactive = maxactive;
	return register_kretprobe(&p->krp);
}

static int rs_probe_attach_fprobe(struct rs_probe *p)
{
#ifdef RS_HAVE_FPROBE_FREGS
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
	p->ops.func = rs_ftrace_entry[id];
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
 * Attach one probe: the first mechanism in @order that takes it.  The
 * entry model's entry hooks try ftrace_ops, then a kprobe; every other
 * probe tries an fprobe, then a kprobe or kretprobe.  A forced backend
 * allows its own mechanism alone (backend=ftrace: ftrace_ops for the entry
 * hooks, the cheapest that attaches for the two return probes).
 */
static void rs_probe_attach(struct rs_probe *p, unsigned int id,
			    enum rs_backend_choice backend, int maxactive)
{
	bool entry_model = backend == RS_BACKEND_AUTO ||
			   backend == RS_BACKEND_FTRACE;
	enum rs_backend first;
	int err;

	p->entry_only = entry_model && p->entry_hook;
	first = p->entry_only ? RS_BE_FTRACE : RS_BE_FPROBE;
	if (backend == RS_BACKEND_KPROBE)
		first = RS_BE_NONE;

	err = -EOPNOTSUPP;
	if (first == RS_BE_FTRACE)
		err = rs_probe_attach_ftrace(p, id);
	else if (first == RS_BE_FPROBE)
		err = rs_probe_attach_fprobe(p);
	if (!err) {
		p->on = first;
		return;
	}
	p->fallback_err = first == RS_BE_NONE ? 0 : err;
	if (backend == RS_BACKEND_FPROBE ||
	    (backend == RS_BACKEND_FTRACE && p->entry_only)) {
		p->err = err;
		return;
	}
	p->err = rs_probe_attach_kprobe(p, maxactive);
	if (!p->err)
		p->on = RS_BE_KPROBE;
}

int rs_probes_attach(enum rs_backend_choice backend, const char *skip,
		     int maxactive, unsigned int *attached, unsigned int *wanted)
{
	unsigned int i;

	*attached = 0;
	*wanted = 0;
	rs_entry_model = backend == RS_BACKEND_AUTO ||
			 backend == RS_BACKEND_FTRACE;
	for (i = 0; i < RS_NR_PROBES; i++) {
		struct rs_probe *p = &rs_probes[i];

		p->on = RS_BE_NONE;
		p->entry_only = false;
		p->fallback_err = 0;
		if (p->model == (rs_entry_model ? RS_MODEL_RETURN : RS_MODEL_ENTRY)) {
			p->err = -EALREADY;
			continue;
		}
		(*wanted)++;
		if (i == RS_P_LOCK_VMA && !RS_HAVE_PER_VMA_LOCK) {
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
		} else if (p->core) {
			pr_err("retryscope: core probe %s: %s (%d)\n",
			       p->symbol, rs_probe_why(p->err), p->err);
			rs_probes_detach();
			return p->err;
		}
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
			if (p->entry_only)
				unregister_kprobe(&p->ekp);
			else if (p->ret)
				unregister_kretprobe(&p->krp);
			else
				unregister_kprobe(&p->krp.kp);
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
		if (p->entry_only)
			return p->ekp.nmissed;
		return (p->ret ? (unsigned long)p->krp.nmissed : 0UL) +
		       p->krp.kp.nmissed;
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

/* Which counting model the handlers follow: "entry" or "return". */
const char *rs_probes_model(void)
{
	return rs_entry_model ? "entry" : "return";
}

u64 rs_probes_nmissed(void)
{
	u64 n = 0;
	unsigned int i;

	for (i = 0; i < RS_NR_PROBES; i++)
		n += rs_probe_nmissed(&rs_probes[i], i);
	return n;
}

void rs_probes_show(struct seq_file *m)
{
	unsigned int i;
	int cpu;

	seq_printf(m, "# model %s\n", rs_probes_model());
	seq_puts(m, "# symbol type state hits nmissed maxactive\n");
	for (i = 0; i < RS_NR_PROBES; i++) {
		struct rs_probe *p = &rs_probes[i];
		bool kret = p->on == RS_BE_KPROBE && p->ret && !p->entry_only;
		u64 hits = 0;

		for_each_possible_cpu(cpu)
			hits += per_cpu(rs_probe_hits, cpu)[i];
		seq_printf(m, "%s %s %s %llu %lu %d\n", p->symbol,
			   rs_probe_type(p), p->on ? "on" : "off", hits,
			   rs_probe_nmissed(p, i), kret ? p->krp.maxactive : 0);
		if (!p->on)
			seq_printf(m, "#   %s: %s (%d)\n", p->symbol,
				   rs_probe_why(p->err), p->err);
		else if (p->fallback_err)
			seq_printf(m, "#   %s: %s: %s (%d); using a %s\n",
				   p->symbol, p->entry_only ? "ftrace" : "fprobe",
				   rs_probe_why(p->fallback_err),
				   p->fallback_err, rs_probe_type(p));
	}
	rs_lockwait_show(m);
}
