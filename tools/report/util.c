/* util.c: rs-report's messages (fatal, warn), allocation that cannot fail,
 * reading a file and splitting it into lines, a growing string, and the
 * report's number format; see util.h. */
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void vmessage(const char *kind, const char *fmt, va_list ap)
{
	fprintf(stderr, "rs-report: %s", kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void fatal(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage("", fmt, ap);
	va_end(ap);
	exit(1);
}

void warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage("warning: ", fmt, ap);
	va_end(ap);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		fatal("out of memory");
	return p;
}

void *xcalloc(size_t n, size_t m)
{
	void *p = calloc(n ? n : 1, m ? m : 1);
	if (!p)
		fatal("out of memory");
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		fatal("out of memory");
	return p;
}

char *xstrdup(const char *s)
{
	char *d = strdup(s);
	if (!d)
		fatal("out of memory");
	return d;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		fatal("out of memory");
	va_end(ap);
	return s;
}

char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *buf = xmalloc(cap);
	for (;;) {
		if (n + 1 >= cap)
			buf = xrealloc(buf, cap *= 2);
		size_t r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
		if (r == 0)
			break;
	}
	int err = ferror(f);
	fclose(f);
	if (err) {
		free(buf);
		errno = EIO;
		return NULL;
	}
	buf[n] = 0;
	if (len)
		*len = n;
	return buf;
}

char *next_line(char **p, int *lineno)
{
	char *line = *p;
	if (!line || !*line)
		return NULL;
	char *nl = strchr(line, '\n');
	if (nl)
		*nl = 0;
	*p = nl ? nl + 1 : NULL;
	(*lineno)++;
	size_t l = strlen(line);
	if (l && line[l - 1] == '\r')
		line[--l] = 0;
	return line;
}

void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	for (;;) {
		size_t room = b->cap - b->len;
		va_start(ap, fmt);
		int k = vsnprintf(b->s ? b->s + b->len : NULL, room, fmt, ap);
		va_end(ap);
		if (k < 0)
			fatal("formatting error");
		if ((size_t)k < room) {
			b->len += (size_t)k;
			return;
		}
		b->cap = (b->cap + (size_t)k + 1) * 2;
		b->s = xrealloc(b->s, b->cap);
	}
}

void sb_free(struct sbuf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

static void group(long long v, char *buf, size_t n)
{
	char tmp[64], out[96];
	int neg = v < 0;
	snprintf(tmp, sizeof(tmp), "%lld", neg ? -v : v);
	size_t len = strlen(tmp), o = 0;
	if (neg)
		out[o++] = '-';
	for (size_t i = 0; i < len; i++) {
		if (i && (len - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = tmp[i];
	}
	out[o] = 0;
	snprintf(buf, n, "%s", out);
}

char *fmt_num(double v, char *buf, size_t n)
{
	if (isnan(v))
		snprintf(buf, n, "n/a");
	else if (isinf(v))
		snprintf(buf, n, "%s", v > 0 ? "inf" : "-inf");
	else if (fabs(v) >= 1e15)
		snprintf(buf, n, "%.3g", v);
	else if (v == floor(v) || fabs(v) >= 1000)
		group(llround(v), buf, n);
	else if (fabs(v) >= 10)
		snprintf(buf, n, "%.1f", v);
	else if (fabs(v) >= 0.01)
		snprintf(buf, n, "%.2f", v);
	else
		snprintf(buf, n, "%.3g", v);
	return buf;
}

void md_head(FILE *f, const char *lead, const char *lead_rule, char *const *cols, size_t n,
	     const char *rule)
{
	fputs(lead, f);
	for (size_t k = 0; k < n; k++)
		fprintf(f, " %s |", cols[k]);
	fprintf(f, "\n%s", lead_rule);
	for (size_t k = 0; k < n; k++)
		fputs(rule, f);
	fputc('\n', f);
}
