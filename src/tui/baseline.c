/*
 * baseline.c: see baseline.h. The baseline is a pair of absolute times
 * in the app, like the window; what is compared comes from the model
 * (model/figures/diff.h), the views only show it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/baseline.h"
#include "tui/timeaxis.h"

void
d9t_baseline_text(const struct d9t_app *app, char *out, size_t cap)
{
	char a[40], b[40];

	d9t_fmt_rel(a, sizeof a, app->base_lo - app->m->min_ts, 3);
	d9t_fmt_rel(b, sizeof b, app->base_hi - app->m->min_ts, 3);
	snprintf(out, cap, "%s..%s", a, b);
}

void
d9t_baseline_line(struct d9t_app *app, struct d9t_list *l, int cmp,
    const char *what, const char *rows)
{
	char base[96];

	if (!app->have_base)
		return;
	d9t_baseline_text(app, base, sizeof base);
	d9t_list_add(l, D9T_C_CYAN, "%s the baseline window %s: %s%s%s%s",
	    cmp ? "compared with" : "computing", base, what, !cmp ? "" :
	    app->by_change ? ", " : " (d: ", !cmp ? "" : rows, !cmp ? "" :
	    app->by_change ? "by change (d: back)" : "by change)");
}

void
d9t_baseline_toggle(struct d9t_app *app)
{
	char t[96];

	if (app->have_base && app->base_lo == app->lo &&
	    app->base_hi == app->hi) {
		app->have_base = 0;
		d9t_msg(app, "baseline cleared");
	} else {
		app->have_base = 1;
		app->base_lo = app->lo;
		app->base_hi = app->hi;
		d9t_baseline_text(app, t, sizeof t);
		d9t_msg(app, "baseline: window %s; tasks, spans and flame trees "
		    "show the change against it (d: by change; b here: clear)",
		    t);
	}
	d9t_app_dirty(app);
}

void
d9t_baseline_sort(struct d9t_app *app)
{
	if (!app->have_base) {
		d9t_msg(app, "no baseline: b marks the current window as one");
		return;
	}
	app->by_change = !app->by_change;
	d9t_msg(app, app->by_change ? "rows by their change against the "
	    "baseline" : "rows in their usual order");
	d9t_app_dirty(app);
}

void *
d9t_baseline_get(struct d9t_app *app, enum d9t_job k, const struct d9t_req *q)
{
	struct d9t_req b = *q;
	void *stale, *r;

	if (!app->have_base)
		return NULL;
	b.q.win = d9t_req_window(app, app->base_lo, app->base_hi);
	if ((r = d9t_jobs_get(app->jobs, D9T_J_BASE(k), &b, &stale)) == NULL)
		app->updating = 1;
	return r;
}

/* The rows of c->d's list (locs or spans) and where each new one is. */
static int
index_rows(struct d9t_cmp *c, const struct d9m_dpct *rows, size_t n,
    size_t nnew)
{
	c->rows = rows;
	c->nrows = n;
	if ((c->row_of = malloc((nnew + 1) * sizeof *c->row_of)) == NULL)
		return -1;
	for (size_t i = 0; i < nnew; i++)
		c->row_of[i] = SIZE_MAX;
	for (size_t k = 0; k < n; k++)
		if (rows[k].inew != SIZE_MAX && rows[k].inew < nnew)
			c->row_of[rows[k].inew] = k;
	return 0;
}

static void
cmp_init(struct d9t_cmp *c)
{
	memset(c, 0, sizeof *c);
	d9m_side_init(&c->old);
	d9m_side_init(&c->new);
}

int
d9t_cmp_locs(struct d9t_cmp *c, const struct d9m_model *m,
    const struct d9m_analysis *base, const struct d9m_analysis *cur)
{
	cmp_init(c);
	if (base == NULL || cur == NULL ||
	    d9m_side_locs(&c->old, m, base, 1) < 0 ||
	    d9m_side_locs(&c->new, m, cur, 1) < 0 ||
	    d9m_diff(&c->old, &c->new, &c->d) < 0 ||
	    index_rows(c, c->d.locs, c->d.nlocs, cur->nlocs) < 0) {
		d9t_cmp_free(c);
		return -1;
	}
	return 0;
}

int
d9t_cmp_spans(struct d9t_cmp *c, const struct d9m_model *m,
    const struct d9m_spanset *base, const struct d9m_spanset *cur)
{
	cmp_init(c);
	if (base == NULL || cur == NULL ||
	    d9m_side_spans(&c->old, m, base) < 0 ||
	    d9m_side_spans(&c->new, m, cur) < 0 ||
	    d9m_diff(&c->old, &c->new, &c->d) < 0 ||
	    index_rows(c, c->d.spans, c->d.nspans, cur->nnames) < 0) {
		d9t_cmp_free(c);
		return -1;
	}
	return 0;
}

void
d9t_cmp_free(struct d9t_cmp *c)
{
	d9m_diff_free(&c->d);
	d9m_side_free(&c->old);
	d9m_side_free(&c->new);
	free(c->row_of);
	c->row_of = NULL;
	c->rows = NULL;
	c->nrows = 0;
}

void
d9t_cmp_cols(const struct d9t_app *app, const struct d9m_dpct *r, char *out,
    size_t cap)
{
	char d[32];
	int64_t ch;

	if (r == NULL || r->old == NULL || r->new == NULL) {
		snprintf(out, cap, "%9s %7s", r == NULL ? "" : r->old == NULL ?
		    "new" : "gone", "");
		return;
	}
	ch = d9m_dpct_change(r);
	d9t_fmt_dur(d + 1, sizeof d - 1, (uint64_t)(ch < 0 ? -ch : ch),
	    app->utf8);
	d[0] = ch > 0 ? '+' : ch < 0 ? '-' : ' ';
	snprintf(out, cap, "%9s %+6.1f%%", d, 100 * (r->new_share -
	    r->old_share));
}
