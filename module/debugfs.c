// SPDX-License-Identifier: GPL-2.0
/*
 * Layer 5 (interface): the debugfs files, /sys/kernel/debug/retryscope/:
 *
 *   stats     "name value" per line, summed over CPUs (attempts_max: max)
 *   reset     write 1: zero every counter and the per-task state
 *   probes    each probe: symbol, type, on/off (and why), hits, nmissed
 *   filter    "none", "tgid N" or "comm PREFIX"; write one of them
 *   features  what this kernel has, as found at build and load time
 *   latency   per-fault latency (latency.c): "outcome cause lo_ns hi_ns
 *             faults" per non-empty bucket, summed over CPUs
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "control.h"
#include "debugfs.h"
#include "features.h"
#include "filter.h"
#include "latency.h"
#include "probes.h"
#include "stats.h"
#include "tracepoints.h"

static struct dentry *rs_dir;

static int rs_stats_show(struct seq_file *m, void *v)
{
	u64 *sums = kmalloc_array(RS_NR_COUNTERS, sizeof(*sums), GFP_KERNEL);
	unsigned int i;

	if (!sums)
		return -ENOMEM;
	rs_stats_read(sums);
	for (i = 0; i < RS_NR_COUNTERS; i++)
		if (rs_counter_shown(i))
			seq_printf(m, "%s %llu\n", rs_counter_names[i], sums[i]);
	kfree(sums);
	if (rs_attempts_max_shown())
		seq_printf(m, "attempts_max %llu\n", rs_stats_attempts_max());
	seq_printf(m, "probe_nmissed %llu\n", rs_probes_nmissed());
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rs_stats);

static int rs_latency_show(struct seq_file *m, void *v)
{
	struct rs_lat_hist *h = kmalloc(sizeof(*h), GFP_KERNEL);
	unsigned int o, c, b;
	u64 lo, hi;

	if (!h)
		return -ENOMEM;
	rs_lat_read(h);
	seq_puts(m, "# outcome cause lo_ns hi_ns faults\n");
	for (o = 0; o < RS_NR_LAT_OUTCOMES; o++)
		for (c = 0; c < RS_NR_LAT_CAUSES; c++)
			for (b = 0; b < RS_LAT_BUCKETS; b++) {
				if (!h->n[o][c][b])
					continue;
				rs_lat_bucket_range(b, &lo, &hi);
				seq_printf(m, "%s %s %llu %llu %llu\n",
					   rs_lat_outcome_names[o],
					   rs_lat_cause_names[c], lo, hi,
					   h->n[o][c][b]);
			}
	kfree(h);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rs_latency);

/* Copy a short user write into @buf, without the trailing newline. */
static int rs_copy_line(char *buf, size_t size, const char __user *ubuf,
			size_t count)
{
	char tmp[32];

	if (!count || count >= sizeof(tmp))
		return -EINVAL;
	if (copy_from_user(tmp, ubuf, count))
		return -EFAULT;
	return rs_control_line(buf, size, tmp, count);
}

static ssize_t rs_reset_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	char buf[4];
	int err = rs_copy_line(buf, sizeof(buf), ubuf, count);

	if (!err)
		err = rs_control_reset(buf);
	return err ? err : count;
}

static const struct file_operations rs_reset_fops = {
	.owner = THIS_MODULE,
	.write = rs_reset_write,
	.llseek = noop_llseek,
};

static int rs_probes_file_show(struct seq_file *m, void *v)
{
	rs_probes_show(m);
	rs_tracepoints_show(m);
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

	if (!err)
		err = rs_control_filter(buf);
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
	seq_printf(m, "filemap_fault_retry_vma %s\n",
		   RS_FILEMAP_RETRY_VMA_BITS ? "yes" : "no");
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
	debugfs_create_file("latency", 0444, rs_dir, NULL, &rs_latency_fops);
	return 0;
}

void rs_debugfs_exit(void)
{
	debugfs_remove_recursive(rs_dir);
}
