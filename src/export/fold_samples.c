/*
 * fold_samples.c: samples and allocations of a source, then the stacks
 * they name. A sample's weight is what it stands for (d9m_cpu_weight:
 * an off-CPU sample recorded one switch in N stands for N); its worker
 * is the one the model attributes it to (ANALYSIS 1, ADR-0001), null off
 * the runtime; its poll, the poll running there (ANALYSIS 4). An
 * allocation's estimated bytes are its Horvitz-Thompson weight with its
 * segment's sample rate (d9m_alloc_weight, ANALYSIS 7), its free the
 * one the model pairs with it (d9m_alloc_freed over the whole trace).
 */
#include <stdlib.h>
#include <string.h>

#include "export/fold.h"
#include "model/core/ids.h"
#include "model/queries/samples.h"
#include "model/queries/window.h"

static int
sample_row(struct d9x_fold *x, struct d9x_leaf *l, size_t i)
{
	const struct d9x_source *s = x->src;
	const struct d9m_model *m = s->m;
	const struct d9m_cpu *c = &m->cpu;
	struct d9x_pq *pq = d9x_leaf_pq(l);
	uint32_t slot = c->lane[i] ? d9m_worker_slot(m, c->worker[i]) :
	    D9_NONE, p = c->poll[i];
	uint8_t id[16];

	if (pq == NULL || d9x_stacks_id(&x->stacks, s, c->seg[i], c->stack[i],
	    0, id) < 0)
		return -1;
	d9x_pq_int(pq, D9X_SAMPLE_TS, (uint64_t)d9x_ns(s, c->ts[i]));
	d9x_pq_str(pq, D9X_SAMPLE_STACK, id, 16);
	if (slot != D9_NONE)
		d9x_pq_int(pq, D9X_SAMPLE_WORKER, m->workers[slot].own);
	else
		d9x_pq_null(pq, D9X_SAMPLE_WORKER);
	if (c->tid[i] != D9_NONE)
		d9x_pq_int(pq, D9X_SAMPLE_TID, d9m_group_tid(s->g, c->tid[i]));
	else
		d9x_pq_null(pq, D9X_SAMPLE_TID);
	d9x_pq_int(pq, D9X_SAMPLE_SOURCE, c->source[i]);
	d9x_pq_dbl(pq, D9X_SAMPLE_WEIGHT, d9m_cpu_weight(m, i));
	if (p != D9_NONE) {
		uint32_t loc = m->polls.loc[p];
		uint32_t len;
		const char *v = d9_intern_str(&m->strs, loc, &len);

		d9x_pq_int(pq, D9X_SAMPLE_TASK, d9x_task_id(s,
		    m->polls.task[p]));
		d9x_pq_int(pq, D9X_SAMPLE_POLL_DUR, m->polls.end[p] -
		    m->polls.start[p]);
		if (loc != D9_NONE)
			d9x_pq_str(pq, D9X_SAMPLE_LOC, v, len);
		else
			d9x_pq_null(pq, D9X_SAMPLE_LOC);
	} else {
		d9x_pq_null(pq, D9X_SAMPLE_TASK);
		d9x_pq_null(pq, D9X_SAMPLE_POLL_DUR);
		d9x_pq_null(pq, D9X_SAMPLE_LOC);
	}
	return d9x_leaf_row(l);
}

static int
samples(struct d9x_fold *x, struct d9x_leaf *l)
{
	const struct d9m_cpu *c = &x->src->m->cpu;

	for (size_t i = 0; i < c->n; i++)
		if (d9x_seg_in(x->src, c->seg[i]) && sample_row(x, l, i) < 0)
			return -1;
	return 0;
}

static int
allocations(struct d9x_fold *x, struct d9x_leaf *l)
{
	const struct d9x_source *s = x->src;
	const struct d9m_allocs *a = &s->m->allocs;
	struct d9m_window all = D9M_WHOLE;
	uint64_t *freed = NULL;
	size_t a0, a1;
	int rc = 0;

	if (a->n == 0)
		return 0;
	if (d9m_alloc_freed(s->m, &all, &a0, &a1, &freed) < 0)
		return -1;
	for (size_t i = a0; rc == 0 && i < a1; i++) {
		struct d9x_pq *pq;
		uint8_t id[16];
		double wb, wc;

		if (!d9x_seg_in(s, a->seg[i]))
			continue;
		if ((pq = d9x_leaf_pq(l)) == NULL || d9x_stacks_id(&x->stacks,
		    s, a->seg[i], a->stack[i], 1, id) < 0) {
			rc = -1;
			break;
		}
		d9m_alloc_weight(s->m, i, &wb, &wc);
		d9x_pq_int(pq, D9X_ALLOC_TS, (uint64_t)d9x_ns(s, a->ts[i]));
		d9x_pq_int(pq, D9X_ALLOC_SIZE, a->size[i]);
		d9x_pq_dbl(pq, D9X_ALLOC_EST, wb);
		if (freed[i - a0] != UINT64_MAX)
			d9x_pq_int(pq, D9X_ALLOC_FREED, (uint64_t)d9x_ns(s,
			    freed[i - a0]));
		else
			d9x_pq_null(pq, D9X_ALLOC_FREED);
		d9x_pq_str(pq, D9X_ALLOC_STACK, id, 16);
		rc = d9x_leaf_row(l);
	}
	free(freed);
	return rc;
}

int
d9x_fold_samples(struct d9x_fold *x)
{
	struct d9x_leaf l[3];
	int rc;

	d9x_leaf_init(&l[0], x->out, x->src, D9X_T_SAMPLES);
	d9x_leaf_init(&l[1], x->out, x->src, D9X_T_ALLOCATIONS);
	d9x_leaf_init(&l[2], x->out, x->src, D9X_T_STACKS);
	d9x_leaf_expect(&l[0], x->src->m->cpu.n);
	d9x_leaf_expect(&l[1], x->src->m->allocs.n);
	rc = samples(x, &l[0]) < 0 || allocations(x, &l[1]) < 0 ||
	    d9x_stacks_write(&x->stacks, &l[2]) < 0 ? -1 : 0;
	return d9x_leaves_end(l, 3, rc);
}
