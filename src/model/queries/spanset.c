/*
 * spanset.c: see spanset.h. The lives are paired once per model
 * (spans.c) and sorted by first enter, so a window's instances are a
 * binary search away; grouping them costs what the window holds.
 */
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "base/vec.h"
#include "model/core/table.h"
#include "model/queries/spanset.h"

uint32_t
d9m_field(const struct d9m_model *m, uint32_t fields, uint32_t key)
{
	uint32_t len;
	const char *p;

	if (key == D9_NONE || fields == D9_NONE)
		return D9_NONE;
	p = d9_intern_str(&m->lists, fields, &len);
	for (uint32_t i = 0; i + 8 <= len; i += 8) {
		uint64_t kv;

		memcpy(&kv, p + i, 8);
		if ((uint32_t)(kv >> 32) == key)
			return (uint32_t)kv;
	}
	return D9_NONE;
}

void
d9m_fields_text(const struct d9m_model *m, uint32_t fields, char *out,
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

int
d9m_spanset_order(const struct d9m_model *m, const struct d9m_pct *da,
    uint32_t na, const struct d9m_pct *db, uint32_t nb)
{
	if (da->count != db->count)
		return da->count > db->count ? -1 : 1;
	return d9m_str_cmp(m, na, nb);
}

static int
cmp_name(const void *x, const void *y, void *ctx)
{
	const struct d9m_span_name *a = x, *b = y;

	return d9m_spanset_order(ctx, &a->dur, a->name, &b->dur, b->name);
}

/* The lives that first enter in the window, and those of them that
 * never exited; with a filter, only those whose fields contain it. */
static int
take(const struct d9m_model *m, const struct d9m_window *w,
    const char *filter, struct d9m_spanset *s)
{
	const struct d9m_spans *sp = &m->spans;
	uint32_t unknown = d9_intern_find(&m->strs, "unknown", 7);
	size_t i0, i1, o0, o1;

	d9m_window_rows(sp->open_ts, sp->nopen, w, &o0, &o1);
	s->unmatched = o1 - o0;
	d9m_window_rows(sp->start, sp->n, w, &i0, &i1);
	s->v = malloc((i1 - i0 + 1) * sizeof *s->v);
	if (s->v == NULL)
		return -1;
	for (size_t i = i0; i < i1; i++) {
		struct d9m_span *x = &s->v[s->n];

		if (filter && *filter) {
			char txt[512];

			d9m_fields_text(m, sp->fields[i], txt, sizeof txt);
			if (!d9_text_contains(txt, filter))
				continue;
		}
		x->start = sp->start[i];
		x->end = sp->start[i] + sp->dur[i];
		x->active = sp->active[i];
		x->name = sp->name[i] != D9_NONE ? sp->name[i] : unknown;
		x->worker = sp->worker[i];
		x->fields = sp->fields[i];
		x->row = (uint32_t)i;
		s->n++;
	}
	return 0;
}

static uint64_t
dur(const struct d9m_span *sp)
{
	return sp->end - sp->start;
}

static int
cmp_name_id(const void *x, const void *y)
{
	const struct d9m_span_name *a = x, *b = y;

	return a->name < b->name ? -1 : a->name > b->name;
}

/* One entry per name in s->names, by name id, each counting its
 * instances and saying where they start; slot: name id (strs.n for
 * none) -> entry, D9_NONE before. */
static void
count_names(const struct d9m_model *m, struct d9m_spanset *s, uint32_t *slot)
{
	size_t nn = 0;

	for (size_t i = 0; i < s->n; i++) {
		uint32_t k = s->v[i].name == D9_NONE ? (uint32_t)m->strs.n :
		    s->v[i].name;

		if (slot[k] == D9_NONE) {
			s->names[nn].name = s->v[i].name;
			slot[k] = (uint32_t)nn++;
		}
		s->names[slot[k]].dur.count++;
	}
	qsort(s->names, nn, sizeof *s->names, cmp_name_id);
	for (size_t i = 0, sum = 0; i < nn; i++) {
		uint32_t k = s->names[i].name == D9_NONE ?
		    (uint32_t)m->strs.n : s->names[i].name;

		slot[k] = (uint32_t)i;
		s->names[i].first = sum;
		sum += s->names[i].dur.count;
	}
	s->nnames = nn;
}

/* Order instances by name, then longest first, then start (they come by
 * start): a stable radix sort by length, then each instance goes to its
 * name's place (few names). */
static int
sort_instances(const struct d9m_model *m, struct d9m_spanset *s,
    uint32_t *slot)
{
	size_t n = s->n, *fill = calloc(s->nnames + 1, sizeof *fill);
	uint64_t *key = malloc((n ? n : 1) * sizeof *key);
	uint32_t *p = malloc((n ? n : 1) * sizeof *p);
	struct d9m_span *v = malloc((n ? n : 1) * sizeof *v);
	int rc = -1;

	if (fill == NULL || key == NULL || p == NULL || v == NULL)
		goto out;
	for (size_t i = 0; i < n; i++)
		key[i] = UINT64_MAX - dur(&s->v[i]);
	if (d9m_sort_perm(key, n, p) < 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		const struct d9m_span *sp = &s->v[p[i]];
		uint32_t k = slot[sp->name == D9_NONE ? (uint32_t)m->strs.n :
		    sp->name];

		v[s->names[k].first + fill[k]++] = *sp;
	}
	/* the sorted copy takes the place of the old, freed below */
	{
		struct d9m_span *old = s->v;

		s->v = v;
		v = old;
	}
	rc = 0;
out:
	free(fill);
	free(key);
	free(p);
	free(v);
	return rc;
}

/* Percentiles of n instances longest first, at d9m_pct_of's ranks. */
static void
pct_desc(const struct d9m_span *v, size_t n, struct d9m_pct *out)
{
	memset(out, 0, sizeof *out);
	out->count = n;
	if (n == 0)
		return;
	out->p50 = dur(&v[n - d9m_rank(n, 50)]);
	out->p99 = dur(&v[n - d9m_rank(n, 99)]);
	out->max = dur(&v[0]);
}

struct d9m_spanset *
d9m_spanset_build(const struct d9m_model *m, const struct d9m_query *q)
{
	const struct d9m_window *w = &q->win;
	const char *filter = q->text;
	struct d9m_spanset *s = calloc(1, sizeof *s);
	uint32_t *slot = malloc((m->strs.n + 1) * sizeof *slot);

	if (s == NULL || slot == NULL || take(m, w, filter, s) < 0)
		goto oom;
	for (size_t i = 0; i <= m->strs.n; i++)
		slot[i] = D9_NONE;
	s->names = calloc(s->n ? s->n : 1, sizeof *s->names);
	if (s->names == NULL)
		goto oom;
	count_names(m, s, slot);
	if (sort_instances(m, s, slot) < 0)
		goto oom;
	for (size_t i = 0; i < s->nnames; i++)
		pct_desc(s->v + s->names[i].first, s->names[i].dur.count,
		    &s->names[i].dur);
	qsort_r(s->names, s->nnames, sizeof *s->names, cmp_name, (void *)m);
	free(slot);
	return s;
oom:
	free(slot);
	d9m_spanset_free(&s);
	return NULL;
}

void
d9m_spanset_free(struct d9m_spanset **ps)
{
	if (*ps == NULL)
		return;
	free((*ps)->v);
	free((*ps)->names);
	free(*ps);
	*ps = NULL;
}
