/* selftests: the mm selftest table of the report; see selftests.h. */
#include "selftests.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { R_PASS, R_FAIL, R_SKIP, R_TIMEOUT, R_OOPS, R_NOTRUN, R_NR };
static const char *const rnames[R_NR] = { "pass", "fail", "skip", "timeout", "oops", "notrun" };

struct st_test {
	char *name;
	int result;
	long tap_fail; /* failing TAP cases (column 6), -1 when absent */
};

struct st_table {
	int present;
	struct st_test *t;
	size_t n;
	int count[R_NR];
};

static int result_of(const char *s)
{
	for (int i = 0; i < R_NR; i++)
		if (!strcmp(s, rnames[i]))
			return i;
	return -1;
}

static void load_table(struct st_table *tb, const char *path)
{
	size_t len;
	char *buf = read_file(path, &len);
	memset(tb, 0, sizeof(*tb));
	if (!buf) {
		if (errno == ENOENT)
			return;
		fatal("%s: %s", path, strerror(errno));
	}
	tb->present = 1;
	int lineno = 0;
	for (char *p = buf, *nl; p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = 0;
		lineno++;
		if (!*p || *p == '#' || (lineno == 1 && !strncmp(p, "name\tresult", 11)))
			continue;
		char *tab = strchr(p, '\t');
		char *res = tab ? tab + 1 : NULL;
		char *end = res ? strchr(res, '\t') : NULL;
		long tap_fail = -1;
		if (end) {
			/* rc, seconds, tap_pass, then tap_fail */
			char *c = end + 1;
			for (int col = 3; c && col < 6; col++) {
				c = strchr(c, '\t');
				c = c ? c + 1 : NULL;
			}
			if (c && *c >= '0' && *c <= '9')
				tap_fail = strtol(c, NULL, 10);
		}
		if (!tab || tab == p || !res)
			fatal("%s:%d: malformed line (want name<TAB>result<TAB>...): \"%s\"", path,
			      lineno, p);
		*tab = 0;
		if (end)
			*end = 0;
		int r = result_of(res);
		if (r < 0)
			fatal("%s:%d: unknown result \"%s\" for %s (want pass, fail, skip, timeout, "
			      "oops or notrun)",
			      path, lineno, res, p);
		for (size_t i = 0; i < tb->n; i++)
			if (!strcmp(tb->t[i].name, p))
				fatal("%s:%d: test \"%s\" appears twice", path, lineno, p);
		tb->t = xrealloc(tb->t, (tb->n + 1) * sizeof(*tb->t));
		tb->t[tb->n].name = xstrdup(p);
		tb->t[tb->n].result = r;
		tb->t[tb->n].tap_fail = tap_fail;
		tb->n++;
		tb->count[r]++;
	}
	free(buf);
}

static const struct st_test *find(const struct st_table *tb, const char *name)
{
	for (size_t i = 0; i < tb->n; i++)
		if (!strcmp(tb->t[i].name, name))
			return &tb->t[i];
	return NULL;
}

static int bad(int r)
{
	return r == R_FAIL || r == R_TIMEOUT || r == R_OOPS;
}

int selftests_report(const struct results *res, struct sbuf *marks, FILE *f)
{
	struct st_table *tb = xcalloc(res->nk, sizeof(*tb));
	int any = 0, marked = 0;
	for (size_t k = 0; k < res->nk; k++) {
		char *p = xasprintf("%s/%s/selftests/selftests.tsv", res->dir, res->kernels[k]);
		load_table(&tb[k], p);
		free(p);
		any |= tb[k].present;
	}
	if (!any) {
		free(tb);
		return 0;
	}
	const char *b = res->kernels[0];
	fprintf(f, "\n## Safety: the kernel's mm selftests\n\n"
		   "tools/testing/selftests/mm of the same 7.3 source, each binary run once in the VM "
		   "(scripts/selftests). skip is kselftest's exit 4; timeout and oops count as "
		   "failures.\n\n"
		   "| kernel | pass | fail | skip | timeout | oops | not run | worse than %s | better "
		   "than %s |\n|---|---:|---:|---:|---:|---:|---:|---|---|\n",
		   b, b);
	for (size_t k = 0; k < res->nk; k++) {
		const struct st_table *t = &tb[k];
		if (!t->present) {
			fprintf(f, "| %s | — | — | — | — | — | — | selftests not run | |\n",
				res->kernels[k]);
			continue;
		}
		struct sbuf worse = { 0 }, better = { 0 };
		for (size_t i = 0; k > 0 && i < t->n; i++) {
			const struct st_test *bt = tb[0].present ? find(&tb[0], t->t[i].name) : NULL;
			int br = bt ? bt->result : -1;
			int r = t->t[i].result;
			long tf = t->t[i].tap_fail, btf = bt ? bt->tap_fail : -1;
			if (bad(r) && (br == R_PASS || br == R_SKIP))
				sb_printf(&worse, "%s%s (%s, %s on %s)", worse.s ? ", " : "",
					  t->t[i].name, rnames[r], rnames[br], b);
			else if (r == R_PASS && br == R_PASS && tf > btf && btf >= 0)
				sb_printf(&worse, "%s%s (%ld failing cases, %ld on %s)",
					  worse.s ? ", " : "", t->t[i].name, tf, btf, b);
			else if (r == R_PASS && br >= 0 && bad(br))
				sb_printf(&better, "%s%s (%s on %s)", better.s ? ", " : "",
					  t->t[i].name, rnames[br], b);
		}
		fprintf(f, "| %s | %d | %d | %d | %d | %d | %d | %s | %s |\n", res->kernels[k],
			t->count[R_PASS], t->count[R_FAIL], t->count[R_SKIP], t->count[R_TIMEOUT],
			t->count[R_OOPS], t->count[R_NOTRUN], k ? (worse.s ? worse.s : "none") : "—",
			k ? (better.s ? better.s : "none") : "—");
		if (t->count[R_OOPS] || worse.s) {
			marked++;
			sb_printf(marks, "- **%s: ", res->kernels[k]);
			if (t->count[R_OOPS]) {
				sb_printf(marks, "kernel oops/BUG/WARNING during selftests:");
				for (size_t i = 0; i < t->n; i++)
					if (t->t[i].result == R_OOPS)
						sb_printf(marks, " %s", t->t[i].name);
				sb_printf(marks, "%s", worse.s ? "; " : "");
			}
			if (worse.s)
				sb_printf(marks, "fails selftests that pass on %s: %s", b, worse.s);
			sb_printf(marks, "**\n");
		}
		sb_free(&worse);
		sb_free(&better);
	}
	fprintf(f, "\nPer-test results and logs: `<kernel>/selftests/` (`selftests.tsv`, one "
		   "`.log` and `.dmesg` per test).\n");
	for (size_t k = 0; k < res->nk; k++) {
		for (size_t i = 0; i < tb[k].n; i++)
			free(tb[k].t[i].name);
		free(tb[k].t);
	}
	free(tb);
	return marked;
}
