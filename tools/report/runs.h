/* runs: load RESULTS_DIR/<kernel>/<scenario>/<n>/ into memory.
 *
 * Files of one run (all optional except that a run without `status` is
 * taken as failed):
 *   status            written by the host, key=value lines:
 *                       result=ok|lossy|failed
 *                       reason=<one line; may be empty for ok>
 *                       crash=none|panic|oops|hang|... (what killed the
 *                         guest during the run; absent or empty: none)
 *                     other keys are ignored.  The old form (older runs):
 *                     first line "ok", "lossy: <reason>" or "failed: <reason>"
 *   meta              the guest's key=value lines (old runs: the host's too)
 *   meta.host         the host's key=value lines (config_hash, accel,
 *                     qemu_cpu, base); merged with meta, the host's value
 *                     first when both have a key
 *   stats.before/after   module counters, "name value" per line
 *   vmstat.before/after  /proc/vmstat, same format
 *   latency           the module's per-fault latency histogram (debugfs
 *                     "latency": "outcome cause lo_ns hi_ns faults" lines)
 *   workload.json     faultload's output
 *   trace.json        rs-trace's output
 * A malformed file stops the program with file and line.
 */
#ifndef RS_RUNS_H
#define RS_RUNS_H

#include "rsnames.h"
#include "stats.h"

#include <stddef.h>

struct counter {
	char *name;
	double before, after; /* NaN where the file lacks the name */
};

struct counters {
	struct counter *v;
	size_t n, cap;
	int have_before, have_after; /* files present */
};

struct latency {
	int present;
	double count, min, max, mean, p50, p90, p99, p999; /* ns, NaN if absent */
	struct st_hist hist; /* ns buckets, merged across threads */
};

/* The module's per-fault latency of one run, by outcome and cause. */
struct fault_lat {
	int present; /* the run has a latency file */
	struct st_hist h[RS_NLAT_OUTCOMES][RS_NLAT_CAUSES]; /* ns */
};
struct wclass {
	char *name;
	double threads, ops, minflt, majflt, errors;
	struct latency lat;
};

struct workload {
	int present;
	char *scenario;
	struct wclass *c;
	size_t n;
	double wall_s, throughput, faults_per_s;
};

struct trace_mode {
	double acquire, trylock, failed, wait_ns_total, wait_ns_max;
	double hist[8];
};

/* One entry of trace.json's wait_chains.totals (see tools/report/chains.h). */
struct chain_total {
	char *waiter, *member, *role, *reason, *cause; /* cause: "" unless a fallback */
	double chains, wait_ns, overlap_ns, preempted_ns, sleeping_ns;
};

/* One of wait_chains.longest, as one line of text for the report. */
struct chain_line {
	double wait_ns;
	char *text;
};

struct trace_sum {
	int present;        /* trace.json exists */
	int have_mmap_lock; /* and has mmap_lock statistics */
	struct trace_mode mode[2];
	int have_by_comm;   /* mmap_lock.by_comm: per task name */
	struct trace_mode hi[2]; /* by_comm's fl-hi (zero when it is absent) */
	struct trace_mode forker[2]; /* by_comm's fl-main: the thread that forks in the
				      * fork scenarios (zero when it is absent) */
	int have_chains;    /* wait_chains */
	double chain_threshold_ns, chain_waits, chain_waits_1ms;
	double chain_wait_ns, chain_uncovered_ns; /* over the chains */
	struct chain_total *ct;
	size_t nct;
	struct chain_line *cl;
	size_t ncl;
	double lost_events;
};

struct kv {
	char *key, *value;
	int line; /* in its file */
};

enum run_status { RUN_OK, RUN_LOSSY, RUN_FAILED };

struct run {
	char *kernel, *scenario, *name, *dir;
	enum run_status status;
	char *reason; /* lossy/failed reason, "" for ok */
	char *crash;  /* what killed the guest ("panic", "oops", "hang", ...), NULL
		       * for none; old status form: "panic" or "oops" when a failed
		       * run's reason says so */
	int status_keys; /* status was of the key=value form */
	struct counters stats, vmstat;
	struct workload wl;
	struct fault_lat flat;
	struct trace_sum tr;
	struct kv *meta;
	size_t nmeta;
};

/* Whether the report's figures take run r: ok, and no trace events lost.  A
 * failed run has no figures; a lossy one's are short (probes missed, a
 * full task table, host I/O inside its window, trace events lost), so it
 * is listed and left out, never averaged in. */
int run_counted(const struct run *r);

struct results {
	char *dir;
	struct run *r;
	size_t n;
	char **kernels; /* sorted, baseline first after results_order() */
	size_t nk;
	char **scenarios; /* sorted */
	size_t ns;
};

/* Load; fatal() on a missing dir, no runs, or a malformed file. */
void results_load(struct results *res, const char *dir);
/* Put baseline first in kernels[]; returns 0, or -1 if it is absent. */
int results_baseline_first(struct results *res, const char *baseline);
/* Put the kernels named in list (space or comma separated) first, in that
 * order; returns -1 (after a warning per name) if one has no runs. */
int results_order(struct results *res, const char *list);
void results_free(struct results *res);

/* Counter delta (after - before), or after only; NaN when missing. */
double counter_delta(const struct counters *c, const char *name);
double counter_after(const struct counters *c, const char *name);
const char *meta_get(const struct run *r, const char *key);
const struct wclass *workload_class(const struct workload *w, const char *name);

#endif
