/*
 * fold_runtime.c: polls, wakes, parks and tasks of a source. A poll's
 * sample counts are its CPU samples' (model: cpu.poll, ANALYSIS 4), on
 * and off CPU apart, and its verdict d9m_poll_verdict's kind (ANALYSIS
 * 17; "unknown" without samples), by d9m_poll_kind: each distinct stack
 * classified once for all the polls; its scheduling delay is the
 * model's (ANALYSIS 5.1, stale wakes excluded: poll_sched). A task's figures add
 * up its polls: how many, their time, their scheduling delays, and the
 * wakes it gave itself.
 */
#include <stdlib.h>
#include <string.h>

#include "base/wire.h"
#include "export/fold.h"
#include "model/core/ids.h"
#include "model/queries/samples.h"
#include "model/figures/verdict.h"

int
d9x_leaves_end(struct d9x_leaf *l, size_t n, int rc)
{
	/* leaves closed before a failure stay: their rows are right, and
	 * without its segments leaf the source is exported again */
	for (size_t i = 0; i < n; i++) {
		if (rc < 0)
			d9x_leaf_abort(&l[i]);
		else if (d9x_leaf_close(&l[i]) < 0)
			rc = -1;
	}
	return rc;
}

static void
put_opt(struct d9x_pq *w, size_t f, int have, uint64_t v)
{
	if (have)
		d9x_pq_int(w, f, v);
	else
		d9x_pq_null(w, f);
}

static void
put_loc(const struct d9m_model *m, struct d9x_pq *w, size_t f, uint32_t loc)
{
	const char *s;
	uint32_t len;

	if (loc == D9_NONE) {
		d9x_pq_null(w, f);
		return;
	}
	s = d9_intern_str(&m->strs, loc, &len);
	d9x_pq_str(w, f, s, len);
}

/* On- and off-CPU samples of every poll (counts[2 p], [2 p + 1]). */
static uint32_t *
poll_counts(const struct d9m_model *m)
{
	uint32_t *c = calloc(2 * m->polls.n + 2, sizeof *c);

	for (size_t i = 0; c != NULL && i < m->cpu.n; i++) {
		enum d9m_cpu_class k = d9m_cpu_class(m, i);
		uint32_t p = m->cpu.poll[i];

		if (p != D9_NONE && k != D9M_OTHER_CPU)
			c[2 * (size_t)p + (k == D9M_OFF_CPU)]++;
	}
	return c;
}

static int
poll_row(struct d9x_fold *x, struct d9x_leaf *l, size_t w, size_t p,
    const uint32_t *cnt, struct d9m_vmemo *memo)
{
	const struct d9x_source *s = x->src;
	const struct d9m_model *m = s->m;
	struct d9x_pq *pq = d9x_leaf_pq(l);
	uint64_t sched = m->poll_sched ? m->poll_sched[p] : D9M_SCHED_NONE;
	const char *verdict = "unknown";
	enum d9m_vclass kind;

	if (pq == NULL)
		return -1;
	if (cnt[2 * p] + cnt[2 * p + 1] > 0) {
		if (d9m_poll_kind(m, s->r, (uint32_t)p, memo, &kind) < 0)
			return -1;
		verdict = d9m_vclass_name(kind);
	}
	d9x_pq_int(pq, D9X_POLL_START, (uint64_t)d9x_ns(s, m->polls.start[p]));
	d9x_pq_int(pq, D9X_POLL_END, (uint64_t)d9x_ns(s, m->polls.end[p]));
	d9x_pq_int(pq, D9X_POLL_DUR, m->polls.end[p] - m->polls.start[p]);
	d9x_pq_int(pq, D9X_POLL_WORKER, m->workers[w].own);
	d9x_pq_int(pq, D9X_POLL_TASK, d9x_task_id(s, m->polls.task[p]));
	put_loc(m, pq, D9X_POLL_LOC, m->polls.loc[p]);
	put_opt(pq, D9X_POLL_SCHED, sched < D9M_SCHED_NO_WAKE, sched);
	d9x_pq_int(pq, D9X_POLL_CPU, cnt[2 * p]);
	d9x_pq_int(pq, D9X_POLL_SWITCHES, cnt[2 * p + 1]);
	d9x_pq_str(pq, D9X_POLL_VERDICT, verdict, strlen(verdict));
	d9x_pq_int(pq, D9X_POLL_OPEN, (m->polls.flags[p] &
	    D9M_POLL_OPEN_ENDED) != 0);
	return d9x_leaf_row(l);
}

static int
polls(struct d9x_fold *x, struct d9x_leaf *l)
{
	const struct d9m_model *m = x->src->m;
	uint32_t *cnt = poll_counts(m);
	struct d9m_vmemo memo;
	int rc = d9m_vmemo_init(&memo) < 0 || cnt == NULL ? -1 : 0;

	for (size_t w = 0; rc == 0 && w < m->nworkers; w++) {
		const struct d9m_worker *k = &m->workers[w];

		if (!d9x_slot_in(x->src, w))
			continue;
		for (size_t p = k->poll0; rc == 0 && p < k->poll0 + k->npolls;
		    p++)
			rc = poll_row(x, l, w, p, cnt, &memo);
	}
	d9m_vmemo_free(&memo);
	free(cnt);
	return rc;
}

/* The group of wake i: its woken task's, its waker's, its worker's. */
static uint32_t
wake_group(const struct d9x_source *s, size_t i)
{
	const struct d9m_wakes *k = &s->m->wakes;

	if (k->woken[i] != D9_NONE)
		return s->m->tasks.group[k->woken[i]];
	if (k->waker[i] != D9_NONE)
		return s->m->tasks.group[k->waker[i]];
	return k->worker[i] == D9_NONE ? 0 : d9x_worker_group(s, k->worker[i]);
}

static int
wakes(struct d9x_fold *x, struct d9x_leaf *l)
{
	const struct d9x_source *s = x->src;
	const struct d9m_wakes *k = &s->m->wakes;

	for (size_t i = 0; i < k->n; i++) {
		uint64_t own = d9m_worker_own(s->m, k->worker[i]);
		struct d9x_pq *pq;

		if (wake_group(s, i) != s->g)
			continue;
		if ((pq = d9x_leaf_pq(l)) == NULL)
			return -1;
		d9x_pq_int(pq, D9X_WAKE_TS, (uint64_t)d9x_ns(s, k->ts[i]));
		d9x_pq_int(pq, D9X_WAKE_WAKER, d9x_task_id(s, k->waker[i]));
		d9x_pq_int(pq, D9X_WAKE_WOKEN, d9x_task_id(s, k->woken[i]));
		put_opt(pq, D9X_WAKE_TARGET, k->worker[i] != D9_NONE &&
		    own != D9_WORKER_NONE, own);
		if (d9x_leaf_row(l) < 0)
			return -1;
	}
	return 0;
}

static int
parks(struct d9x_fold *x, struct d9x_leaf *l)
{
	const struct d9x_source *s = x->src;
	const struct d9m_periods *k = &s->m->parks;

	for (size_t i = 0; i < k->n; i++) {
		struct d9x_pq *pq;

		if (!d9x_slot_in(s, k->worker[i]))
			continue;
		if ((pq = d9x_leaf_pq(l)) == NULL)
			return -1;
		d9x_pq_int(pq, D9X_PARK_START, (uint64_t)d9x_ns(s,
		    k->start[i]));
		d9x_pq_int(pq, D9X_PARK_END, (uint64_t)d9x_ns(s, k->end[i]));
		d9x_pq_int(pq, D9X_PARK_WORKER, s->m->workers[k->worker[i]].own);
		put_opt(pq, D9X_PARK_WAIT, k->sched_wait[i] != D9M_ABSENT,
		    k->sched_wait[i]);
		if (d9x_leaf_row(l) < 0)
			return -1;
	}
	return 0;
}

static int
task_row(struct d9x_fold *x, struct d9x_leaf *l, uint32_t t)
{
	const struct d9x_source *s = x->src;
	const struct d9m_model *m = s->m;
	const struct d9m_tasks *k = &m->tasks;
	uint64_t busy = 0, sched = 0, self = 0, npolls = 0;
	struct d9x_pq *pq = d9x_leaf_pq(l);

	if (pq == NULL)
		return -1;
	if (m->task_polls_off != NULL) {
		npolls = m->task_polls_off[t + 1] - m->task_polls_off[t];
		for (size_t j = m->task_polls_off[t]; j <
		    m->task_polls_off[t + 1]; j++) {
			uint32_t p = m->task_polls[j];

			busy += m->polls.end[p] - m->polls.start[p];
			if (m->poll_sched && m->poll_sched[p] <
			    D9M_SCHED_NO_WAKE)
				sched += m->poll_sched[p];
		}
	}
	if (m->wakes.by_woken_off != NULL)
		for (size_t j = m->wakes.by_woken_off[t]; j <
		    m->wakes.by_woken_off[t + 1]; j++)
			self += m->wakes.waker[m->wakes.by_woken[j]] == t;
	d9x_pq_int(pq, D9X_TASK_ID, k->id[t]);
	put_loc(m, pq, D9X_TASK_LOC, k->loc[t]);
	put_opt(pq, D9X_TASK_SPAWN, k->spawn_ts[t] != D9M_ABSENT,
	    (uint64_t)d9x_ns(s, k->spawn_ts[t]));
	put_opt(pq, D9X_TASK_TERM, k->term_ts[t] != D9M_ABSENT,
	    (uint64_t)d9x_ns(s, k->term_ts[t]));
	d9x_pq_int(pq, D9X_TASK_POLLS, npolls);
	d9x_pq_int(pq, D9X_TASK_BUSY, busy);
	d9x_pq_int(pq, D9X_TASK_SCHED, sched);
	d9x_pq_int(pq, D9X_TASK_SELF, self);
	return d9x_leaf_row(l);
}

static int
tasks(struct d9x_fold *x, struct d9x_leaf *l)
{
	for (size_t t = 0; t < x->src->m->tasks.n; t++)
		if (d9x_task_in(x->src, (uint32_t)t) &&
		    task_row(x, l, (uint32_t)t) < 0)
			return -1;
	return 0;
}

int
d9x_fold_runtime(struct d9x_fold *x)
{
	struct d9x_leaf l[4];
	int rc;

	d9x_leaf_init(&l[0], x->out, x->src, D9X_T_POLLS);
	d9x_leaf_init(&l[1], x->out, x->src, D9X_T_WAKES);
	d9x_leaf_init(&l[2], x->out, x->src, D9X_T_PARKS);
	d9x_leaf_init(&l[3], x->out, x->src, D9X_T_TASKS);
	/* the model's rows: the source's, or more when it has others */
	d9x_leaf_expect(&l[0], x->src->m->polls.n);
	d9x_leaf_expect(&l[1], x->src->m->wakes.n);
	d9x_leaf_expect(&l[2], x->src->m->parks.n);
	d9x_leaf_expect(&l[3], x->src->m->tasks.n);
	rc = polls(x, &l[0]) < 0 || wakes(x, &l[1]) < 0 ||
	    parks(x, &l[2]) < 0 || tasks(x, &l[3]) < 0 ? -1 : 0;
	return d9x_leaves_end(l, 4, rc);
}
