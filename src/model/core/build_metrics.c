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
 *
 * dial9 0.5.1 and later annotate the numeric fields of other events too
 * (CudaGpuEvent, NVML samples of each GPU): any event whose numeric
 * fields carry kind gauge or counter is a metric source, each such field
 * a series "Event.field{its string fields}" (one per device), not an
 * application event.
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

/* The series named name[0 .. len) of process group g, made when new
 * with field f's kind and unit; D9_NONE when out of memory. */
static uint32_t
series_named(struct d9m_builder *b, const char *name, size_t len,
    const struct d9p_field *f)
{
	struct d9m_model *m = b->m;
	uint32_t id = d9m_scoped_name(m, b->at.pend.group, name, len);
	size_t row;

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

/* The series of field j of sm, made when new; D9_NONE when out of
 * memory. */
static uint32_t
series(struct d9m_builder *b, const struct d9m_smap *sm, uint16_t j)
{
	const struct d9p_field *f = &sm->s->fields[j];
	const struct d9_schema_def *def = d9_schema(D9_SCH_METRIC);
	const char *metric = sm->s->name + strlen(def->name);
	const char *field = def->fields[D9_F_METRIC_VALUE].name;
	size_t len = strlen(metric) + f->name_len + 2;
	char *name = malloc(len);
	uint32_t id;

	if (name == NULL)
		return D9_NONE;
	if (strcmp(f->name, field) == 0)
		snprintf(name, len, "%s", metric);
	else
		snprintf(name, len, "%s.%s", metric, f->name);
	id = series_named(b, name, strlen(name), f);
	free(name);
	return id;
}

/* A sample's value as a number. */
static double
number(const struct d9p_value *v)
{
	double x;

	if (v->type == D9_FT_F64) {
		memcpy(&x, &v->u, sizeof x);
		return x;
	}
	if (v->type == D9_FT_I64)
		return (double)(int64_t)v->u;
	return (double)v->u;
}

static int
sample(struct d9m_builder *b, uint64_t ts, uint32_t metric, double x)
{
	struct d9m_msamples *ms = &b->m->msamples;
	size_t row = d9m_tab_push(ms, &d9m_desc_msamples);

	if (row == SIZE_MAX)
		return -1;
	ms->ts[row] = ts;
	ms->metric[row] = metric;
	ms->value[row] = x;
	return 0;
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
	if (!sm->compiled && resolve(b, sm) < 0)
		return -1;
	for (uint16_t j = 0; j < sm->s->nfields; j++)
		if (sm->metric[j] != D9_NONE && v[j].present &&
		    sample(b, ts, sm->metric[j], number(&v[j])) < 0)
			return -1;
	return 0;
}

/* A numeric field annotated kind gauge or counter. */
static int
gauge_field(const struct d9p_field *f)
{
	return numeric(f->type) && f->kind != NULL &&
	    (strcmp(f->kind, "gauge") == 0 || strcmp(f->kind, "counter") == 0);
}

static int
text_field(const struct d9p_field *f)
{
	return f->type == D9_FT_STRING || f->type == D9_FT_POOLED_STRING;
}

int
d9m_b_gauges_compile(struct d9m_builder *b, struct d9m_smap *sm)
{
	const struct d9p_schema *s = sm->s;
	int any = 0;

	for (uint16_t j = 0; j < s->nfields; j++)
		any |= gauge_field(&s->fields[j]);
	if (!any)
		return 0;
	sm->metric = d9_arena_alloc(&b->m->arena, (s->nfields + 1u) *
	    sizeof *sm->metric, 4);
	if (sm->metric == NULL)
		return -1;
	for (uint16_t j = 0; j < s->nfields; j++)
		sm->metric[j] = gauge_field(&s->fields[j]) ? 0 : D9_NONE;
	return 0;
}

#define GAUGE_NAME	1024	/* a series name, cut beyond */

int
d9m_b_gauges(struct d9m_builder *b, const struct d9m_smap *sm, uint64_t ts,
    const struct d9p_value *v)
{
	const struct d9p_schema *s = sm->s;
	char label[GAUGE_NAME / 2], name[GAUGE_NAME];
	size_t ll = 0;

	/* the series' labels: its string fields, "{device_name=A10G}" */
	label[0] = '\0';
	for (uint16_t j = 0; j < s->nfields; j++) {
		uint32_t t;
		int n;

		if (!text_field(&s->fields[j]) ||
		    (t = d9m_b_text(b, &v[j])) == D9_NONE)
			continue;
		n = snprintf(label + ll, sizeof label - ll, "%s%s=%.100s",
		    ll ? "," : "{", s->fields[j].name, d9m_str(b->m, t));
		if (n < 0 || (size_t)n >= sizeof label - ll - 1)
			break;
		ll += (size_t)n;
	}
	if (ll > 0)
		snprintf(label + ll, sizeof label - ll, "}");
	for (uint16_t j = 0; j < s->nfields; j++) {
		uint32_t metric;
		int n;

		if (sm->metric[j] == D9_NONE || !v[j].present)
			continue;
		n = snprintf(name, sizeof name, "%s.%s%s", s->name,
		    s->fields[j].name, label);
		if (n < 0)
			continue;
		metric = series_named(b, name, strlen(name), &s->fields[j]);
		if (metric == D9_NONE || sample(b, ts, metric,
		    number(&v[j])) < 0)
			return -1;
	}
	return 0;
}
