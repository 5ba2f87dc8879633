/*
 * build_spans.c: span events into spanev rows (struct d9m_spanev):
 * tracing spans of both dialects (FORMAT 3.6, 5: an event with a
 * span_instance_id is dial9 0.5's, its close carrying the start, name,
 * parent instance and attributes of the span), and single-event spans:
 * events of an application's schema whose fields carry dial9.role
 * annotations (FORMAT 5). A schema's roles are read at its first event
 * (annotation frames follow the schema frame) into a layout; a schema
 * whose roles do not make a span (a role on a field of the wrong type,
 * a role twice, an unknown unit, fewer than two of start, duration and
 * end) stays an application event, and so does an event whose timing
 * cannot be read. Ids and times are those of the segment's process on
 * the model (ids.h, groups.h). Pairing is spans.c's.
 */
#include <stdint.h>
#include <string.h>

#include "base/vec.h"
#include "base/wire.h"
#include "model/core/build_int.h"
#include "model/core/ids.h"
#include "model/core/tables.h"

/* The fields of each span schema (D9M_NO_FIELD: it has no such field). */
static const struct span_fields {
	uint8_t	kind;		/* D9M_SPAN_* */
	int	worker, id, inst, tid, parent, name, start, attrs;
} span_fields[] = {
	{ D9M_SPAN_ENTER, D9_F_SPAN_ENTER_WORKER_ID, D9_F_SPAN_ENTER_SPAN_ID,
	    D9_F_SPAN_ENTER_INSTANCE_ID, D9_F_SPAN_ENTER_TID,
	    D9_F_SPAN_ENTER_PARENT_SPAN_ID, D9_F_SPAN_ENTER_SPAN_NAME,
	    D9M_NO_FIELD, D9M_NO_FIELD },
	{ D9M_SPAN_EXIT, D9_F_SPAN_EXIT_WORKER_ID, D9_F_SPAN_EXIT_SPAN_ID,
	    D9_F_SPAN_EXIT_INSTANCE_ID, D9_F_SPAN_EXIT_TID, D9M_NO_FIELD,
	    D9_F_SPAN_EXIT_SPAN_NAME, D9M_NO_FIELD, D9M_NO_FIELD },
	{ D9M_SPAN_CLOSE, D9M_NO_FIELD, D9_F_SPAN_CLOSE_SPAN_ID,
	    D9_F_SPAN_CLOSE_SPAN_INSTANCE_ID, D9M_NO_FIELD,
	    D9_F_SPAN_CLOSE_PARENT, D9_F_SPAN_CLOSE_SPAN_NAME,
	    D9_F_SPAN_CLOSE_START_NS, D9_F_SPAN_CLOSE_ATTRIBUTES },
};

/* ---- tags and ids ---- */

static uint64_t
tag_hash(const struct d9m_spantag *t)
{
	uint64_t h = ((uint64_t)t->name << 32 | t->fields) *
	    0x9e3779b97f4a7c15ull;

	h ^= (uint64_t)t->worker << 8 | (uint64_t)t->kind << 1 | t->legacy;
	h *= 0xbf58476d1ce4e5b9ull;
	return h ^ h >> 31;
}

static int
same_tag(const void *ctx, uint32_t row)
{
	const struct d9m_builder *b = ctx;
	const struct d9m_spantag *t = &b->tagv[row];

	return t->name == b->want.name && t->fields == b->want.fields &&
	    t->worker == b->want.worker && t->kind == b->want.kind &&
	    t->legacy == b->want.legacy;
}

static uint64_t
hash_of_tag(const void *ctx, uint32_t row)
{
	const struct d9m_builder *b = ctx;

	return tag_hash(&b->tagv[row]);
}

static uint32_t
add_tag(void *ctx)
{
	struct d9m_builder *b = ctx;
	struct d9m_spantags *t = &b->m->spantags;
	size_t r = t->n < D9_NONE && d9_grow(&b->tagv, &b->captagv, t->n + 1,
	    sizeof *b->tagv) == 0 ? d9m_tab_push(t, &d9m_desc_spantags) :
	    SIZE_MAX;

	if (r == SIZE_MAX)
		return D9_NONE;
	b->tagv[r] = b->want;
	t->kind[r] = b->want.kind;
	t->legacy[r] = b->want.legacy;
	t->worker[r] = b->want.worker;
	t->name[r] = b->want.name;
	t->fields[r] = b->want.fields;
	return (uint32_t)r;
}

static const struct d9_hmap_rows tag_rows = { hash_of_tag, add_tag };

/* The number of a legacy event's span id: the ids of one life are
 * equal, which is all the pairing asks of them. D9_NONE when out of
 * memory. */
static uint32_t
span_number(struct d9m_builder *b, uint64_t id)
{
	uint32_t k = d9_hmap_get(&b->span_ids, id);

	if (k == D9_NONE && b->span_ids.n < D9_NONE - 1 &&
	    d9_hmap_put(&b->span_ids, id, (uint32_t)b->span_ids.n) == 0)
		k = (uint32_t)b->span_ids.n - 1;
	return k;
}

/* The row of tag b->want: the last one of sm's events when the same
 * (a span's events repeat theirs), else looked up; D9_NONE when out of
 * memory. */
static uint32_t
tag_of(struct d9m_builder *b, const struct d9m_smap *sm)
{
	struct d9m_smemo *mo = sm->memo;

	if (mo->tag == D9_NONE || !same_tag(b, mo->tag))
		mo->tag = d9_hmap_find_or_add(&b->tags, tag_hash(&b->want),
		    same_tag, &tag_rows, b);
	return mo->tag;
}

/* A new spanev row of tag b->want (an event of sm); id: the span id's
 * number (legacy) or the spanx row. */
static int
push(struct d9m_builder *b, const struct d9m_smap *sm, uint64_t ts,
    uint32_t id)
{
	struct d9m_spanev *e = &b->m->spanev;
	uint32_t tag = tag_of(b, sm);
	size_t row;

	if (tag == D9_NONE || id == D9_NONE ||
	    (row = d9m_tab_push(e, &d9m_desc_spanev)) == SIZE_MAX)
		return -1;
	e->ts[row] = ts;
	e->tag[row] = tag;
	e->id[row] = id;
	return 0;
}

/* A new spanx row (instance inst), absent values filled: its number, or
 * SIZE_MAX when out of memory. */
static size_t
ext(struct d9m_builder *b, uint64_t inst)
{
	struct d9m_spanx *x = &b->m->spanx;
	size_t r = x->n < D9_NONE ? d9m_tab_push(x, &d9m_desc_spanx) :
	    SIZE_MAX;

	if (r == SIZE_MAX)
		return r;
	x->inst[r] = inst;
	x->tid[r] = D9_NONE;
	x->start[r] = D9M_ABSENT;
	x->parent[r] = D9M_ABSENT;
	return r;
}

int
d9m_b_span(struct d9m_builder *b, const struct d9m_smap *sm, uint64_t ts,
    const struct d9p_value *v)
{
	const struct span_fields *f = &span_fields[
	    sm->kind == D9_SCH_SPAN_ENTER ? 0 :
	    sm->kind == D9_SCH_SPAN_EXIT ? 1 : 2];
	struct d9m_spanx *x = &b->m->spanx;
	struct d9m_spantag *t = &b->want;
	size_t r = SIZE_MAX;
	uint64_t inst, id;
	int any;

	t->kind = f->kind;
	t->legacy = 1;
	if ((t->worker = d9m_b_worker(b, sm, v, f->worker)) == D9_NONE)
		return -1;
	id = d9m_group_span(b->at.pend.group, d9m_b_u64(sm, v, f->id, 0));
	inst = d9m_b_u64(sm, v, f->inst, 0);
	if (inst != 0 && (inst = d9m_group_span(b->at.pend.group, inst)) != 0) {
		/* dial9 0.5: pairs by thread; its close starts and parents */
		if ((r = ext(b, inst)) == SIZE_MAX)
			return -1;
		t->legacy = 0;
		x->tid[r] = d9m_b_tid(b, sm, v, f->tid, D9_NONE);
		x->parent[r] = d9m_b_u64(sm, v, f->parent, D9M_ABSENT);
		if (x->parent[r] != D9M_ABSENT)
			x->parent[r] = d9m_group_span(b->at.pend.group,
			    x->parent[r]);
	}
	t->name = d9m_b_str(b, sm, v, f->name);
	if (f->kind == D9M_SPAN_CLOSE) {
		if (r != SIZE_MAX) {
			x->start[r] = d9m_b_u64(sm, v, f->start, D9M_ABSENT);
			if (x->start[r] != D9M_ABSENT)
				x->start[r] = d9m_b_ts(b, x->start[r]);
		}
		t->fields = sm->f[f->attrs] >= 0 ?
		    d9m_b_map(b, &v[sm->f[f->attrs]]) : D9_NONE;
	} else {
		t->fields = d9m_b_fields(b, sm, v, 1, &any);
		if (!any)
			t->fields = D9_NONE;
	}
	return push(b, sm, ts, r != SIZE_MAX ? (uint32_t)r :
	    span_number(b, id));
}

/* ---- single-event spans ---- */

enum role { R_START, R_DURATION, R_NAME, R_THREAD, R_TASK, R_WORKER, R_N };

static const char *const role_names[R_N] = {
	D9_ROLE_SPAN_START, D9_ROLE_SPAN_DURATION, D9_ROLE_SPAN_NAME,
	D9_ROLE_THREAD_ID, D9_ROLE_TASK_ID, D9_ROLE_WORKER_ID
};

/* Where a single-event span schema keeps each role (-1: nowhere) and
 * what its start and duration are counted in. */
struct d9m_sevspan {
	int16_t		 at[R_N];
	uint64_t	 mul[2];	/* ns per unit of start, duration */
};

static int
is_int(uint8_t type)
{
	return type == D9_FT_I64 || type == D9_FT_VARINT || type == D9_FT_U8 ||
	    type == D9_FT_U16 || type == D9_FT_U32;
}

/* ns per unit (FORMAT 5: ns, us, ms, s; none is ns), 0 for another. */
static uint64_t
unit_ns(const char *u)
{
	static const struct {
		const char	*name;
		uint64_t	 ns;
	} units[] = { { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
	    { "s", 1000000000 } };

	if (u == NULL)
		return 1;
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (strcmp(u, units[i].name) == 0)
			return units[i].ns;
	return 0;
}

/* Whether the roles of s make a span: l filled; 0 when they do not. */
static int
layout(const struct d9p_schema *s, struct d9m_sevspan *l)
{
	int timing;

	for (int r = 0; r < R_N; r++)
		l->at[r] = -1;
	for (uint16_t j = 0; j < s->nfields; j++) {
		const char *role = s->fields[j].role;

		for (int r = 0; role != NULL && r < R_N; r++) {
			if (strcmp(role, role_names[r]) != 0)
				continue;
			if (l->at[r] >= 0)
				return 0;	/* a role twice */
			l->at[r] = (int16_t)j;
		}
	}
	timing = (l->at[R_START] >= 0) + (l->at[R_DURATION] >= 0);
	if (timing == 0 || timing + (s->has_ts != 0) < 2)
		return 0;
	for (int r = 0; r < R_N; r++) {
		const struct d9p_field *f;

		if (l->at[r] < 0)
			continue;
		f = &s->fields[l->at[r]];
		if (r == R_NAME ? f->type != D9_FT_STRING &&
		    f->type != D9_FT_POOLED_STRING : !is_int(f->type))
			return 0;
		if (r <= R_DURATION && (l->mul[r] = unit_ns(f->unit)) == 0)
			return 0;
	}
	return 1;
}

int
d9m_b_sev_compile(struct d9m_builder *b, struct d9m_smap *sm)
{
	struct d9m_sevspan l;

	sm->compiled = 1;
	if (!layout(sm->s, &l))
		return 0;
	if ((sm->sev = d9_arena_alloc(&b->m->arena, sizeof *sm->sev, 8)) ==
	    NULL)
		return -1;
	*sm->sev = l;
	/* the fields of a role are not its attributes, but the name is */
	for (int r = 0; r < R_N; r++)
		if (r != R_NAME && l.at[r] >= 0 && l.at[r] < 64)
			sm->known |= 1ull << l.at[r];
	return 0;
}

/* Value of role r in ns (or as is), 0 when present, -1 when absent or
 * out of range. */
static int
role_value(const struct d9m_sevspan *l, const struct d9p_value *v, int r,
    uint64_t *out)
{
	uint64_t x;

	if (l->at[r] < 0 || d9p_value_int(&v[l->at[r]], &x) < 0)
		return -1;
	if (v[l->at[r]].type == D9_FT_I64 && (int64_t)x < 0)
		return -1;
	if (r <= R_DURATION && x > UINT64_MAX / l->mul[r])
		return -1;
	*out = r <= R_DURATION ? x * l->mul[r] : x;
	return 0;
}

/* [*start, *end) of the event: any two of start, duration and the
 * event's own time (its end, ts). -1 when they cannot place it. */
static int
timing(const struct d9m_builder *b, const struct d9m_smap *sm, uint64_t ts,
    const struct d9p_value *v, uint64_t *start, uint64_t *end)
{
	const struct d9m_sevspan *l = sm->sev;
	uint64_t s, d;
	int has_s = role_value(l, v, R_START, &s) == 0,
	    has_d = role_value(l, v, R_DURATION, &d) == 0;

	if (has_s)
		s = d9m_b_ts(b, s);
	if (sm->s->has_ts && has_s) {
		if (s > ts)
			return -1;
		*start = s;
		*end = ts;
	} else if (sm->s->has_ts && has_d) {
		*start = d > ts ? 0 : ts - d;
		*end = ts;
	} else if (has_s && has_d && s <= UINT64_MAX - d) {
		*start = s;
		*end = s + d;
	} else
		return -1;
	return 0;
}

/* One single-event span; 1 when the event cannot be placed (it stays an
 * application event). */
int
d9m_b_sev_event(struct d9m_builder *b, const struct d9m_smap *sm,
    uint64_t ts, const struct d9p_value *v)
{
	const struct d9m_sevspan *l = sm->sev;
	struct d9m_spantag *t = &b->want;
	uint64_t start, end, x;
	uint32_t name = D9_NONE;
	size_t r;
	int any;

	if (timing(b, sm, ts, v, &start, &end) < 0)
		return 1;
	if ((r = ext(b, 0)) == SIZE_MAX)
		return -1;
	b->m->spanx.start[r] = start;
	b->m->spanx.tid[r] = d9m_group_tid(b->at.pend.group, role_value(l, v,
	    R_THREAD, &x) == 0 && x < D9_NONE ? (uint32_t)x : D9_NONE);
	t->kind = D9M_SPAN_SINGLE;
	t->legacy = 0;
	if ((t->worker = d9m_b_wid(b, role_value(l, v, R_WORKER, &x) == 0 ?
	    x : D9_WORKER_NONE)) == D9_NONE)
		return -1;
	if (l->at[R_NAME] >= 0) {
		uint32_t len;
		const char *p;

		name = d9m_b_text(b, &v[l->at[R_NAME]]);
		p = name != D9_NONE ? d9_intern_str(&b->m->strs, name, &len) :
		    "";
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			name = D9_NONE;
	}
	t->name = name != D9_NONE ? name : sm->name;
	t->fields = d9m_b_fields(b, sm, v, 1, &any);
	if (!any)
		t->fields = D9_NONE;
	return push(b, sm, end, (uint32_t)r) < 0 ? -1 : 0;
}
