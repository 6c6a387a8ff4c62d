/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layer 3 (models): the ->fault return probes both models use,
 * filemap_fault(), do_swap_page() and shmem_fault(), and the fault-around's
 * filemap_map_pages().  Each handler is
 * written once, on plain arguments; probes.c calls it from the backend's
 * entry and exit handlers, with @data the per-call data of struct
 * rs_vmf_data.  Their enter handlers always return 0: the filter is
 * applied at the exit (a task taken in while it sleeps in I/O).
 */
#ifndef RETRYSCOPE_IO_FAULT_H
#define RETRYSCOPE_IO_FAULT_H

#include <linux/types.h>

struct rs_vmf_data {
	unsigned long address;
	unsigned int flags;	/* vmf->flags at entry */
	u64 t0;			/* ktime_get_mono_fast_ns() at entry (latency.c) */
	bool random;		/* VM_RAND_READ: no readahead, synchronous read */
	/* filemap_fault(): what it will find (io_fault.c) */
	u8 folio;		/* RS_FOLIO_*: the page cache entry at entry */
	bool no_readahead;	/* a cold fault reads synchronously */
};

int rs_filemap_fault_enter(void *data, unsigned long vmf, unsigned long unused1,
			   unsigned long unused2);
void rs_filemap_fault_exit(void *data, unsigned long retval);
int rs_do_swap_page_enter(void *data, unsigned long vmf, unsigned long unused1,
			  unsigned long unused2);
void rs_do_swap_page_exit(void *data, unsigned long retval);
/* filemap_map_pages(), both models: ends a timed fault (latency.c) */
int rs_map_pages_enter(void *data, unsigned long vmf, unsigned long unused1,
		       unsigned long unused2);
void rs_map_pages_exit(void *data, unsigned long retval);
/* entry model only */
int rs_shmem_fault_enter(void *data, unsigned long vmf, unsigned long unused1,
			 unsigned long unused2);
void rs_shmem_fault_exit(void *data, unsigned long retval);

#endif /* RETRYSCOPE_IO_FAULT_H */
