/*
 * series.c: see series.h. Each series is one pass over the rows of its
 * window; columns are found by binary search in the edges.
 */
#include <stdlib.h>
#include <string.h>

#include "base/search.h"
#include "base/schemas.h"
#include "model/queries/flame.h"
#include "model/queries/lanes.h"
#include "model/queries/samples.h"
#include "model/queries/series.h"
#include "model/queries/spanset.h"

/* The column of ts, ncols when outside. */
static size_t
col_of(const uint64_t *edges, size_t ncols, uint64_t ts)
{
	if (ncols == 0 || ts < edges[0] || ts >= edges[ncols])
		return ncols;
	/* the last edge at or below ts: edges[0] is, edges[ncols] is not */
	return d9_upper_u64(edges, 0, ncols, ts) - 1;
}

/* The rows of ascending ts[0..n) in each column of edges: at[c] the
 * first at or after edges[c] (c in 0..ncols); a search per column, not
 * one per row. */
static void
col_rows(const uint64_t *ts, size_t n, const uint64_t *edges, size_t ncols,
    size_t *at)
{
	size_t i = 0;

	for (size_t c = 0; c <= ncols; c++) {
		i += d9m_lower(d9m_row(ts, i), n - i, edges[c]);
		at[c] = i;
	}
}

static int
worker_max(const struct d9m_model *m, enum d9m_series_kind k, uint32_t s,
    const uint64_t *edges, size_t ncols, double *out)
{
	const struct d9m_worker *wk = &m->workers[s];
	size_t *at;

	if (ncols == 0 || edges[ncols] <= edges[0])
		return 0;
	if ((at = malloc((ncols + 1) * sizeof *at)) == NULL)
		return -1;
	if (k == D9M_S_LOCAL_QUEUE) {
		const uint8_t *lq = m->polls.lq != NULL ? m->polls.lq +
		    wk->poll0 : NULL;

		/* the polls starting in each column */
		col_rows(d9m_row(m->polls.start, wk->poll0), wk->npolls, edges,
		    ncols, at);
		for (size_t c = 0; c < ncols; c++) {
			unsigned mx = 0;

			for (size_t i = at[c]; i < at[c + 1]; i++)
				mx = lq[i] > mx ? lq[i] : mx;
			out[c] = mx;
		}
	} else {
		const uint64_t *wait = d9m_row(m->parks.sched_wait, wk->park0);

		/* the unparks in each column (a worker's parks do not
		 * overlap: their ends are sorted) */
		col_rows(d9m_row(m->parks.end, wk->park0), wk->nparks, edges,
		    ncols, at);
		for (size_t c = 0; c < ncols; c++)
			for (size_t i = at[c]; i < at[c + 1]; i++)
				if (wait[i] != D9M_ABSENT &&
				    (double)wait[i] > out[c])
					out[c] = (double)wait[i];
	}
	free(at);
	return 0;
}

/* The string id of ProcessResourceUsageEvent's name (field -1) or of
 * one of its field names; D9_NONE when the trace has none. */
static uint32_t
usage_str(const struct d9m_model *m, int field)
{
	const struct d9_schema_def *d = d9_schema(D9_SCH_PROCESS_USAGE);
	const char *s = field < 0 ? d->name : d->fields[field].name;

	return d9_intern_find(&m->strs, s, strlen(s));
}

static long double
field_num(const struct d9m_model *m, uint32_t list, uint32_t key)
{
	uint32_t v = d9m_field(m, list, key);

	return v == D9_NONE ? -1 : strtold(d9m_str(m, v), NULL);
}

static uint32_t
group_of(const struct d9m_model *m, uint32_t seg)
{
	return seg < m->segs.n && m->segs.group[seg] != D9_NONE ?
	    m->segs.group[seg] : 0;
}

int
d9m_process_usage(const struct d9m_model *m, const struct d9m_query *q,
    struct d9m_usage **out, size_t *n)
{
	const struct d9m_window *w = &q->win;
	uint32_t g = q->group;
	uint32_t name = usage_str(m, -1),
	    ku = usage_str(m, D9_F_PROCESS_USAGE_USER_CPU_NS),
	    ks = usage_str(m, D9_F_PROCESS_USAGE_SYSTEM_CPU_NS),
	    kr = usage_str(m, D9_F_PROCESS_USAGE_MAX_RSS_BYTES);
	size_t ng = m->groups.n ? m->groups.n : 1, i0, i1;
	long double *prev = malloc(ng * sizeof *prev);
	uint64_t *prev_ts = calloc(ng, sizeof *prev_ts);
	struct d9m_usage *v;

	*n = 0;
	d9m_window_rows(m->custom.ts, m->custom.n, w, &i0, &i1);
	*out = v = malloc((i1 - i0 + 1) * sizeof *v);
	if (prev == NULL || prev_ts == NULL || v == NULL) {
		free(prev);
		free(prev_ts);
		return -1;
	}
	for (size_t k = 0; k < ng; k++)
		prev[k] = -1;
	for (size_t i = i0; name != D9_NONE && i < i1; i++) {
		uint32_t gr = group_of(m, m->custom.seg[i]);
		long double u, s;
		struct d9m_usage *x = &v[*n];

		if (m->custom.name[i] != name || (g != D9_NONE && gr != g))
			continue;
		u = field_num(m, m->custom.fields[i], ku);
		s = field_num(m, m->custom.fields[i], ks);
		memset(x, 0, sizeof *x);
		x->ts = m->custom.ts[i];
		x->group = gr;
		x->rss = kr != D9_NONE ? field_num(m, m->custom.fields[i], kr) :
		    -1;
		(*n)++;
		if (ku == D9_NONE || ks == D9_NONE || u < 0 || s < 0)
			continue;
		x->has_cpu = 1;
		if (prev[gr] >= 0 && x->ts > prev_ts[gr] && u + s >= prev[gr]) {
			x->paired = 1;
			x->cpu_ns = (uint64_t)(u + s - prev[gr]);
			x->wall_ns = x->ts - prev_ts[gr];
		}
		prev[gr] = u + s;
		prev_ts[gr] = x->ts;
	}
	free(prev);
	free(prev_ts);
	return 0;
}

/* Cores used over the sample interval covering each column's middle. */
static int
cpu_series(const struct d9m_model *m, uint32_t g, const uint64_t *edges,
    size_t ncols, double *out)
{
	struct d9m_query all = D9M_QUERY_INIT;
	struct d9m_usage *u;
	size_t n, k = 0;

	all.group = g;
	if (d9m_process_usage(m, &all, &u, &n) < 0)
		return -1;
	for (size_t c = 0; c < ncols; c++) {
		uint64_t mid = edges[c] + (edges[c + 1] - edges[c]) / 2;

		out[c] = -1;
		while (k < n && u[k].ts < mid)
			k++;
		if (k < n && u[k].paired && u[k].ts - u[k].wall_ns <= mid)
			out[c] = (double)u[k].cpu_ns / (double)u[k].wall_ns;
	}
	free(u);
	return 0;
}

/* The most tasks alive in each column, from the step series of ix. */
static void
alive_steps(const struct d9m_lanes *ix, const uint64_t *edges, size_t ncols,
    double *alive)
{
	size_t i = d9m_lower(ix->act_ts, ix->nact, edges[0]);

	for (size_t c = 0; c < ncols; c++) {
		double v = i > 0 ? ix->act_val[i - 1] : 0;	/* at its start */

		for (; i < ix->nact && ix->act_ts[i] < edges[c + 1]; i++)
			if (ix->act_val[i] > v)
				v = ix->act_val[i];
		alive[c] = v;
	}
}

enum d9m_alive_from
d9m_series_runtime(const struct d9m_model *m, const struct d9m_lanes *ix,
    const struct d9m_query *qr, const uint64_t *edges, size_t ncols,
    double *queue, double *alive)
{
	uint32_t g = qr->runtime;
	const struct d9m_queue *q = &m->queue;
	enum d9m_alive_from from = D9M_ALIVE_NONE;
	size_t i;

	for (i = 0; i < q->n && from == D9M_ALIVE_NONE; i++)
		if ((g == D9_NONE || q->group[i] == g) &&
		    q->alive[i] != D9_NONE)
			from = D9M_ALIVE_SAMPLES;
	i = d9m_lower(q->ts, q->n, edges[0]);
	for (size_t c = 0; c < ncols; c++) {
		queue[c] = alive[c] = 0;
		for (; i < q->n && q->ts[i] < edges[c + 1]; i++) {
			if (g != D9_NONE && q->group[i] != g)
				continue;
			if (q->global[i] > queue[c])
				queue[c] = q->global[i];
			if (from == D9M_ALIVE_SAMPLES &&
			    q->alive[i] != D9_NONE && q->alive[i] > alive[c])
				alive[c] = q->alive[i];
		}
	}
	if (from == D9M_ALIVE_NONE && g == D9_NONE && ix != NULL &&
	    ix->nact > 0) {
		alive_steps(ix, edges, ncols, alive);
		from = D9M_ALIVE_SPAWNS;
	}
	return from;
}

int
d9m_series(const struct d9m_model *m, const struct d9m_query *q,
    const uint64_t *edges, size_t ncols, double *out)
{
	enum d9m_series_kind k = (enum d9m_series_kind)q->kind;

	for (size_t c = 0; c < ncols; c++)
		out[c] = 0;
	if (k == D9M_S_CPU)
		return cpu_series(m, q->group, edges, ncols, out);
	return q->worker < m->nworkers ?
	    worker_max(m, k, q->worker, edges, ncols, out) : 0;
}

int
d9m_series_live(const struct d9m_model *m, const struct d9m_resolver *r,
    const struct d9m_query *q, const struct d9m_flame *f, uint32_t node,
    const uint64_t *edges, size_t ncols, double *out)
{
	double *delta = calloc(ncols + 1, sizeof *delta), sum = 0;
	uint64_t *freed = NULL;
	struct d9m_frame *buf = f != NULL ? d9m_frames_alloc() : NULL;
	size_t a0, a1;

	if (delta == NULL || (f != NULL && buf == NULL) ||
	    d9m_alloc_freed(m, &q->win, &a0, &a1, &freed) < 0) {
		free(delta);
		free(buf);
		return -1;
	}
	for (size_t i = a0; i < a1; i++) {
		uint64_t fr = freed[i - a0];
		double wb, wc;
		size_t c, cf;

		if (f != NULL && ((d9m_query_has(q, D9M_Q_LIVE) &&
		    fr != UINT64_MAX) || !d9m_flame_takes_alloc(m, q, i) ||
		    !d9m_flame_under(f, m, r, m->allocs.seg[i],
		    m->allocs.stack[i], node, buf)))
			continue;
		d9m_alloc_weight(m, i, &wb, &wc);
		if (f != NULL && d9m_query_has(q, D9M_Q_COUNT))
			wb = wc;
		c = m->allocs.ts[i] < edges[0] ? 0 :
		    col_of(edges, ncols, m->allocs.ts[i]);
		if (c >= ncols)
			continue;
		delta[c] += wb;
		if (fr == UINT64_MAX || fr >= edges[ncols])
			continue;
		/* gone from the column of its free on, never before its own
		 * (a free can be stamped before its allocation) */
		cf = fr < edges[0] ? 0 : col_of(edges, ncols, fr);
		delta[cf > c ? cf : c] -= wb;
	}
	for (size_t c = 0; c < ncols; c++) {
		sum += delta[c];
		out[c] = sum > 0 ? sum : 0;
	}
	free(delta);
	free(freed);
	free(buf);
	return 0;
}
