// SPDX-License-Identifier: GPL-2.0
/*
 * The probe table: one kprobe or kretprobe per symbol of the fault path.
 *
 *   lock_vma_under_rcu    ret: a VMA (fault runs under the VMA lock) or NULL
 *   handle_mm_fault       entry: flags, address; ret: VM_FAULT_* of one attempt
 *   filemap_fault         entry: vmf->flags; ret: RETRY / RETRY_VMA / MAJOR
 *   do_swap_page          the same for swap-in
 *   lock_mm_and_find_vma  entry: the arch handler falls back to mmap_lock
 *
 * The arch handlers themselves (x86 do_user_addr_fault is NOKPROBE, arm64
 * do_page_fault is __kprobes) are never probed.  Handlers run with
 * preemption disabled; they take no lock, allocate nothing, print nothing.
 */
#include <linux/fprobe.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/ptrace.h>
#include <linux/seq_file.h>
#include <linux/string.h>

#include "cause.h"
#include "features.h"
#include "probes.h"
#include "stats.h"
#include "trace.h"

enum rs_probe_id {
	RS_P_LOCK_VMA,
	RS_P_HANDLE_MM_FAULT,
	RS_P_FILEMAP_FAULT,
	RS_P_DO_SWAP_PAGE,
	RS_P_LOCK_MM,
	RS_NR_PROBES
};

static DEFINE_PER_CPU(u64 [RS_NR_PROBES], rs_probe_hits);

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
		enum rs_cause cause;

		if (!same || !rs_state_is_retry(&ts))
			return;
		/* A retry came back to the VMA lock instead of mmap_lock. */
		cause = rs_state_fallback_cause(&ts, d->address);
		rs_inc(RS_retry_kept_vma_lock);
		if (cause == RS_CAUSE_FILE_IO)
			rs_inc(RS_retry_kept_after_file_io);
		else if (cause == RS_CAUSE_SWAP_IO)
			rs_inc(RS_retry_kept_after_swap_io);
		else
			rs_inc(RS_retry_kept_after_other_retry);
		trace_retryscope_retry_kept(d->address, cause, ts.attempt);
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

		rs_inc(n == 1 ? RS_attempts_1 : n == 2 ? RS_attempts_2 :
		       n == 3 ? RS_attempts_3 : RS_attempts_4plus);
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
	bool random;		/* VM_RAND_READ: no readahead, synchronous read */
};

static __always_inline void rs_vmf_entry_count(struct vm_fault *vmf,
					       struct rs_vmf_data *d,
					       enum rs_counter calls)
{
	unsigned int flags = READ_ONCE(vmf->flags);

	d->address = vmf->address;
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
		rs_state_get(&ts, d->address);
		if (ts.mine) {
			ts.state = state;
			rs_state_set(&ts);
		}
	}
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

/* --- the two backends ---------------------------------------------------- */

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
RS_FPROBE_ENTRY(rs_lock_mm)

/* Its argument (a .fp initializer) only where struct rs_probe has .fp. */
#define RS_IF_FPROBE(...) __VA_ARGS__
#else
#define RS_IF_FPROBE(...)
#endif

/* --- the table ------------------------------------------------------------ */

enum rs_backend { RS_BE_NONE, RS_BE_KPROBE, RS_BE_FPROBE };

struct rs_probe {
	const char *symbol;
	bool core;		/* the module refuses to load without it */
	bool ret;		/* needs the return value */
	enum rs_backend on;	/* what it is attached with */
	int err;		/* 0: attached; -errno: why not */
	int fprobe_err;		/* why fprobe was not used (backend=auto) */
	struct kretprobe krp;	/* .kp alone when !ret */
#ifdef RS_HAVE_FPROBE_FREGS
	struct fprobe fp;
#endif
};

#define RS_RET_PROBE(sym, is_core, name, type)				\
	{ .symbol = #sym, .core = is_core, .ret = true,			\
	  .krp = { .kp.symbol_name = #sym,				\
		   .entry_handler = name##_krp_entry,			\
		   .handler = name##_krp_ret, .data_size = sizeof(type) },\
	  RS_IF_FPROBE(.fp = { .entry_handler = name##_fp_entry,	\
			       .exit_handler = name##_fp_exit,		\
			       .entry_data_size = sizeof(type) }) }

static struct rs_probe rs_probes[RS_NR_PROBES] = {
	[RS_P_LOCK_VMA] = RS_RET_PROBE(lock_vma_under_rcu, false, rs_lock_vma,
				       struct rs_addr_data),
	[RS_P_HANDLE_MM_FAULT] = RS_RET_PROBE(handle_mm_fault, true, rs_hmf,
					      struct rs_hmf_data),
	[RS_P_FILEMAP_FAULT] = RS_RET_PROBE(filemap_fault, false, rs_filemap,
					    struct rs_vmf_data),
	[RS_P_DO_SWAP_PAGE] = RS_RET_PROBE(do_swap_page, false, rs_swap,
					   struct rs_vmf_data),
	[RS_P_LOCK_MM] = { .symbol = "lock_mm_and_find_vma", .core = false,
			   .krp.kp = { .symbol_name = "lock_mm_and_find_vma",
				       .pre_handler = rs_lock_mm_kp_pre },
			   RS_IF_FPROBE(.fp = { .entry_handler = rs_lock_mm_fp_entry }) },
};

static const char *rs_probe_why(int err)
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
	case -EOPNOTSUPP:
		return "no ftrace_regs fprobe in this kernel (CONFIG_FPROBE on fgraph)";
	default:
		return "failed";
	}
}

static const char *rs_probe_type(const struct rs_probe *p)
{
	if (p->on == RS_BE_FPROBE)
		return "fprobe";
	return p->ret ? "kretprobe" : "kprobe";
}

bool rs_fprobe_available(void)
{
#ifdef RS_HAVE_FPROBE_FREGS
	return true;
#else
	return false;
#endif
}

static int rs_probe_attach_kprobe(struct rs_probe *p, int maxactive)
{
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
 * backend: RS_BACKEND_KPROBE, _FPROBE, or _AUTO (fprobe, and a kprobe for
 * a symbol fprobe cannot take).
 */
/*
 * skip: comma-separated symbols to leave unprobed (NULL: none).  Returns 0,
 * or -EINVAL naming the first word that is not a probe that may be skipped
 * (the core probe handle_mm_fault may not).
 */
int rs_probes_check_skip(const char *skip)
{
	const char *w = skip;

	while (w && *w) {
		size_t n = strcspn(w, ",");
		unsigned int i;

		for (i = 0; i < RS_NR_PROBES; i++)
			if (strlen(rs_probes[i].symbol) == n &&
			    !strncmp(rs_probes[i].symbol, w, n))
				break;
		if (i == RS_NR_PROBES || rs_probes[i].core) {
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

static bool rs_probe_skipped(const char *skip, const char *symbol)
{
	size_t len = strlen(symbol);
	const char *w = skip;

	while (w && *w) {
		size_t n = strcspn(w, ",");

		if (n == len && !strncmp(w, symbol, n))
			return true;
		w += n;
		if (*w)
			w++;
	}
	return false;
}

int rs_probes_attach(enum rs_backend_choice backend, const char *skip,
		     int maxactive, unsigned int *attached)
{
	unsigned int i;

	*attached = 0;
	for (i = 0; i < RS_NR_PROBES; i++) {
		struct rs_probe *p = &rs_probes[i];

		p->on = RS_BE_NONE;
		p->fprobe_err = 0;
		if (i == RS_P_LOCK_VMA && !RS_HAVE_PER_VMA_LOCK) {
			p->err = -ENODEV;
			continue;
		}
		if (rs_probe_skipped(skip, p->symbol)) {
			p->err = -ECANCELED;
			continue;
		}
		if (backend != RS_BACKEND_KPROBE) {
			p->err = rs_probe_attach_fprobe(p);
			if (!p->err)
				p->on = RS_BE_FPROBE;
			else if (backend == RS_BACKEND_AUTO)
				p->fprobe_err = p->err;
		}
		if (!p->on && backend != RS_BACKEND_FPROBE) {
			p->err = rs_probe_attach_kprobe(p, maxactive);
			if (!p->err)
				p->on = RS_BE_KPROBE;
		}
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

		if (p->on == RS_BE_KPROBE && p->ret)
			unregister_kretprobe(&p->krp);
		else if (p->on == RS_BE_KPROBE)
			unregister_kprobe(&p->krp.kp);
#ifdef RS_HAVE_FPROBE_FREGS
		else if (p->on == RS_BE_FPROBE)
			unregister_fprobe(&p->fp);
#endif
		if (p->on)
			p->err = -ENOENT;
		p->on = RS_BE_NONE;
	}
}

static unsigned long rs_probe_nmissed(const struct rs_probe *p)
{
#ifdef RS_HAVE_FPROBE_FREGS
	if (p->on == RS_BE_FPROBE)
		return READ_ONCE(p->fp.nmissed);
#endif
	if (p->on != RS_BE_KPROBE)
		return 0;
	return (p->ret ? (unsigned long)p->krp.nmissed : 0UL) + p->krp.kp.nmissed;
}

/* What the attached probes use: "fprobe", "kprobe", "fprobe+kprobe", "none". */
const char *rs_probes_backend(void)
{
	bool fp = false, kp = false;
	unsigned int i;

	for (i = 0; i < RS_NR_PROBES; i++) {
		fp |= rs_probes[i].on == RS_BE_FPROBE;
		kp |= rs_probes[i].on == RS_BE_KPROBE;
	}
	return fp && kp ? "fprobe+kprobe" : fp ? "fprobe" : kp ? "kprobe" : "none";
}

u64 rs_probes_nmissed(void)
{
	u64 n = 0;
	unsigned int i;

	for (i = 0; i < RS_NR_PROBES; i++)
		n += rs_probe_nmissed(&rs_probes[i]);
	return n;
}

void rs_probes_show(struct seq_file *m)
{
	unsigned int i;
	int cpu;

	seq_puts(m, "# symbol type state hits nmissed maxactive\n");
	for (i = 0; i < RS_NR_PROBES; i++) {
		struct rs_probe *p = &rs_probes[i];
		u64 hits = 0;

		for_each_possible_cpu(cpu)
			hits += per_cpu(rs_probe_hits, cpu)[i];
		seq_printf(m, "%s %s %s %llu %lu %d\n", p->symbol,
			   rs_probe_type(p), p->on ? "on" : "off", hits,
			   rs_probe_nmissed(p),
			   p->on == RS_BE_KPROBE && p->ret ? p->krp.maxactive : 0);
		if (!p->on)
			seq_printf(m, "#   %s: %s (%d)\n", p->symbol,
				   rs_probe_why(p->err), p->err);
		else if (p->fprobe_err)
			seq_printf(m, "#   %s: fprobe: %s (%d); using a %s\n",
				   p->symbol, rs_probe_why(p->fprobe_err),
				   p->fprobe_err, rs_probe_type(p));
	}
	rs_lockwait_show(m);
}
