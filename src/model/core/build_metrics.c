/*
 * build_metrics.c: metrics.rs metrics (FORMAT 5) into time series. dial9
 * writes one schema per metric, named metricsrs:<metric>{labels}, whose
 * numeric fields each carry a kind annotation (gauge, counter: a running
 * total, updown-counter) and maybe a unit: a gauge or counter has one
 * field, value; a histogram has count, sum and percentiles (absent when
 * nothing was measured). Each field is a series, "metric" for value and
 * "metric.field" for the others (ids.h: of its process), found once per
 * schema registration (by name, in the builder's map); a series keeps the
 * kind and unit it was first seen with.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/wire.h"
#include "model/core/build_int.h"
#include "model/core/ids.h"
#include "model/core/tables.h"

static uint8_t
kind_of(const char *k)
{
	if (k != NULL && strcmp(k, "counter") == 0)
		return D9M_COUNTER;
	if (k != NULL && strcmp(k, "updown-counter") == 0)
		return D9M_UPDOWN;
	return D9M_GAUGE;
}

static int
numeric(uint8_t type)
{
	return type == D9_FT_I64 || type == D9_FT_F64 || type == D9_FT_VARINT ||
	    type == D9_FT_U8 || type == D9_FT_U16 || type == D9_FT_U32;
}

/* The series of field j of sm, made when new; D9_NONE when out of
 * memory. */
static uint32_t
series(struct d9m_builder *b, const struct d9m_smap *sm, uint16_t j)
{
	struct d9m_model *m = b->m;
	const struct d9p_field *f = &sm->s->fields[j];
	const struct d9_schema_def *def = d9_schema(D9_SCH_METRIC);
	const char *metric = sm->s->name + strlen(def->name);
	const char *field = def->fields[D9_F_METRIC_VALUE].name;
	size_t len = strlen(metric) + f->name_len + 2;
	char *name = malloc(len);
	uint32_t id;
	size_t row;

	if (name == NULL)
		return D9_NONE;
	if (strcmp(f->name, field) == 0)
		snprintf(name, len, "%s", metric);
	else
		snprintf(name, len, "%s.%s", metric, f->name);
	id = d9m_scoped_name(m, b->at.pend.group, name, strlen(name));
	free(name);
	if (id == D9_NONE)
		return D9_NONE;
	if ((row = d9_hmap_get(&b->series, id)) != D9_NONE)
		return (uint32_t)row;
	if ((row = d9m_tab_push(&m->metrics, &d9m_desc_metrics)) == SIZE_MAX ||
	    row >= D9_NONE || d9_hmap_put(&b->series, id, (uint32_t)row) < 0)
		return D9_NONE;
	m->metrics.name[row] = id;
	m->metrics.kind[row] = kind_of(f->kind);
	m->metrics.unit[row] = f->unit != NULL ? d9_intern(&m->strs, f->unit,
	    f->unit_len) : D9_NONE;
	return (uint32_t)row;
}

static int
resolve(struct d9m_builder *b, struct d9m_smap *sm)
{
	const struct d9p_schema *s = sm->s;

	sm->compiled = 1;
	sm->metric = d9_arena_alloc(&b->m->arena, (s->nfields + 1u) *
	    sizeof *sm->metric, 4);
	if (sm->metric == NULL)
		return -1;
	for (uint16_t j = 0; j < s->nfields; j++) {
		sm->metric[j] = D9_NONE;
		if (numeric(s->fields[j].type) &&
		    (sm->metric[j] = series(b, sm, j)) == D9_NONE)
			return -1;
	}
	return 0;
}

int
d9m_b_metric(struct d9m_builder *b, struct d9m_smap *sm, uint64_t ts,
    const struct d9p_value *v)
{
	struct d9m_msamples *ms = &b->m->msamples;

	if (!sm->compiled && resolve(b, sm) < 0)
		return -1;
	for (uint16_t j = 0; j < sm->s->nfields; j++) {
		size_t row;
		double x;

		if (sm->metric[j] == D9_NONE || !v[j].present)
			continue;
		if (v[j].type == D9_FT_F64)
			memcpy(&x, &v[j].u, sizeof x);
		else if (v[j].type == D9_FT_I64)
			x = (double)(int64_t)v[j].u;
		else
			x = (double)v[j].u;
		if ((row = d9m_tab_push(ms, &d9m_desc_msamples)) == SIZE_MAX)
			return -1;
		ms->ts[row] = ts;
		ms->metric[row] = sm->metric[j];
		ms->value[row] = x;
	}
	return 0;
}
