/*
 * analysis_spans.c: spans paired into intervals as ANALYSIS 6 defines
 * (raw duration = first enter to last exit, per span name), plus the
 * per-poll span counts and outliers the red flags need.
 */
#include <stdlib.h>
#include <string.h>

#include "model/analysis.h"
#include "model/table.h"
#include "model/timeline.h"

struct span_rec {
	uint64_t	id;
	uint64_t	open_ts;	/* enter time of the open pair */
	uint64_t	first, last_start, last_end;
	uint32_t	open_worker;
	uint32_t	name;
	uint32_t	nsegs;
	uint8_t		open, live;	/* live: still in the id map */
};

struct span_map {
	uint32_t	*slots;		/* rec index + 1 */
	size_t		 nslots, nlive;
};

static uint32_t *
map_slot(struct span_map *mp, const struct span_rec *recs, uint64_t id)
{
	size_t mask = mp->nslots - 1,
	    i = (size_t)(id * 0x9e3779b97f4a7c15ull >> 17) & mask;

	for (; mp->slots[i]; i = (i + 1) & mask)
		if (recs[mp->slots[i] - 1].live &&
		    recs[mp->slots[i] - 1].id == id)
			break;
	return &mp->slots[i];
}

struct seg {
	uint64_t	start, end;
	uint32_t	worker;
};

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int
cmp_fig(const void *x, const void *y)
{
	const struct d9m_span_fig *a = x, *b = y;

	if (a->dur.count != b->dur.count)
		return a->dur.count > b->dur.count ? -1 : 1;
	return a->name < b->name ? -1 : a->name > b->name;
}

/* Spans fully inside polls of their worker (many-spans-per-poll). */
static int
spans_in_polls(const struct d9m_model *m, const struct seg *sg, size_t n,
    struct d9m_analysis *a)
{
	uint32_t *cnt = calloc(m->polls.n + 1, sizeof *cnt);

	if (cnt == NULL)
		return -1;
	for (size_t i = 0; i < n; i++) {
		uint32_t w = d9m_worker_slot(m, sg[i].worker), p;

		if (w == D9_NONE)
			continue;
		p = d9m_poll_at(m, w, sg[i].start);
		if (p != D9_NONE && sg[i].end <= m->polls.end[p])
			cnt[p]++;
	}
	for (size_t p = 0; p < m->polls.n; p++) {
		if (cnt[p] > 20)
			a->spans_polls_over20++;
		if (cnt[p] > a->spans_poll_max) {
			a->spans_poll_max = cnt[p];
			a->spans_poll_row = (uint32_t)p;
		}
	}
	free(cnt);
	return 0;
}

int
d9m_an_spans(const struct d9m_model *m, const struct d9m_analysis_opts *o,
    struct d9m_analysis *a)
{
	const struct d9m_spanev *e = &m->spanev;
	struct span_rec *recs = NULL;
	struct span_map mp = { NULL, 0, 0 };
	struct seg *sg = NULL;
	size_t nrec = 0, caprec = 0, nsg = 0, capsg = 0;
	uint64_t *durs = NULL;
	uint32_t unknown = d9_intern_find(&m->strs,
	    "unknown", 7);
	int rc = -1;

	a->spans_poll_row = D9_NONE;
	if (e->n == 0)
		return 0;
	for (mp.nslots = 64; mp.nslots < e->n * 2; mp.nslots *= 2)
		;
	mp.slots = calloc(mp.nslots, sizeof *mp.slots);
	caprec = e->n / 2 + 16;
	recs = malloc(caprec * sizeof *recs);
	capsg = e->n / 2 + 16;
	sg = malloc(capsg * sizeof *sg);
	if (mp.slots == NULL || recs == NULL || sg == NULL)
		goto out;
	for (size_t i = 0; i < e->n; i++) {
		uint32_t *slot = map_slot(&mp, recs, e->span_id[i]);
		struct span_rec *r = *slot ? &recs[*slot - 1] : NULL;

		switch (e->kind[i]) {
		case D9M_SPAN_ENTER:
			if (r != NULL && r->open)
				break;
			if (r == NULL) {
				if (nrec == caprec) {
					void *q = realloc(recs, 2 * caprec *
					    sizeof *recs);

					if (q == NULL)
						goto out;
					recs = q;
					caprec *= 2;
				}
				r = &recs[nrec];
				memset(r, 0, sizeof *r);
				r->id = e->span_id[i];
				r->name = e->name[i] != D9_NONE ? e->name[i] :
				    unknown;
				r->live = 1;
				*slot = (uint32_t)++nrec;
			}
			r->open = 1;
			r->open_ts = e->ts[i];
			r->open_worker = e->worker[i];
			break;
		case D9M_SPAN_EXIT:
			if (r == NULL || !r->open)
				break;
			r->open = 0;
			if (r->nsegs == 0 || r->open_ts < r->first)
				r->first = r->open_ts;
			if (r->nsegs == 0 || r->open_ts >= r->last_start) {
				r->last_start = r->open_ts;
				r->last_end = e->ts[i];
			}
			r->nsegs++;
			if (nsg == capsg) {
				void *q = realloc(sg, 2 * capsg * sizeof *sg);

				if (q == NULL)
					goto out;
				sg = q;
				capsg *= 2;
			}
			sg[nsg].start = r->open_ts;
			sg[nsg].end = e->ts[i];
			sg[nsg++].worker = r->open_worker;
			break;
		case D9M_SPAN_CLOSE:
			if (r == NULL)
				break;
			r->open = 0;
			r->live = 0;	/* the id may be reused */
			*slot = 0;
			/* re-insert displaced entries of the probe run */
			for (size_t k = (size_t)(slot - mp.slots + 1) &
			    (mp.nslots - 1); mp.slots[k];
			    k = (k + 1) & (mp.nslots - 1)) {
				uint32_t v = mp.slots[k];

				mp.slots[k] = 0;
				*map_slot(&mp, recs, recs[v - 1].id) = v;
			}
			break;
		}
	}
	/* finished spans (>= 1 segment) by name */
	durs = malloc((nrec ? nrec : 1) * sizeof *durs);
	a->spans = calloc(nrec ? nrec : 1, sizeof *a->spans);
	if (durs == NULL || a->spans == NULL)
		goto out;
	for (size_t i = 0; i < nrec; i++)
		a->unmatched_spans += recs[i].open && recs[i].live &&
		    d9m_in_window(&o->win, recs[i].open_ts);
	{
		/* group finished records by name: sort (name, index) keys */
		uint64_t *keys = malloc((nrec ? nrec : 1) * sizeof *keys);
		size_t n = 0;

		if (keys == NULL)
			goto out;
		for (size_t i = 0; i < nrec; i++)
			if (recs[i].nsegs > 0 &&
			    d9m_in_window(&o->win, recs[i].first))
				keys[n++] = (uint64_t)recs[i].name << 32 | i;
		if (d9m_sort_u64(keys, n) < 0)
			qsort(keys, n, sizeof *keys, cmp_u64);
		a->spans_total = n;
		for (size_t i = 0, k; i < n; i += k) {
			uint32_t name = (uint32_t)(keys[i] >> 32);
			struct d9m_span_fig *f = &a->spans[a->nspans++];

			for (k = 0; i + k < n && keys[i + k] >> 32 == name; k++) {
				struct span_rec *r = &recs[(uint32_t)keys[i + k]];

				durs[k] = r->last_end - r->first;
			}
			f->name = name;
			d9m_pct_of(durs, k, &f->dur);
			if (k >= 10)
				for (size_t j = 0; j < k; j++)
					f->outliers += durs[j] > 10 * durs[k / 2];
		}
		free(keys);
	}
	qsort(a->spans, a->nspans, sizeof *a->spans, cmp_fig);
	rc = spans_in_polls(m, sg, nsg, a);
out:
	free(mp.slots);
	free(recs);
	free(sg);
	free(durs);
	return rc;
}
