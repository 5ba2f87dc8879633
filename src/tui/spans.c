/*
 * spans.c: see spans.h. Span ids are matched through a small open
 * addressing table; a close forgets the id so it can be reused.
 */
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "base/vec.h"
#include "tui/index.h"
#include "tui/list.h"
#include "tui/spans.h"

void
d9t_fields_text(const struct d9m_model *m, uint32_t fields, char *out,
    size_t cap)
{
	uint32_t len;
	const char *p = d9_intern_str(&m->lists, fields, &len);
	size_t n = 0;

	if (cap == 0)
		return;
	out[0] = '\0';
	if (fields == D9_NONE)
		return;
	for (uint32_t i = 0; i + 8 <= len && n + 4 < cap; i += 8) {
		uint64_t kv;
		const char *k, *v;

		memcpy(&kv, p + i, 8);
		k = d9m_str(m, (uint32_t)(kv >> 32));
		v = d9m_str(m, (uint32_t)kv);
		if (n)
			out[n++] = ' ';
		n += d9_text_safe(out + n, cap - n, k, strlen(k));
		if (n + 2 < cap)
			out[n++] = '=';
		n += d9_text_safe(out + n, cap - n, v, strlen(v));
	}
	out[n < cap ? n : cap - 1] = '\0';
}

struct open_span {
	uint64_t	id;
	uint32_t	inst;		/* instance + 1, 0 = free slot */
	uint8_t		open;
};

static struct open_span *
find_slot(struct open_span *t, size_t ns, uint64_t id)
{
	size_t k = (size_t)(id * 0x9e3779b97f4a7c15ull >> 20) & (ns - 1);

	while (t[k].inst && t[k].id != id)
		k = (k + 1) & (ns - 1);
	return &t[k];
}

static int
cmp_span(const void *x, const void *y)
{
	const struct d9t_span *a = x, *b = y;
	uint64_t da = a->end - a->start, db = b->end - b->start;

	if (a->name != b->name)
		return a->name < b->name ? -1 : 1;
	if (da != db)
		return da > db ? -1 : 1;
	return a->start < b->start ? -1 : a->start > b->start;
}

static int
cmp_name(const void *x, const void *y)
{
	const struct d9t_span_name *a = x, *b = y;

	if (a->dur.count != b->dur.count)
		return a->dur.count > b->dur.count ? -1 : 1;
	return a->name < b->name ? -1 : a->name > b->name;
}

/* Pair enters and exits of the window into s->v (end 0: never exited). */
static int
pair(const struct d9m_model *m, uint64_t lo, uint64_t hi, struct d9t_spans *s,
    size_t *cap)
{
	const struct d9m_spanev *e = &m->spanev;
	size_t i = d9t_lower(e->ts, e->n, lo), ns = 1024, live = 0;
	struct open_span *t = calloc(ns, sizeof *t);

	if (t == NULL)
		return -1;
	for (; i < e->n && e->ts[i] <= hi; i++) {
		struct open_span *o = find_slot(t, ns, e->span_id[i]);
		struct d9t_span *sp;

		if (e->kind[i] == D9M_SPAN_CLOSE) {
			if (o->inst) {
				/* tombstone: keep the chain, forget the id */
				o->id = ~(uint64_t)0 - (uint64_t)i;
				o->open = 0;
			}
			continue;
		}
		if (e->kind[i] == D9M_SPAN_EXIT) {
			if (o->inst && o->open) {
				sp = &s->v[o->inst - 1];
				sp->end = e->ts[i];
				if (e->fields[i] != D9_NONE)
					sp->fields = e->fields[i];
				o->open = 0;
			}
			continue;
		}
		if (o->inst) {
			o->open = 1;	/* re-entered: keep the first enter */
			continue;
		}
		if (live * 2 >= ns) {
			/* grow: re-insert every slot */
			struct open_span *nt = calloc(ns * 2, sizeof *nt);

			if (nt == NULL)
				goto oom;
			for (size_t k = 0; k < ns; k++)
				if (t[k].inst)
					*find_slot(nt, ns * 2, t[k].id) = t[k];
			free(t);
			t = nt;
			ns *= 2;
			o = find_slot(t, ns, e->span_id[i]);
		}
		if (d9_grow(&s->v, cap, s->n + 1, sizeof *s->v) < 0)
			goto oom;
		sp = &s->v[s->n++];
		sp->start = e->ts[i];
		sp->end = 0;
		sp->name = e->name[i];
		sp->worker = e->worker[i];
		sp->fields = e->fields[i];
		o->id = e->span_id[i];
		o->inst = (uint32_t)s->n;
		o->open = 1;
		live++;
	}
	free(t);
	return 0;
oom:
	free(t);
	return -1;
}

struct d9t_spans *
d9t_spans_build(const struct d9m_model *m, uint64_t lo, uint64_t hi,
    const char *filter)
{
	struct d9t_spans *s = calloc(1, sizeof *s);
	size_t cap = 0, k = 0, nn = 0;
	uint64_t *d;

	if (s == NULL || pair(m, lo, hi, s, &cap) < 0)
		goto oom;
	for (size_t i = 0; i < s->n; i++) {
		char txt[512];

		if (s->v[i].end == 0) {
			s->unmatched++;
			continue;
		}
		if (filter && *filter) {
			d9t_fields_text(m, s->v[i].fields, txt, sizeof txt);
			if (!d9t_contains(txt, filter))
				continue;
		}
		s->v[k++] = s->v[i];
	}
	s->n = k;
	qsort(s->v, s->n, sizeof *s->v, cmp_span);
	s->names = calloc(s->n ? s->n : 1, sizeof *s->names);
	d = malloc((s->n ? s->n : 1) * sizeof *d);
	if (s->names == NULL || d == NULL) {
		free(d);
		goto oom;
	}
	for (size_t i = 0; i < s->n; ) {
		size_t j = i;

		while (j < s->n && s->v[j].name == s->v[i].name) {
			d[j] = s->v[j].end - s->v[j].start;
			j++;
		}
		s->names[nn].name = s->v[i].name;
		s->names[nn].first = i;
		d9m_pct_of(d + i, j - i, &s->names[nn].dur);
		nn++;
		i = j;
	}
	free(d);
	s->nnames = nn;
	qsort(s->names, nn, sizeof *s->names, cmp_name);
	return s;
oom:
	d9t_spans_free(&s);
	return NULL;
}

void
d9t_spans_free(struct d9t_spans **ps)
{
	if (*ps == NULL)
		return;
	free((*ps)->v);
	free((*ps)->names);
	free(*ps);
	*ps = NULL;
}
