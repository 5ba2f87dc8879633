/*
 * fold_metrics.c: runtime_metrics (the global queue samples: dial9 0.5's
 * RuntimeMetricsEvent per runtime, the older QueueSampleEvent of all
 * runtimes, runtime null) and metrics (the metric series' samples,
 * FORMAT 5) of a source. Names scoped to a source ("1:name", ids.h) are
 * written without the scope.
 */
#include <string.h>

#include "export/fold.h"
#include "model/figures/metrics.h"

static int
queue(struct d9x_fold *x, struct d9x_leaf *l)
{
	const struct d9x_source *s = x->src;
	const struct d9m_queue *q = &s->m->queue;

	for (size_t i = 0; i < q->n; i++) {
		const char *name = NULL;
		uint32_t g = q->runtime[i] == D9_NONE ? 0 :
		    d9x_name_group(s, q->runtime[i], &name);
		struct d9x_pq *pq;

		if (g != s->g)
			continue;
		if ((pq = d9x_leaf_pq(l)) == NULL)
			return -1;
		d9x_pq_int(pq, D9X_RTM_TS, (uint64_t)d9x_ns(s, q->ts[i]));
		if (name != NULL)
			d9x_pq_str(pq, D9X_RTM_RUNTIME, name, strlen(name));
		else
			d9x_pq_null(pq, D9X_RTM_RUNTIME);
		d9x_pq_int(pq, D9X_RTM_QUEUE, q->global[i]);
		if (q->alive[i] != D9_NONE)
			d9x_pq_int(pq, D9X_RTM_ALIVE, q->alive[i]);
		else
			d9x_pq_null(pq, D9X_RTM_ALIVE);
		if (d9x_leaf_row(l) < 0)
			return -1;
	}
	return 0;
}

static int
metrics(struct d9x_fold *x, struct d9x_leaf *l)
{
	const struct d9x_source *s = x->src;
	const struct d9m_msamples *v = &s->m->msamples;

	for (size_t i = 0; i < v->n; i++) {
		uint32_t mt = v->metric[i];
		const char *name, *kind;
		struct d9x_pq *pq;

		if (mt >= s->m->metrics.n || d9x_name_group(s,
		    s->m->metrics.name[mt], &name) != s->g)
			continue;
		if ((pq = d9x_leaf_pq(l)) == NULL)
			return -1;
		kind = d9m_metric_kind_name(s->m->metrics.kind[mt]);
		d9x_pq_int(pq, D9X_METRIC_TS, (uint64_t)d9x_ns(s, v->ts[i]));
		d9x_pq_str(pq, D9X_METRIC_NAME, name, strlen(name));
		d9x_pq_str(pq, D9X_METRIC_KIND, kind, strlen(kind));
		d9x_pq_dbl(pq, D9X_METRIC_VALUE, v->value[i]);
		if (d9x_leaf_row(l) < 0)
			return -1;
	}
	return 0;
}

int
d9x_fold_metrics(struct d9x_fold *x)
{
	struct d9x_leaf l[2];
	int rc;

	d9x_leaf_init(&l[0], x->out, x->src, D9X_T_RUNTIME_METRICS);
	d9x_leaf_init(&l[1], x->out, x->src, D9X_T_METRICS);
	rc = queue(x, &l[0]) < 0 || metrics(x, &l[1]) < 0 ? -1 : 0;
	return d9x_leaves_end(l, 2, rc);
}
