// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU counters and the debugfs interface, /sys/kernel/debug/retryscope/:
 *
 *   stats     "name value" per line, summed over CPUs (attempts_max: max)
 *   reset     write 1: zero every counter and the per-task state
 *   probes    each probe: symbol, type, on/off (and why), hits, nmissed
 *   filter    "none", "tgid N" or "comm PREFIX"; write one of them
 *   features  what this kernel has, as found at build and load time
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>

#include "cause.h"
#include "features.h"
#include "probes.h"
#include "stats.h"

DEFINE_PER_CPU(struct rs_stats, rs_stats);

const char * const rs_counter_names[RS_NR_COUNTERS] = {
	[RS_user_faults] = "user_faults",
	[RS_major_faults] = "major_faults",
	[RS_vma_lock_success] = "vma_lock_success",
	[RS_vma_lock_abort] = "vma_lock_abort",
	[RS_vma_lock_retry] = "vma_lock_retry",
	[RS_filemap_fault_calls] = "filemap_fault_calls",
	[RS_filemap_fault_vma_locked] = "filemap_fault_vma_locked",
	[RS_filemap_fault_tried] = "filemap_fault_tried",
	[RS_filemap_fault_nowait] = "filemap_fault_nowait",
	[RS_filemap_fault_retry] = "filemap_fault_retry",
	[RS_filemap_fault_retry_vma] = "filemap_fault_retry_vma",
	[RS_filemap_fault_major] = "filemap_fault_major",
	[RS_filemap_fault_error] = "filemap_fault_error",
	[RS_filemap_fault_random] = "filemap_fault_random",
	[RS_filemap_fault_retry_random] = "filemap_fault_retry_random",
	[RS_swap_fault_calls] = "swap_fault_calls",
	[RS_swap_fault_vma_locked] = "swap_fault_vma_locked",
	[RS_swap_fault_tried] = "swap_fault_tried",
	[RS_swap_fault_nowait] = "swap_fault_nowait",
	[RS_swap_fault_retry] = "swap_fault_retry",
	[RS_swap_fault_retry_vma] = "swap_fault_retry_vma",
	[RS_swap_fault_major] = "swap_fault_major",
	[RS_swap_fault_error] = "swap_fault_error",
	[RS_fault_retry] = "fault_retry",
	[RS_fault_retry_file_io] = "fault_retry_file_io",
	[RS_fault_retry_swap_io] = "fault_retry_swap_io",
	[RS_fault_retry_other] = "fault_retry_other",
	[RS_retry_kept_vma_lock] = "retry_kept_vma_lock",
	[RS_retry_kept_after_file_io] = "retry_kept_after_file_io",
	[RS_retry_kept_after_swap_io] = "retry_kept_after_swap_io",
	[RS_retry_kept_after_other_retry] = "retry_kept_after_other_retry",
	[RS_mmap_lock_fallback] = "mmap_lock_fallback",
	[RS_fallback_vma_abort] = "fallback_vma_abort",
	[RS_fallback_after_file_io] = "fallback_after_file_io",
	[RS_fallback_after_swap_io] = "fallback_after_swap_io",
	[RS_fallback_after_other_retry] = "fallback_after_other_retry",
	[RS_fallback_no_vma_lock] = "fallback_no_vma_lock",
	[RS_attempts_1] = "attempts_1",
	[RS_attempts_2] = "attempts_2",
	[RS_attempts_3] = "attempts_3",
	[RS_attempts_4plus] = "attempts_4plus",
	[RS_faults_abandoned] = "faults_abandoned",
	[RS_mmap_lock_read_acquire] = "mmap_lock_read_acquire",
	[RS_mmap_lock_read_trylock] = "mmap_lock_read_trylock",
	[RS_mmap_lock_read_failed] = "mmap_lock_read_failed",
	[RS_mmap_lock_read_wait_ns] = "mmap_lock_read_wait_ns",
	[RS_mmap_lock_read_wait_lt1us] = "mmap_lock_read_wait_lt1us",
	[RS_mmap_lock_read_wait_1_10us] = "mmap_lock_read_wait_1_10us",
	[RS_mmap_lock_read_wait_10_100us] = "mmap_lock_read_wait_10_100us",
	[RS_mmap_lock_read_wait_100us_1ms] = "mmap_lock_read_wait_100us_1ms",
	[RS_mmap_lock_read_wait_1_10ms] = "mmap_lock_read_wait_1_10ms",
	[RS_mmap_lock_read_wait_10_100ms] = "mmap_lock_read_wait_10_100ms",
	[RS_mmap_lock_read_wait_100ms_1s] = "mmap_lock_read_wait_100ms_1s",
	[RS_mmap_lock_read_wait_1s_plus] = "mmap_lock_read_wait_1s_plus",
	[RS_mmap_lock_write_acquire] = "mmap_lock_write_acquire",
	[RS_mmap_lock_write_trylock] = "mmap_lock_write_trylock",
	[RS_mmap_lock_write_failed] = "mmap_lock_write_failed",
	[RS_mmap_lock_write_wait_ns] = "mmap_lock_write_wait_ns",
	[RS_mmap_lock_write_wait_lt1us] = "mmap_lock_write_wait_lt1us",
	[RS_mmap_lock_write_wait_1_10us] = "mmap_lock_write_wait_1_10us",
	[RS_mmap_lock_write_wait_10_100us] = "mmap_lock_write_wait_10_100us",
	[RS_mmap_lock_write_wait_100us_1ms] = "mmap_lock_write_wait_100us_1ms",
	[RS_mmap_lock_write_wait_1_10ms] = "mmap_lock_write_wait_1_10ms",
	[RS_mmap_lock_write_wait_10_100ms] = "mmap_lock_write_wait_10_100ms",
	[RS_mmap_lock_write_wait_100ms_1s] = "mmap_lock_write_wait_100ms_1s",
	[RS_mmap_lock_write_wait_1s_plus] = "mmap_lock_write_wait_1s_plus",
	[RS_fault_mmap_lock_acquire] = "fault_mmap_lock_acquire",
	[RS_fault_mmap_lock_wait_ns] = "fault_mmap_lock_wait_ns",
	[RS_fault_mmap_lock_wait_ns_rt] = "fault_mmap_lock_wait_ns_rt",
	[RS_fault_mmap_lock_wait_ns_high] = "fault_mmap_lock_wait_ns_high",
	[RS_fault_mmap_lock_wait_ns_normal] = "fault_mmap_lock_wait_ns_normal",
	[RS_fault_mmap_lock_wait_ns_low] = "fault_mmap_lock_wait_ns_low",
	[RS_fault_mmap_lock_acquire_rt] = "fault_mmap_lock_acquire_rt",
	[RS_fault_mmap_lock_acquire_high] = "fault_mmap_lock_acquire_high",
	[RS_fault_mmap_lock_acquire_normal] = "fault_mmap_lock_acquire_normal",
	[RS_fault_mmap_lock_acquire_low] = "fault_mmap_lock_acquire_low",
	[RS_state_collisions] = "state_collisions",
};

static struct dentry *rs_dir;

static int rs_stats_show(struct seq_file *m, void *v)
{
	unsigned int i;
	u64 max = 0;
	int cpu;

	for (i = 0; i < RS_NR_COUNTERS; i++) {
		s64 sum = 0;

		/*
		 * Read while the handlers run, a decrement (see rs_dec())
		 * can be seen before the increment it takes back: a sum
		 * below zero is that race, and shows as 0.
		 */
		for_each_possible_cpu(cpu)
			sum += (s64)per_cpu(rs_stats, cpu).c[i];
		seq_printf(m, "%s %lld\n", rs_counter_names[i], max(sum, 0LL));
	}
	for_each_possible_cpu(cpu)
		max = max(max, per_cpu(rs_stats, cpu).attempts_max);
	seq_printf(m, "attempts_max %llu\n", max);
	seq_printf(m, "probe_nmissed %llu\n", rs_probes_nmissed());
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rs_stats);

void rs_stats_reset(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(&rs_stats, cpu), 0, sizeof(struct rs_stats));
	rs_state_clear_all();
}

/* Copy a short user write into @buf, without the trailing newline. */
static int rs_copy_line(char *buf, size_t size, const char __user *ubuf,
			size_t count)
{
	if (!count || count >= size)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (buf[count - 1] == '\n')
		buf[--count] = '\0';
	return count ? 0 : -EINVAL;
}

static ssize_t rs_reset_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	char buf[4];
	int err = rs_copy_line(buf, sizeof(buf), ubuf, count);

	if (err)
		return err;
	if (strcmp(buf, "1"))
		return -EINVAL;
	rs_stats_reset();
	return count;
}

static const struct file_operations rs_reset_fops = {
	.owner = THIS_MODULE,
	.write = rs_reset_write,
	.llseek = noop_llseek,
};

static int rs_probes_file_show(struct seq_file *m, void *v)
{
	rs_probes_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rs_probes_file);

static int rs_filter_file_show(struct seq_file *m, void *v)
{
	char buf[48];

	rs_filter_show(buf, sizeof(buf));
	seq_puts(m, buf);
	return 0;
}

static int rs_filter_file_open(struct inode *inode, struct file *file)
{
	return single_open(file, rs_filter_file_show, NULL);
}

/* Accepts exactly "none", "tgid N" (N >= 0) or "comm PREFIX" (1-15 chars). */
static ssize_t rs_filter_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	char buf[32];
	int err = rs_copy_line(buf, sizeof(buf), ubuf, count);
	s32 tgid;

	if (err)
		return err;
	if (!strcmp(buf, "none")) {
		rs_filter_clear();
	} else if (!strncmp(buf, "tgid ", 5)) {
		err = kstrtos32(buf + 5, 10, &tgid);
		if (!err)
			err = rs_filter_set_tgid(tgid);
	} else if (!strncmp(buf, "comm ", 5)) {
		if (strpbrk(buf + 5, " \t"))
			err = -EINVAL;
		else
			err = rs_filter_set_comm(buf + 5);
	} else {
		err = -EINVAL;
	}
	return err ? err : count;
}

static const struct file_operations rs_filter_fops = {
	.owner = THIS_MODULE,
	.open = rs_filter_file_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = rs_filter_write,
};

static int rs_features_show(struct seq_file *m, void *v)
{
	seq_printf(m, "per_vma_lock %s\n", RS_HAVE_PER_VMA_LOCK ? "yes" : "no");
	seq_printf(m, "vm_fault_retry_vma %s\n",
		   RS_VM_FAULT_RETRY_VMA_BITS ? "yes" : "no");
	seq_printf(m, "per_vma_lock_stats %s\n",
		   IS_ENABLED(CONFIG_PER_VMA_LOCK_STATS) ? "yes" : "no");
	seq_printf(m, "vm_fault_retry 0x%x\n",
		   (__force unsigned int)VM_FAULT_RETRY);
	seq_printf(m, "vm_fault_retry_vma 0x%x\n", RS_VM_FAULT_RETRY_VMA_BITS);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rs_features);

int rs_debugfs_init(void)
{
	rs_dir = debugfs_create_dir("retryscope", NULL);
	if (IS_ERR(rs_dir))
		return PTR_ERR(rs_dir);
	debugfs_create_file("stats", 0444, rs_dir, NULL, &rs_stats_fops);
	debugfs_create_file("reset", 0200, rs_dir, NULL, &rs_reset_fops);
	debugfs_create_file("probes", 0444, rs_dir, NULL, &rs_probes_file_fops);
	debugfs_create_file("filter", 0644, rs_dir, NULL, &rs_filter_fops);
	debugfs_create_file("features", 0444, rs_dir, NULL, &rs_features_fops);
	return 0;
}

void rs_debugfs_exit(void)
{
	debugfs_remove_recursive(rs_dir);
}
