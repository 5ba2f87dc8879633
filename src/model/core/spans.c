/*
 * spans.c: span events into span instances, once per finished model
 * (d9m_spans_pair, from d9m_model_finish, while the polls are made),
 * kept sorted by start so a window takes the instances that start in it
 * by binary search.
 *
 * Legacy events (no span_instance_id) are paired as ANALYSIS 6 defines:
 * linked into lives (one span id up to its close), each life paired from
 * its first enter (raw duration: first enter to last exit). dial9 0.5
 * events (span_instance_id > 0; FORMAT 5) are grouped by instance (the
 * ids of each process kept apart, ids.h): an instance's enters and exits
 * pair LIFO per thread (an exit takes the latest open enter of its tid),
 * and its close makes the instance: its duration is its lifecycle, close
 * - start; its parent is the instance its close names. A 0.5 instance
 * never closed in the trace is open, like a legacy life never exited.
 * Single-event spans are an instance each. Every instance keeps the
 * time it spent entered and in how many intervals; the intervals that
 * lie wholly inside one poll of their worker give the per-poll counts
 * the red flags need.
 */
#include <stdlib.h>
#include <string.h>

#include "base/pages.h"
#include "base/search.h"
#include "base/wire.h"
#include "model/core/par.h"
#include "model/core/spans.h"
#include "model/core/table.h"
#include "model/core/tables.h"

/* The entered intervals of the instances, by the span event that
 * entered each (an enter enters one at most): where bit row of entered
 * is set, exit_at[row] is 1 + the row of its exit. Finishing for the
 * last time, exit_at is the events' id column: an enter's id (its life's
 * number, its spanx row) is not read once it is paired. */
struct d9m_ivals {
	uint32_t	*exit_at;	/* spanev.n + 1 entries */
	uint8_t		*entered;	/* a bit a row */
};

static inline int
entered(const struct d9m_ivals *iv, size_t row)
{
	return iv->entered[row / 8] >> (row % 8) & 1;
}

/* One instance being made: its figures so far. */
struct inst {
	uint64_t	first, last_start, last_end;
	uint64_t	open_ts;	/* enter of the open pair (legacy) */
	uint64_t	active;
	size_t		nsegs;
	uint32_t	fields;		/* the first enter's, or the last
					 * exit's that has fields */
	int		open;
};

static void
add_interval(const struct d9m_model *m, struct d9m_ivals *iv, struct inst *l,
    uint32_t enter, uint32_t exit)
{
	const uint64_t *ts = m->spanev.ts;

	iv->exit_at[enter] = exit + 1;	/* each enter opens one at most */
	iv->entered[enter / 8] |= (uint8_t)(1u << enter % 8);
	l->active += ts[exit] - ts[enter];
	l->nsegs++;
	if (D9M_EV(m, fields, exit) != D9_NONE)
		l->fields = D9M_EV(m, fields, exit);
}

/*
 * Pair the legacy life whose first enter is event i: an enter opens a
 * pair (unless one is open), an exit closes it into an interval, a close
 * ends the life.
 */
static void
pair_life(const struct d9m_model *m, uint32_t i, struct d9m_ivals *iv,
    struct inst *l)
{
	const struct d9m_spanev *e = &m->spanev;
	uint32_t opened = i;

	memset(l, 0, sizeof *l);
	l->open = 1;
	l->open_ts = e->ts[i];
	l->fields = D9M_EV(m, fields, i);
	for (uint32_t j = e->next[i]; j != D9_NONE; j = e->next[j]) {
		uint8_t kind = D9M_EV(m, kind, j);

		if (kind == D9M_SPAN_CLOSE) {
			l->open = 0;
			break;
		}
		if (kind == D9M_SPAN_ENTER) {
			if (!l->open) {
				l->open = 1;
				l->open_ts = e->ts[j];
				opened = j;
			}
			continue;
		}
		if (!l->open)
			continue;
		l->open = 0;
		if (l->nsegs == 0 || l->open_ts < l->first)
			l->first = l->open_ts;
		if (l->nsegs == 0 || l->open_ts >= l->last_start) {
			l->last_start = l->open_ts;
			l->last_end = e->ts[j];
		}
		add_interval(m, iv, l, opened, j);
	}
}

/* Append instance row s->n with what every form has. */
static size_t
add_span(struct d9m_spans *s, uint64_t start, uint64_t end, uint32_t name,
    uint32_t worker, uint32_t fields, uint8_t form)
{
	size_t r = s->n++;

	s->start[r] = start;
	s->dur[r] = end > start ? end - start : 0;
	s->name[r] = name;
	s->worker[r] = worker;
	s->fields[r] = fields;
	s->active[r] = 0;
	s->slices[r] = 0;
	s->parent[r] = D9_NONE;
	s->kind[r] = (uint8_t)form;
	return r;
}

static void
legacy_spans(const struct d9m_model *m, struct d9m_ivals *iv,
    struct d9m_spans *s)
{
	const struct d9m_spanev *e = &m->spanev;

	for (size_t i = 0; i < e->n; i++) {
		struct inst l;
		size_t r;

		if (!d9m_span_first(e, i))	/* a legacy life's first enter */
			continue;
		pair_life(m, (uint32_t)i, iv, &l);
		if (l.nsegs > 0) {
			r = add_span(s, l.first, l.last_end, D9M_EV(m, name, i),
			    D9M_EV(m, worker, i), l.fields, D9M_FORM_LEGACY);
			s->active[r] = l.active;
			s->slices[r] = (uint32_t)l.nsegs;
		}
		if (l.open)
			s->open_ts[s->nopen++] = l.open_ts;
	}
}

/* ---- dial9 0.5 instances ---- */

/* Column f of spanx for spanev row i, which has one (not legacy). */
#define X(m, f, i)	((m)->spanx.f[(m)->spanev.id[i]])
/* Row i is of a 0.5 instance (an instance id, not a single event). */
#define IS_05(m, i)	(!d9m_span_is_legacy(m, i) && \
	D9M_EV(m, kind, i) != D9M_SPAN_SINGLE)

/* The 0.5 rows in instance order, time order within (a stable sort).
 * Instance ids of different processes were kept apart when read (ids.h). */
static uint32_t *
instance_order(const struct d9m_model *m, size_t *n)
{
	const struct d9m_spanev *e = &m->spanev;
	size_t k = 0, cnt = 0;
	uint64_t *key;
	uint32_t *rows, *perm;

	for (size_t i = 0; i < e->n; i++)
		cnt += IS_05(m, i);
	key = malloc((cnt + 1) * sizeof *key);
	rows = malloc((cnt + 1) * sizeof *rows);
	perm = malloc((cnt + 1) * sizeof *perm);
	if (key == NULL || rows == NULL || perm == NULL) {
		free(key);
		free(rows);
		free(perm);
		return NULL;
	}
	for (size_t i = 0; i < e->n; i++)
		if (IS_05(m, i)) {
			perm[k] = (uint32_t)i;
			key[k++] = X(m, inst, i);
		}
	if (d9m_sort_perm(key, cnt, rows) < 0) {
		free(key);
		free(rows);
		free(perm);
		return NULL;
	}
	for (size_t i = 0; i < cnt; i++)
		rows[i] = perm[rows[i]];
	free(key);
	free(perm);
	*n = cnt;
	return rows;
}

/* The instance of rows g[0 .. n) (one instance, time order): its enters
 * and exits paired LIFO per tid through the stack st; made a span when
 * it has a close, else open if it was entered. Returns the span row or
 * D9_NONE. */
static uint32_t
one_instance(const struct d9m_model *m, const uint32_t *g, size_t n,
    uint32_t *st, struct d9m_ivals *iv, struct d9m_spans *s)
{
	const struct d9m_spanev *e = &m->spanev;
	uint32_t first = D9_NONE, close = D9_NONE;
	size_t nst = 0, r;
	struct inst l;
	uint64_t start;

	memset(&l, 0, sizeof l);
	l.fields = D9_NONE;
	for (size_t k = 0; k < n; k++) {
		uint32_t i = g[k];
		size_t p;

		switch (D9M_EV(m, kind, i)) {
		case D9M_SPAN_ENTER:
			if (first == D9_NONE) {
				first = i;
				l.fields = D9M_EV(m, fields, i);
			}
			st[nst++] = i;
			break;
		case D9M_SPAN_EXIT:
			for (p = nst; p > 0 && X(m, tid, st[p - 1]) !=
			    X(m, tid, i); p--)
				;
			if (p == 0)
				break;		/* no enter on its thread */
			add_interval(m, iv, &l, st[p - 1], i);
			memmove(st + p - 1, st + p, (nst - p) * sizeof *st);
			nst--;
			break;
		case D9M_SPAN_CLOSE:
			close = i;
			break;
		}
	}
	if (close == D9_NONE) {
		if (first != D9_NONE)
			s->open_ts[s->nopen++] = e->ts[first];
		return D9_NONE;
	}
	start = X(m, start, close);
	if (start == D9M_ABSENT || start > e->ts[close])
		start = first != D9_NONE && e->ts[first] < e->ts[close] ?
		    e->ts[first] : e->ts[close];
	r = add_span(s, start, e->ts[close],
	    D9M_EV(m, name, close) != D9_NONE ? D9M_EV(m, name, close) :
	    first != D9_NONE ? D9M_EV(m, name, first) : D9_NONE,
	    first != D9_NONE ? D9M_EV(m, worker, first) : D9_NONE,
	    D9M_EV(m, fields, close) != D9_NONE ? D9M_EV(m, fields, close) :
	    l.fields, D9M_FORM_LIFECYCLE);
	s->active[r] = l.active;
	s->slices[r] = (uint32_t)l.nsegs;
	return (uint32_t)r;
}

/* Lifecycle spans made, in instance order, for finding parents. */
struct made {
	uint64_t	*inst;
	uint32_t	*row, *close;
	size_t		 n;
};

static uint32_t
find_made(const struct made *md, uint64_t inst)
{
	size_t lo = d9_bisect_u64(md->inst, 0, md->n, inst);

	return lo < md->n && md->inst[lo] == inst ? md->row[lo] : D9_NONE;
}

static int
modern_spans(const struct d9m_model *m, struct d9m_ivals *iv, struct d9m_spans *s)
{
	uint32_t *rows = NULL, *st = NULL;
	struct made md = { NULL, NULL, NULL, 0 };
	size_t n = 0;
	int rc = -1;

	if ((rows = instance_order(m, &n)) == NULL)
		goto out;
	st = malloc((n + 1) * sizeof *st);
	md.inst = malloc((n + 1) * sizeof *md.inst);
	md.row = malloc((n + 1) * sizeof *md.row);
	md.close = malloc((n + 1) * sizeof *md.close);
	if (st == NULL || md.inst == NULL || md.row == NULL ||
	    md.close == NULL)
		goto out;
	for (size_t a = 0, b; a < n; a = b) {
		uint32_t r;

		for (b = a + 1; b < n && X(m, inst, rows[b]) ==
		    X(m, inst, rows[a]); b++)
			;
		/* read before rows[a], if an enter, is paired (exit_at) */
		md.inst[md.n] = X(m, inst, rows[a]);
		r = one_instance(m, rows + a, b - a, st, iv, s);
		if (r == D9_NONE)
			continue;
		md.row[md.n] = r;
		/* the close is the last event of its instance to say so */
		for (size_t k = b; k-- > a; )
			if (D9M_EV(m, kind, rows[k]) == D9M_SPAN_CLOSE) {
				md.close[md.n] = rows[k];
				break;
			}
		md.n++;
	}
	for (size_t k = 0; k < md.n; k++) {
		uint32_t c = md.close[k];

		uint64_t parent = X(m, parent, c);

		if (parent != D9M_ABSENT && parent != 0)
			s->parent[md.row[k]] = find_made(&md, parent);
	}
	rc = 0;
out:
	free(rows);
	free(st);
	free(md.inst);
	free(md.row);
	free(md.close);
	return rc;
}

static void
single_spans(const struct d9m_model *m, struct d9m_spans *s)
{
	const struct d9m_spanev *e = &m->spanev;

	for (size_t i = 0; i < e->n; i++)
		if (D9M_EV(m, kind, i) == D9M_SPAN_SINGLE)
			add_span(s, X(m, start, i), e->ts[i],
			    D9M_EV(m, name, i), D9M_EV(m, worker, i),
			    D9M_EV(m, fields, i), D9M_FORM_SINGLE);
}

/* ---- per-poll counts ---- */

/*
 * The entered intervals by their enters, in time order: what the
 * per-poll counts read of them, while the span job waits for the polls.
 * When finishing for the last time they are made in place of the span
 * events' times and tags and of exit_at, for the wait is at the
 * finishing's peak: 16 bytes an interval instead of 16 an event (8.6 M
 * intervals, 20.4 M events in dir-116). Otherwise the events stay, and
 * an interval is its enter's row (8 bytes instead of exit_at's 4 an
 * event).
 */
struct flat {
	size_t		 n, nfar;
	uint64_t	*enter;		/* last: the enter's time */
	uint32_t	*worker;	/* last: the enter's worker (wids row) */
	uint32_t	*row;		/* else: the enter's row */
	uint32_t	*len;		/* exit - enter, FAR: exit in far */
	uint64_t	*far;		/* exits of the FAR ones, in order */
};

#define FAR	UINT32_MAX

static void
flat_free(struct flat *f)
{
	void *col[] = { f->enter, f->worker, f->row, f->len, f->far };

	for (size_t c = 0; c < sizeof col / sizeof col[0]; c++)
		free(col[c]);
	memset(f, 0, sizeof *f);
}

/* Shrink col (an allocation of at least n elements of size el) to n:
 * a large one is mapped, so the rest goes back to the system. */
static void *
shrink(void *col, size_t n, size_t el)
{
	void *p = d9_pages_realloc(col, (n + 1) * el);

	return p != NULL ? p : col;
}

/*
 * Take the intervals out of the span events and exit_at, which f then
 * owns: in place (last) into the first rows of ts, tag and exit_at,
 * which are no longer the events'; else rows into exit_at's. In place
 * is safe because the k-th interval's enter is row k or later and its
 * exit a row after its enter (pairs are made in row order): its rows
 * are read before anything is written there.
 */
static int
flatten(struct d9m_model *m, struct d9m_ivals *iv, int last, struct flat *f)
{
	struct d9m_spanev *e = &m->spanev;
	const uint64_t *ts = e->ts;
	const uint32_t *tag = e->tag;
	uint32_t *x = iv->exit_at;
	size_t k = 0, kf = 0;

	memset(f, 0, sizeof *f);
	for (size_t i = 0; i < e->n; i++)
		if (entered(iv, i)) {
			f->n++;
			f->nfar += ts[x[i] - 1] < ts[i] ||
			    ts[x[i] - 1] - ts[i] >= FAR;
		}
	f->far = malloc((f->nfar + 1) * sizeof *f->far);
	f->len = last ? x : malloc((f->n + 1) * sizeof *f->len);
	if (f->far == NULL || f->len == NULL) {
		free(f->far);
		if (!last)
			free(f->len);
		memset(f, 0, sizeof *f);
		return -1;
	}
	iv->exit_at = NULL;
	if (x == e->id)
		e->id = NULL;
	if (last) {
		f->enter = e->ts;
		f->worker = e->tag;
		e->ts = NULL;
		e->tag = NULL;
	} else
		f->row = x;
	for (size_t i = 0; i < e->n; i++) {
		uint64_t t, xt;

		if (!entered(iv, i))
			continue;
		t = ts[i];
		xt = ts[x[i] - 1];
		if (last) {
			f->worker[k] = m->spantags.worker[tag[i]];
			f->enter[k] = t;
		} else
			f->row[k] = (uint32_t)i;
		if (xt < t || xt - t >= FAR) {
			f->len[k] = FAR;
			f->far[kf++] = xt;
		} else
			f->len[k] = (uint32_t)(xt - t);
		k++;
	}
	if (f->enter != NULL) {
		f->enter = shrink(f->enter, f->n, sizeof *f->enter);
		f->worker = shrink(f->worker, f->n, sizeof *f->worker);
	} else
		f->row = shrink(f->row, f->n, sizeof *f->row);
	f->len = shrink(f->len, f->n, sizeof *f->len);
	return 0;
}

/*
 * Spans fully inside one poll of their worker (many-spans-per-poll),
 * over the whole trace: the intervals by their enters, in time order,
 * so the poll each worker runs is found by walking its polls along.
 */
static int
in_polls(struct d9m_model *m, const struct flat *f)
{
	struct d9m_spans *s = &m->spans;
	uint32_t *cnt = d9_pages_calloc(m->polls.n + 1, sizeof *cnt);
	/* per worker slot: its last poll started so far */
	size_t *cur = malloc((m->nworkers + 1) * sizeof *cur);
	size_t kf = 0;

	if (cnt == NULL || cur == NULL) {
		free(cnt);
		free(cur);
		return -1;
	}
	for (size_t w = 0; w < m->nworkers; w++)
		cur[w] = m->workers[w].poll0;
	for (size_t i = 0; i < f->n; i++) {
		uint32_t w = d9m_worker_slot(m, f->row ?
		    D9M_EV(m, worker, f->row[i]) : f->worker[i]);
		uint64_t t = f->row ? m->spanev.ts[f->row[i]] : f->enter[i];
		uint64_t xt = f->len[i] == FAR ? f->far[kf++] : t + f->len[i];
		size_t end, *p;

		if (w == D9_NONE)
			continue;
		end = m->workers[w].poll0 + m->workers[w].npolls;
		for (p = &cur[w]; *p + 1 < end && m->polls.start[*p + 1] <=
		    t; ++*p)
			;
		if (*p < end && m->polls.start[*p] <= t &&
		    xt <= m->polls.end[*p])
			cnt[*p]++;
	}
	for (size_t p = 0; p < m->polls.n; p++) {
		if (cnt[p] > 20)
			s->polls_over20++;
		if (cnt[p] > s->poll_max) {
			s->poll_max = cnt[p];
			s->poll_row = (uint32_t)p;
		}
	}
	free(cnt);
	free(cur);
	return 0;
}

/* ---- the whole ---- */

/* Reorder column col (n elements of size el) by perm, through tmp. */
static void
permute(void *col, size_t el, const uint32_t *perm, size_t n, void *tmp)
{
	for (size_t i = 0; i < n; i++)
		memcpy((char *)tmp + i * el, (char *)col + perm[i] * el, el);
	memcpy(col, tmp, n * el);
}

/* Instances by start (stable: legacy lives keep their order), parents
 * following their rows. */
static int
sort_by_start(struct d9m_spans *s)
{
	size_t n = s->n;
	uint32_t *perm = malloc((n + 1) * sizeof *perm);
	uint32_t *inv = malloc((n + 1) * sizeof *inv);
	uint64_t *tmp = d9_pages_alloc((n + 1) * sizeof *tmp);
	int rc = -1;

	if (perm == NULL || inv == NULL || tmp == NULL ||
	    d9m_sort_perm(s->start, n, perm) < 0)
		goto out;
	for (size_t i = 0; i < n; i++)
		inv[perm[i]] = (uint32_t)i;
	for (size_t i = 0; i < n; i++)
		if (s->parent[i] != D9_NONE)
			s->parent[i] = inv[s->parent[i]];
	permute(s->start, 8, perm, n, tmp);
	permute(s->dur, 8, perm, n, tmp);
	permute(s->active, 8, perm, n, tmp);
	permute(s->name, 4, perm, n, tmp);
	permute(s->worker, 4, perm, n, tmp);
	permute(s->fields, 4, perm, n, tmp);
	permute(s->slices, 4, perm, n, tmp);
	permute(s->parent, 4, perm, n, tmp);
	permute(s->kind, 1, perm, n, tmp);
	rc = 0;
out:
	free(perm);
	free(inv);
	free(tmp);
	return rc;
}

void
d9m_spans_free(struct d9m_spans *s)
{
	free(s->start);
	free(s->dur);
	free(s->name);
	free(s->worker);
	free(s->fields);
	free(s->active);
	free(s->slices);
	free(s->parent);
	free(s->kind);
	free(s->open_ts);
	memset(s, 0, sizeof *s);
}

static void
drop_events(struct d9m_model *m)
{
	d9m_tab_free(&m->spanev, &d9m_desc_spanev);
	d9m_tab_free(&m->spanx, &d9m_desc_spanx);
	d9m_tab_free(&m->spantags, &d9m_desc_spantags);
}

int
d9m_spans_pair(struct d9m_model *m, struct d9m_gate *polls)
{
	const struct d9m_spanev *e = &m->spanev;
	struct d9m_spans *s = &m->spans;
	size_t nx = e->n + 1;
	/* finishing for the last time, in place of the ids */
	struct d9m_ivals iv = { m->last && e->id != NULL ? e->id :
	    d9_pages_alloc(nx * sizeof *iv.exit_at),
	    d9_pages_calloc(nx / 8 + 1, 1) };
	struct flat fl = { 0 };
	int rc = -1;

	memset(s, 0, sizeof *s);
	s->poll_row = D9_NONE;
	s->start = d9_pages_alloc(nx * sizeof *s->start);
	s->dur = d9_pages_alloc(nx * sizeof *s->dur);
	s->name = d9_pages_alloc(nx * sizeof *s->name);
	s->worker = d9_pages_alloc(nx * sizeof *s->worker);
	s->fields = d9_pages_alloc(nx * sizeof *s->fields);
	s->active = d9_pages_alloc(nx * sizeof *s->active);
	s->slices = d9_pages_alloc(nx * sizeof *s->slices);
	s->parent = d9_pages_alloc(nx * sizeof *s->parent);
	s->kind = d9_pages_alloc(nx * sizeof *s->kind);
	s->open_ts = d9_pages_alloc(nx * sizeof *s->open_ts);
	if (iv.exit_at == NULL || iv.entered == NULL || s->start == NULL ||
	    s->dur == NULL || s->name == NULL || s->worker == NULL ||
	    s->fields == NULL || s->active == NULL || s->slices == NULL ||
	    s->parent == NULL || s->kind == NULL || s->open_ts == NULL ||
	    d9m_link_lives(m) < 0)
		goto out;
	legacy_spans(m, &iv, s);
	/* the links served the legacy lives only: nothing reads them later
	 * (nor the ids they replaced, when in place of them) */
	if (m->spanev.next != m->spanev.id)
		free(m->spanev.next);
	free(m->spanev.first);
	m->spanev.next = NULL;
	m->spanev.first = NULL;
	if (modern_spans(m, &iv, s) < 0)
		goto out;
	single_spans(m, s);
	if (m->last) {
		/* the counts read only the events' times and tags (and the
		 * ids' column, exit_at now): spanx goes before the wait, which
		 * may be long */
		d9m_tab_free(&m->spanx, &d9m_desc_spanx);
	}
	/* the intervals are counted as soon as the polls are there; when
	 * finishing for the last time, the events' times and tags become
	 * the intervals' meanwhile */
	if (flatten(m, &iv, m->last, &fl) < 0)
		goto out;
	free(iv.entered);
	iv.entered = NULL;
	if (d9m_gate_wait(polls) < 0 || in_polls(m, &fl) < 0)
		goto out;
	flat_free(&fl);
	if (m->last)	/* gone before the instances' sort takes its room */
		drop_events(m);
	rc = sort_by_start(s) < 0 ||
	    d9m_sort_u64(s->open_ts, s->nopen) < 0 ? -1 : 0;
out:
	if (iv.exit_at != m->spanev.id)
		free(iv.exit_at);
	free(iv.entered);
	flat_free(&fl);
	return rc;
}

/* ---- the lives of legacy span events ---- */

/*
 * One pass over the rows in time order, with the
 * life so far of each span id (its latest row and latest enter), found
 * by the id's number: each event is linked to the latest row of its
 * id's life. A close ends the life but keeps the id's slot (span ids are
 * reused: 27 K ids for 10 M events in the 58-segment benchmark), so the
 * slots stay in cache.
 */

/* An id's life so far: its latest row and its latest enter (D9_NONE: no
 * open life). */
struct life {
	uint32_t	 last, enter;
};

int
d9m_link_lives(struct d9m_model *m)
{
	struct d9m_spanev *e = &m->spanev;
	struct life *l;
	size_t n = e->n ? e->n : 1, nid = 0;

	/* the ids are numbered densely as read: one life slot each */
	for (size_t i = 0; i < e->n; i++)
		if (d9m_span_is_legacy(m, i) && e->id[i] >= nid)
			nid = (size_t)e->id[i] + 1;
	/* finishing for the last time, a legacy row's id is read here
	 * only: its link takes its place (82 MB in dir-116, at the
	 * finishing's peak) */
	e->next = m->last && e->id != NULL ? e->id :
	    malloc(n * sizeof *e->next);
	e->first = calloc(n / 8 + 1, 1);
	l = malloc((nid ? nid : 1) * sizeof *l);
	if (e->next == NULL || e->first == NULL || l == NULL) {
		if (e->next == e->id)
			e->next = NULL;
		free(l);
		return -1;
	}
	for (size_t k = 0; k < nid; k++)
		l[k].last = l[k].enter = D9_NONE;
	for (size_t i = 0; i < e->n; i++) {
		struct life *f;
		uint8_t kind;

		if (!d9m_span_is_legacy(m, i)) {
			if (e->next != e->id)	/* else its spanx row */
				e->next[i] = D9_NONE;
			continue;
		}
		f = &l[e->id[i]];	/* before its link takes its place */
		e->next[i] = D9_NONE;
		kind = D9M_EV(m, kind, i);
		if (f->last != D9_NONE)
			e->next[f->last] = (uint32_t)i;
		f->last = (uint32_t)i;
		if (kind == D9M_SPAN_ENTER) {
			if (f->enter == D9_NONE)
				e->first[i / 8] |= (uint8_t)(1u << i % 8);
			f->enter = (uint32_t)i;
		} else if (kind == D9M_SPAN_CLOSE)
			f->last = f->enter = D9_NONE;	/* the id may be reused */
	}
	free(l);
	return 0;
}
