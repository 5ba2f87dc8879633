/*
 * fold_spans.c: the span instances of a source (model/core/spans.c, ANALYSIS
 * 6): one row each, as --json's spans figures count them, a span
 * without a name under "unknown" as there. span_id numbers the
 * instances of the leaf's input (the model's row), parent names its
 * parent's, fields are the span's fields (a 0.5 close's attributes
 * first).
 */
#include <string.h>

#include "base/wire.h"
#include "export/fold.h"
#include "model/core/ids.h"

static void
put_fields(const struct d9m_model *m, struct d9x_pq *pq, uint32_t fields)
{
	uint32_t len = 0;
	const char *p = fields == D9_NONE ? NULL : d9_intern_str(&m->lists,
	    fields, &len);

	d9x_pq_begin(pq, D9X_SPAN_FIELDS);
	for (uint32_t i = 0; p != NULL && i + 8 <= len; i += 8) {
		uint32_t kl, vl;
		const char *k, *v;
		uint64_t kv;

		memcpy(&kv, p + i, 8);
		k = d9_intern_str(&m->strs, (uint32_t)(kv >> 32), &kl);
		v = d9_intern_str(&m->strs, (uint32_t)kv, &vl);
		d9x_pq_entry(pq, D9X_SPAN_FIELDS, k, kl, v, vl);
	}
	d9x_pq_end(pq, D9X_SPAN_FIELDS);
}

static int
span_row(struct d9x_fold *x, struct d9x_leaf *l, size_t i)
{
	const struct d9x_source *s = x->src;
	const struct d9m_spans *k = &s->m->spans;
	uint64_t own = d9m_worker_own(s->m, k->worker[i]);
	const char *name = k->name[i] == D9_NONE ? "unknown" :
	    d9m_str(s->m, k->name[i]);
	struct d9x_pq *pq = d9x_leaf_pq(l);

	if (pq == NULL)
		return -1;
	d9x_pq_str(pq, D9X_SPAN_NAME, name, strlen(name));
	d9x_pq_int(pq, D9X_SPAN_START, (uint64_t)d9x_ns(s, k->start[i]));
	d9x_pq_int(pq, D9X_SPAN_END, (uint64_t)d9x_ns(s, k->start[i] +
	    k->dur[i]));
	d9x_pq_int(pq, D9X_SPAN_DUR, k->dur[i]);
	if (k->slices != NULL && k->slices[i] > 0)
		d9x_pq_int(pq, D9X_SPAN_ENTERED, k->active[i]);
	else
		d9x_pq_null(pq, D9X_SPAN_ENTERED);
	if (k->worker[i] != D9_NONE && own != D9_WORKER_NONE)
		d9x_pq_int(pq, D9X_SPAN_WORKER, own);
	else
		d9x_pq_null(pq, D9X_SPAN_WORKER);
	if (k->parent != NULL && k->parent[i] != D9_NONE)
		d9x_pq_int(pq, D9X_SPAN_PARENT, k->parent[i]);
	else
		d9x_pq_null(pq, D9X_SPAN_PARENT);
	put_fields(s->m, pq, k->fields[i]);
	d9x_pq_int(pq, D9X_SPAN_ID, i);
	return d9x_leaf_row(l);
}

int
d9x_fold_spans(struct d9x_fold *x)
{
	const struct d9x_source *s = x->src;
	const struct d9m_spans *k = &s->m->spans;
	struct d9x_leaf l;
	int rc = 0;

	d9x_leaf_init(&l, x->out, s, D9X_T_SPANS);
	d9x_leaf_expect(&l, k->n);
	for (size_t i = 0; rc == 0 && i < k->n; i++) {
		uint32_t g = k->worker[i] == D9_NONE ? 0 :
		    d9x_worker_group(s, k->worker[i]);

		if (g == s->g)
			rc = span_row(x, &l, i);
	}
	return d9x_leaves_end(&l, 1, rc);
}
