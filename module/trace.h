/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layer 1 (trace events): system "retryscope".
 *
 *   trace-cmd record -e retryscope -e mmap_lock ...
 *
 * records them next to the kernel's mmap_lock events; KernelShark shows them
 * on the task's timeline.  cause is one of enum rs_cause (names.h), shown
 * by name: TRACE_DEFINE_ENUM exports each value so that user space (the
 * format file, trace-cmd, perf) can print it.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM retryscope

#if !defined(_RETRYSCOPE_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _RETRYSCOPE_TRACE_H

#include <linux/tracepoint.h>

#include "stats.h"

/*
 * Each cause's value, for user space to read the print format below.
 * (One line each: a TRACE_DEFINE_ENUM in a list macro would need a
 * trailing semicolon in the macro.)  count.c breaks the build when
 * RS_CAUSE_LIST grows and this list does not.
 */
TRACE_DEFINE_ENUM(RS_CAUSE_none);
TRACE_DEFINE_ENUM(RS_CAUSE_vma_abort);
TRACE_DEFINE_ENUM(RS_CAUSE_file_io);
TRACE_DEFINE_ENUM(RS_CAUSE_swap_io);
TRACE_DEFINE_ENUM(RS_CAUSE_other_retry);
TRACE_DEFINE_ENUM(RS_CAUSE_no_vma_lock);
TRACE_DEFINE_ENUM(RS_CAUSE_not_io);
#define RS_TRACE_CAUSES_EXPORTED 7

#undef RS_CAUSE
#undef RS_CAUSE_LAST
#define RS_CAUSE(name) { RS_CAUSE_##name, #name },
#define RS_CAUSE_LAST(name) { RS_CAUSE_##name, #name }

#define rs_show_cause(c) __print_symbolic(c, RS_CAUSE_LIST)

/* The outcomes of a timed fault (stats.h), for retryscope_fault_done. */
TRACE_DEFINE_ENUM(RS_LAT_first);
TRACE_DEFINE_ENUM(RS_LAT_vma_lock);
TRACE_DEFINE_ENUM(RS_LAT_mmap_lock);
#define RS_TRACE_LAT_OUTCOMES_EXPORTED 3

#define rs_show_lat_outcome(o)						\
	__print_symbolic(o, { RS_LAT_first, "first" },			\
			 { RS_LAT_vma_lock, "vma_lock" },		\
			 { RS_LAT_mmap_lock, "mmap_lock" })

/* handle_mm_fault() returned VM_FAULT_RETRY. */
TRACE_EVENT(retryscope_fault_retry,
	    TP_PROTO(unsigned long address, unsigned int cause, unsigned int flags,
		     unsigned int ret, unsigned int attempt, bool kept_vma_lock),
	    TP_ARGS(address, cause, flags, ret, attempt, kept_vma_lock),
	    TP_STRUCT__entry(__field(u64, address)
			     __field(u32, tgid)
			     __field(u32, cause)
			     __field(u32, flags)
			     __field(u32, ret)
			     __field(u32, attempt)
			     __field(u32, kept_vma_lock)),
	    TP_fast_assign(__entry->address = address;
			   __entry->tgid = current->tgid;
			   __entry->cause = cause;
			   __entry->flags = flags;
			   __entry->ret = ret;
			   __entry->attempt = attempt;
			   __entry->kept_vma_lock = kept_vma_lock;),
	    TP_printk("tgid=%u address=0x%llx cause=%s flags=0x%x ret=0x%x attempt=%u kept_vma_lock=%u",
		      __entry->tgid, __entry->address,
		      rs_show_cause(__entry->cause), __entry->flags,
		      __entry->ret, __entry->attempt, __entry->kept_vma_lock)
);

/* A fault-path event with an address, a cause and the attempt number. */
DECLARE_EVENT_CLASS(retryscope_fault_step,
		    TP_PROTO(unsigned long address, unsigned int cause,
			     unsigned int attempt),
		    TP_ARGS(address, cause, attempt),
		    TP_STRUCT__entry(__field(u64, address)
				     __field(u32, tgid)
				     __field(u32, cause)
				     __field(u32, attempt)),
		    TP_fast_assign(__entry->address = address;
				   __entry->tgid = current->tgid;
				   __entry->cause = cause;
				   __entry->attempt = attempt;),
		    TP_printk("tgid=%u address=0x%llx cause=%s attempt=%u",
			      __entry->tgid, __entry->address,
			      rs_show_cause(__entry->cause), __entry->attempt)
);

/* A retry took the VMA lock again (lock_vma_under_rcu() after a retry). */
DEFINE_EVENT(retryscope_fault_step, retryscope_retry_kept,
	     TP_PROTO(unsigned long address, unsigned int cause,
		      unsigned int attempt),
	     TP_ARGS(address, cause, attempt)
);

/* The arch fault handler took mmap_lock (lock_mm_and_find_vma()). */
DEFINE_EVENT(retryscope_fault_step, retryscope_mmap_fallback,
	     TP_PROTO(unsigned long address, unsigned int cause,
		      unsigned int attempt),
	     TP_ARGS(address, cause, attempt)
);

/*
 * A fault that latency.c timed has finished: outcome first, vma_lock or
 * mmap_lock (the lock its last attempt held), cause file_io or swap_io,
 * latency_ns from its first ->fault's entry (the event's time is its end).
 */
TRACE_EVENT(retryscope_fault_done,
	    TP_PROTO(unsigned long address, unsigned int cause,
		     unsigned int outcome, u64 latency_ns),
	    TP_ARGS(address, cause, outcome, latency_ns),
	    TP_STRUCT__entry(__field(u64, address)
			     __field(u64, latency_ns)
			     __field(u32, tgid)
			     __field(u32, cause)
			     __field(u32, outcome)),
	    TP_fast_assign(__entry->address = address;
			   __entry->latency_ns = latency_ns;
			   __entry->tgid = current->tgid;
			   __entry->cause = cause;
			   __entry->outcome = outcome;),
	    TP_printk("tgid=%u address=0x%llx cause=%s outcome=%s latency_ns=%llu",
		      __entry->tgid, __entry->address,
		      rs_show_cause(__entry->cause),
		      rs_show_lat_outcome(__entry->outcome),
		      __entry->latency_ns)
);

/*
 * A counter's total since the last reset, every totals_ms (main.c) for
 * the counters that changed (all of them in the first period the event is
 * on): a Perfetto or trace-cmd recording then carries the module's totals
 * without debugfs.  name is a counter of names.h, as in debugfs "stats".
 */
TRACE_EVENT(retryscope_counter,
	    TP_PROTO(const char *name, u64 value),
	    TP_ARGS(name, value),
	    TP_STRUCT__entry(__string(name, name)
			     __field(u64, value)),
	    TP_fast_assign(__assign_str(name);
			   __entry->value = value;),
	    TP_printk("%s=%llu", __get_str(name), __entry->value)
);

#endif /* _RETRYSCOPE_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
