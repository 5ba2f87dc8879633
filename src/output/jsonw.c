/* jsonw.c: see jsonw.h; one space of indent per level keeps files small. */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "model/figures/analysis.h"
#include "output/jsonw.h"
#include "base/text.h"

void
d9o_jw_init(struct d9o_jw *w, FILE *f)
{
	memset(w, 0, sizeof *w);
	w->f = f;
}

/* A new line at the current depth; none inside a flat container. */
static void
indent(struct d9o_jw *w)
{
	if (w->flat > 0 && w->depth >= w->flat)
		return;
	putc('\n', w->f);
	for (int i = 0; i < w->depth; i++)
		putc(' ', w->f);
}

/* Before a value: a comma and a new line unless it follows a key. */
static void
pre(struct d9o_jw *w)
{
	if (w->after_key) {
		w->after_key = 0;
		return;
	}
	if (w->depth > 0) {
		if (w->count[w->depth]++ > 0)
			putc(',', w->f);
		indent(w);
	}
}

static void
open_(struct d9o_jw *w, char c)
{
	pre(w);
	putc(c, w->f);
	if (w->depth + 1 < D9O_JSON_DEPTH)
		w->depth++;
	w->count[w->depth] = 0;
}

void
d9o_jw_obj(struct d9o_jw *w)
{
	open_(w, '{');
}

void
d9o_jw_arr(struct d9o_jw *w)
{
	open_(w, '[');
}

void
d9o_jw_end(struct d9o_jw *w, char close)
{
	int had = w->count[w->depth];
	int flat = w->flat > 0 && w->depth >= w->flat;

	if (w->depth > 0)
		w->depth--;
	if (had && !flat)
		indent(w);
	putc(close, w->f);
	if (w->depth == 0)
		putc('\n', w->f);
}

void
d9o_jw_key(struct d9o_jw *w, const char *k)
{
	pre(w);
	d9_text_put_json(w->f, k, strlen(k));
	fputs(": ", w->f);
	w->after_key = 1;
}

void
d9o_jw_strn(struct d9o_jw *w, const char *s, size_t n)
{
	pre(w);
	d9_text_put_json(w->f, s, n);
}

void
d9o_jw_str(struct d9o_jw *w, const char *s)
{
	d9o_jw_strn(w, s, strlen(s));
}

void
d9o_jw_u64(struct d9o_jw *w, uint64_t v)
{
	pre(w);
	fprintf(w->f, "%" PRIu64, v);
}

void
d9o_jw_i64(struct d9o_jw *w, int64_t v)
{
	pre(w);
	fprintf(w->f, "%" PRId64, v);
}

void
d9o_jw_dbl(struct d9o_jw *w, double v)
{
	pre(w);
	if (isfinite(v))
		fprintf(w->f, "%.17g", v);
	else
		fputs("null", w->f);
}

void
d9o_jw_milli(struct d9o_jw *w, uint64_t v)
{
	pre(w);
	fprintf(w->f, "%" PRIu64 ".%03u", v / 1000, (unsigned)(v % 1000));
}

void
d9o_jw_bool(struct d9o_jw *w, int v)
{
	pre(w);
	fputs(v ? "true" : "false", w->f);
}

void
d9o_jw_null(struct d9o_jw *w)
{
	pre(w);
	fputs("null", w->f);
}

void
d9o_jw_kstr(struct d9o_jw *w, const char *k, const char *s)
{
	d9o_jw_key(w, k);
	if (s != NULL)
		d9o_jw_str(w, s);
	else
		d9o_jw_null(w);
}

void
d9o_jw_ku64(struct d9o_jw *w, const char *k, uint64_t v)
{
	d9o_jw_key(w, k);
	d9o_jw_u64(w, v);
}

void
d9o_jw_kdbl(struct d9o_jw *w, const char *k, double v)
{
	d9o_jw_key(w, k);
	d9o_jw_dbl(w, v);
}

void
d9o_jw_pct(struct d9o_jw *w, const struct d9m_pct *p, int with_count)
{
	d9o_jw_obj(w);
	if (with_count)
		d9o_jw_ku64(w, "count", p->count);
	if (p->count) {
		d9o_jw_ku64(w, "p50", p->p50);
		d9o_jw_ku64(w, "p99", p->p99);
		d9o_jw_ku64(w, "max", p->max);
	} else {
		d9o_jw_key(w, "p50"); d9o_jw_null(w);
		d9o_jw_key(w, "p99"); d9o_jw_null(w);
		d9o_jw_key(w, "max"); d9o_jw_null(w);
	}
}
