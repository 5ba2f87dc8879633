/*
 * spans.c: see spans.h. The model links the events of each span life
 * (one span id up to its close), so pairing a window follows those links
 * from the events inside it and costs what the window holds.
 */
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "base/vec.h"
#include "model/table.h"
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

static int
cmp_name(const void *x, const void *y)
{
	const struct d9t_span_name *a = x, *b = y;

	if (a->dur.count != b->dur.count)
		return a->dur.count > b->dur.count ? -1 : 1;
	return a->name < b->name ? -1 : a->name > b->name;
}

/* Instances of the window: each span life (see model.h) that enters in
 * the window, from that first enter on, paired as a span is in the
 * window alone (end 0: never exited in it). By start. */
static int
pair(const struct d9m_model *m, uint64_t lo, uint64_t hi, struct d9t_spans *s,
    size_t *cap)
{
	const struct d9m_spanev *e = &m->spanev;
	struct d9m_window w = { lo, hi };
	size_t i0, i1;

	d9m_window_rows(e->ts, e->n, &w, &i0, &i1);
	for (size_t i = i0; i < i1; i++) {
		struct d9t_span *sp;
		int open = 1;

		/* from the first enter of each life in the window */
		if (e->kind[i] != D9M_SPAN_ENTER ||
		    (e->prev_enter[i] != D9_NONE && e->prev_enter[i] >= i0))
			continue;
		if (d9_grow(&s->v, cap, s->n + 1, sizeof *s->v) < 0)
			return -1;
		sp = &s->v[s->n++];
		sp->start = e->ts[i];
		sp->end = 0;
		sp->name = e->name[i];
		sp->worker = e->worker[i];
		sp->fields = e->fields[i];
		/* re-entered: keep the first enter; the last exit ends it */
		for (uint32_t j = e->next[i]; j != D9_NONE && j < i1;
		    j = e->next[j]) {
			if (e->kind[j] == D9M_SPAN_ENTER)
				open = 1;
			else if (e->kind[j] == D9M_SPAN_EXIT && open) {
				sp->end = e->ts[j];
				if (e->fields[j] != D9_NONE)
					sp->fields = e->fields[j];
				open = 0;
			}
		}
	}
	return 0;
}

/* Keep the exited instances (and, with a filter, those whose fields
 * contain it), in order; count the others as unmatched. */
static void
keep_exited(const struct d9m_model *m, struct d9t_spans *s,
    const char *filter)
{
	size_t k = 0;

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
}

static uint64_t
dur(const struct d9t_span *sp)
{
	return sp->end - sp->start;
}

static int
cmp_name_id(const void *x, const void *y)
{
	const struct d9t_span_name *a = x, *b = y;

	return a->name < b->name ? -1 : a->name > b->name;
}

/* One entry per name in s->names, by name id, each counting its
 * instances and saying where they start; slot: name id (strs.n for
 * none) -> entry, D9_NONE before. */
static void
count_names(const struct d9m_model *m, struct d9t_spans *s, uint32_t *slot)
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
sort_instances(const struct d9m_model *m, struct d9t_spans *s,
    uint32_t *slot)
{
	size_t n = s->n, *fill = calloc(s->nnames + 1, sizeof *fill);
	uint64_t *key = malloc((n ? n : 1) * sizeof *key);
	uint32_t *p = malloc((n ? n : 1) * sizeof *p);
	struct d9t_span *v = malloc((n ? n : 1) * sizeof *v);
	int rc = -1;

	if (fill == NULL || key == NULL || p == NULL || v == NULL)
		goto out;
	for (size_t i = 0; i < n; i++)
		key[i] = UINT64_MAX - dur(&s->v[i]);
	if (d9m_sort_perm(key, n, p) < 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		const struct d9t_span *sp = &s->v[p[i]];
		uint32_t k = slot[sp->name == D9_NONE ? (uint32_t)m->strs.n :
		    sp->name];

		v[s->names[k].first + fill[k]++] = *sp;
	}
	free(s->v);
	s->v = v;
	v = NULL;
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
pct_desc(const struct d9t_span *v, size_t n, struct d9m_pct *out)
{
	memset(out, 0, sizeof *out);
	out->count = n;
	if (n == 0)
		return;
	out->p50 = dur(&v[n - d9m_rank(n, 50)]);
	out->p99 = dur(&v[n - d9m_rank(n, 99)]);
	out->max = dur(&v[0]);
}

struct d9t_spans *
d9t_spans_build(const struct d9m_model *m, uint64_t lo, uint64_t hi,
    const char *filter)
{
	struct d9t_spans *s = calloc(1, sizeof *s);
	uint32_t *slot = malloc((m->strs.n + 1) * sizeof *slot);
	size_t cap = 0;

	if (s == NULL || slot == NULL || pair(m, lo, hi, s, &cap) < 0)
		goto oom;
	keep_exited(m, s, filter);
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
	qsort(s->names, s->nnames, sizeof *s->names, cmp_name);
	free(slot);
	return s;
oom:
	free(slot);
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
