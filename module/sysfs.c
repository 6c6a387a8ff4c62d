// SPDX-License-Identifier: GPL-2.0
/*
 * Layer 5 (interface): /sys/kernel/retryscope/, one value per file, for
 * kernels that do not mount debugfs (Android's user builds; Android asks
 * that nothing depend on it):
 *
 *   counters/<name>  each counter of debugfs "stats", summed over CPUs
 *                    since the last reset (attempts_max: the max;
 *                    probe_nmissed: the probes' misses)
 *   reset            write 1: zero every counter and the per-task state
 *   filter           "none", "tgid N" or "comm PREFIX"; write one of them
 *
 * The words are debugfs's (control.c).  Reading a counter takes the reset
 * mutex, as debugfs "stats" does: no probe handler takes it.
 */
#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "control.h"
#include "filter.h"
#include "probes.h"
#include "stats.h"
#include "sysfs.h"

/* counters/: one attribute per counter, then attempts_max and probe_nmissed */
#define RS_SYSFS_EXTRA 2
#define RS_SYSFS_NR (RS_NR_COUNTERS + RS_SYSFS_EXTRA)

struct rs_counter_attr {
	struct kobj_attribute attr;
	unsigned int idx;	/* < RS_NR_COUNTERS: that counter; else extra */
};

static struct kobject *rs_kobj;
static struct rs_counter_attr *rs_cattrs;
static struct attribute **rs_cattr_list;

/* light=1: the counters it cannot count have no file (rs_counter_shown()) */
static umode_t rs_counter_visible(struct kobject *kobj, struct attribute *attr,
				  int n)
{
	if (n < RS_NR_COUNTERS)
		return rs_counter_shown(n) ? attr->mode : 0;
	if (n == RS_NR_COUNTERS)
		return rs_attempts_max_shown() ? attr->mode : 0;
	return attr->mode;
}

static struct attribute_group rs_counters_group = {
	.name = "counters",
	.is_visible = rs_counter_visible,
};

static ssize_t rs_counter_show(struct kobject *kobj, struct kobj_attribute *attr,
			       char *buf)
{
	struct rs_counter_attr *ca = container_of(attr, struct rs_counter_attr, attr);
	u64 v;

	if (ca->idx < RS_NR_COUNTERS)
		v = rs_stats_read_one(ca->idx);
	else if (ca->idx == RS_NR_COUNTERS)
		v = rs_stats_attempts_max();
	else
		v = rs_probes_nmissed();
	return sysfs_emit(buf, "%llu\n", v);
}

static ssize_t reset_store(struct kobject *kobj, struct kobj_attribute *attr,
			   const char *buf, size_t count)
{
	char cmd[4];
	int err = rs_control_line(cmd, sizeof(cmd), buf, count);

	if (!err)
		err = rs_control_reset(cmd);
	return err ? err : count;
}

static ssize_t filter_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	char f[48];
	int n = rs_filter_show(f, sizeof(f));

	/* the filter's own line, without its newline, then sysfs's */
	if (n > 0 && f[n - 1] == '\n')
		f[n - 1] = '\0';
	return sysfs_emit(buf, "%s\n", f);
}

static ssize_t filter_store(struct kobject *kobj, struct kobj_attribute *attr,
			    const char *buf, size_t count)
{
	char cmd[32];
	int err = rs_control_line(cmd, sizeof(cmd), buf, count);

	if (!err)
		err = rs_control_filter(cmd);
	return err ? err : count;
}

static struct kobj_attribute rs_reset_attr = __ATTR_WO(reset);
static struct kobj_attribute rs_filter_attr = __ATTR_RW(filter);

static struct attribute *rs_top_attrs[] = {
	&rs_reset_attr.attr,
	&rs_filter_attr.attr,
	NULL,
};

static const struct attribute_group rs_top_group = { .attrs = rs_top_attrs };

/* The counters' attributes, named from names.h like debugfs "stats". */
static int rs_sysfs_counters(void)
{
	unsigned int i;

	rs_cattrs = kcalloc(RS_SYSFS_NR, sizeof(*rs_cattrs), GFP_KERNEL);
	rs_cattr_list = kcalloc(RS_SYSFS_NR + 1, sizeof(*rs_cattr_list), GFP_KERNEL);
	if (!rs_cattrs || !rs_cattr_list)
		return -ENOMEM;
	for (i = 0; i < RS_SYSFS_NR; i++) {
		struct rs_counter_attr *ca = &rs_cattrs[i];

		sysfs_attr_init(&ca->attr.attr);
		ca->attr.attr.name = i < RS_NR_COUNTERS ? rs_counter_names[i] :
				     i == RS_NR_COUNTERS ? "attempts_max" : "probe_nmissed";
		ca->attr.attr.mode = 0444;
		ca->attr.show = rs_counter_show;
		ca->idx = i;
		rs_cattr_list[i] = &ca->attr.attr;
	}
	rs_counters_group.attrs = rs_cattr_list;
	return sysfs_create_group(rs_kobj, &rs_counters_group);
}

static void rs_sysfs_free(void)
{
	kfree(rs_cattr_list);
	kfree(rs_cattrs);
	rs_cattr_list = NULL;
	rs_cattrs = NULL;
}

int rs_sysfs_init(void)
{
	int err;

	rs_kobj = kobject_create_and_add("retryscope", kernel_kobj);
	if (!rs_kobj)
		return -ENOMEM;
	err = sysfs_create_group(rs_kobj, &rs_top_group);
	if (!err)
		err = rs_sysfs_counters();
	if (err) {
		kobject_del(rs_kobj);
		kobject_put(rs_kobj);
		rs_sysfs_free();
		rs_kobj = NULL;
	}
	return err;
}

void rs_sysfs_exit(void)
{
	/*
	 * The directory and its files go now, before the attributes are
	 * freed: kobject_put() may release the kobject later
	 * (CONFIG_DEBUG_KOBJECT_RELEASE), and a read meanwhile would run
	 * this module's show() on freed attributes.
	 */
	kobject_del(rs_kobj);
	kobject_put(rs_kobj);
	rs_sysfs_free();
	rs_kobj = NULL;
}
