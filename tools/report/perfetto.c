/* perfetto.c: the JSON Trace Event Format file of rs-trace --perfetto;
 * see perfetto.h.  Events are kept in memory and written at the end,
 * sorted by thread and time, after the tracks' metadata. */
#include "perfetto.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The fault track of thread tid: a tid no thread has (pid_max is at most
 * 2^22). */
#define PF_FAULT_TRACK (1 << 30)

struct pf_ev {
	uint64_t ts, dur;
	int tid;
	char ph;    /* 'X' or 'i' */
	char *name; /* owned */
	char *args; /* owned, or NULL */
};

struct pf_thread {
	int tid, tgid; /* tgid 0: unknown */
	uint64_t mm;
	int proc;      /* process_of(), set by pf_write() */
};

struct pf {
	struct pf_ev *ev;
	size_t n, cap;
	struct pf_thread *th;
	size_t nth, capth;
	int oom;
};

struct pf *pf_new(void)
{
	return calloc(1, sizeof(struct pf));
}

void pf_free(struct pf *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++) {
		free(p->ev[i].name);
		free(p->ev[i].args);
	}
	free(p->ev);
	free(p->th);
	free(p);
}

int pf_oom(const struct pf *p)
{
	return p->oom;
}

static struct pf_thread *thread(struct pf *p, int tid)
{
	for (size_t i = p->nth; i > 0; i--)
		if (p->th[i - 1].tid == tid)
			return &p->th[i - 1];
	if (p->nth == p->capth) {
		size_t n = p->capth ? 2 * p->capth : 64;
		struct pf_thread *t = realloc(p->th, n * sizeof(*t));
		if (!t) {
			p->oom = 1;
			return NULL;
		}
		p->th = t;
		p->capth = n;
	}
	p->th[p->nth] = (struct pf_thread){ tid, 0, 0, 0 };
	return &p->th[p->nth++];
}

static void add(struct pf *p, char ph, int tid, uint64_t ts, uint64_t dur, char *name,
		char *args)
{
	if (!name || !thread(p, tid) || p->oom)
		goto fail;
	if (p->n == p->cap) {
		size_t n = p->cap ? 2 * p->cap : 4096;
		struct pf_ev *e = realloc(p->ev, n * sizeof(*e));
		if (!e)
			goto fail;
		p->ev = e;
		p->cap = n;
	}
	p->ev[p->n++] = (struct pf_ev){ ts, dur, tid, ph, name, args };
	return;
fail:
	p->oom = 1;
	free(name);
	free(args);
}

void pf_span(struct pf *p, const struct ch_span *s, const char *cause)
{
	char *name = NULL;
	const char *mode = s->write ? "write" : "read";
	struct pf_thread *t = thread(p, s->pid);
	if (t && !t->mm)
		t->mm = s->mm;
	if (!s->hold)
		name = strdup(s->write ? "mmap_lock wait write" : "mmap_lock wait read");
	else if (!s->write && s->reason == CH_R_WRITE)
		name = strdup("mmap_lock read: downgraded write");
	else if (asprintf(&name, "mmap_lock %s: %s%s%s", mode, ch_reason_name(s->reason),
			  cause ? " after " : "", cause ? cause : "") < 0)
		name = NULL;
	add(p, 'X', s->pid, s->start, s->end - s->start, name, NULL);
}

void pf_fault(struct pf *p, int tid, uint64_t start, uint64_t dur, const char *name,
	      const char *args)
{
	if (thread(p, tid))
		add(p, 'X', tid | PF_FAULT_TRACK, start, dur, strdup(name),
		    args ? strdup(args) : NULL);
}

void pf_instant(struct pf *p, int tid, uint64_t ts, const char *name, const char *args)
{
	add(p, 'i', tid, ts, 0, strdup(name), args ? strdup(args) : NULL);
}

void pf_tgid(struct pf *p, int tid, int tgid)
{
	struct pf_thread *t = thread(p, tid);
	if (t)
		t->tgid = tgid;
}

/* The process of a thread: its tgid, else the first thread of its mm. */
static int process_of(const struct pf *p, const struct pf_thread *t)
{
	if (t->tgid)
		return t->tgid;
	for (size_t i = 0; t->mm && i < p->nth; i++)
		if (p->th[i].mm == t->mm)
			return p->th[i].tgid ? p->th[i].tgid : p->th[i].tid;
	return t->tid;
}

static int by_thread_time(const void *x, const void *y)
{
	const struct pf_ev *a = x, *b = y;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	return a->ts < b->ts ? -1 : a->ts > b->ts ? 1 : 0;
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

int pf_write(struct pf *p, const char *path, const char *(*comm)(void *, int),
	     int (*prio)(void *, int), void *arg)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	const char *sep = "";
	for (size_t i = 0; i < p->nth; i++)
		if (!(p->th[i].tid & PF_FAULT_TRACK))
			p->th[i].proc = process_of(p, &p->th[i]);
	for (size_t i = 0; i < p->nth; i++)
		if (p->th[i].tid & PF_FAULT_TRACK)
			p->th[i].proc = thread(p, p->th[i].tid & ~PF_FAULT_TRACK)->proc;
	fprintf(f, "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n");
	for (size_t i = 0; i < p->nth; i++, sep = ",\n") {
		const struct pf_thread *t = &p->th[i];
		int tid = t->tid & ~PF_FAULT_TRACK;
		const char *c = comm(arg, tid);
		char label[80];
		snprintf(label, sizeof(label), "%s%s (prio %d)", c ? c : "?",
			 t->tid & PF_FAULT_TRACK ? " faults" : "", prio(arg, tid));
		fprintf(f, "%s{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": %d, \"tid\": %d, "
			   "\"args\": {\"name\": ",
			sep, t->proc, t->tid);
		json_str(f, label);
		fprintf(f, "}}");
	}
	qsort(p->ev, p->n, sizeof(*p->ev), by_thread_time);
	const struct pf_thread *t = NULL;
	for (size_t i = 0; i < p->n; i++, sep = ",\n") {
		const struct pf_ev *e = &p->ev[i];
		if (!t || t->tid != e->tid) /* sorted by thread: one lookup each */
			t = thread(p, e->tid);
		fprintf(f, "%s{\"ph\": \"%c\", \"name\": ", sep, e->ph);
		json_str(f, e->name);
		fprintf(f, ", \"pid\": %d, \"tid\": %d, \"ts\": %llu.%03llu",
			t->proc, e->tid,
			(unsigned long long)(e->ts / 1000), (unsigned long long)(e->ts % 1000));
		if (e->ph == 'X')
			fprintf(f, ", \"dur\": %llu.%03llu", (unsigned long long)(e->dur / 1000),
				(unsigned long long)(e->dur % 1000));
		else
			fprintf(f, ", \"s\": \"t\"");
		if (e->args)
			fprintf(f, ", \"args\": %s", e->args);
		fprintf(f, "}");
	}
	fprintf(f, "\n]}\n");
	if (fclose(f))
		return -1;
	return p->oom ? (errno = ENOMEM, -1) : 0;
}
