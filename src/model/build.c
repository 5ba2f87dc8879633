/*
 * build.c: from decoded events to rows.
 *
 * Segments: a new segment starts with every input and with the first
 * header after a symbol-table appendix (a concatenation of segments,
 * FORMAT 1.2), so symbols and metadata stay scoped to their segment.
 * Pooled strings and stacks are interned once per pool entry through the
 * entry's cache slot.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/schemas.h"
#include "base/vec.h"
#include "base/wire.h"
#include "model/build.h"
#include "model/groups.h"
#include "model/ids.h"
#include "model/tables.h"

#define K_CUSTOM	D9_SCH_COUNT	/* an application's own schema */
#define NO_FIELD	D9_NF_MAX	/* a field the schema does not have */

/* What the builder knows of a trace's schema. */
struct smap {
	uint8_t		 kind;		/* enum d9_schema, or K_CUSTOM */
	int16_t		 f[D9_NF_MAX + 1]; /* trace field index of each of
					 * the kind's fields (D9_F_), -1;
					 * f[NO_FIELD] is always -1 */
	uint32_t	 name;		/* schema name string id */
	const struct d9p_schema *s;
	uint32_t	*keys;		/* field name string ids */
	uint64_t	 known;		/* bit i: field i is one the kind reads */
};

struct d9m_builder {
	struct d9m_model *m;
	uint32_t	 seg;
	int		 seg_used;	/* seg has received a batch */
	int		 seg_symbols;	/* seg has a symbol appendix */
	uint32_t	 input;		/* current input name id */
	uint32_t	 null_id;	/* "null" */
	struct d9m_pending pend;	/* the process of seg (groups.h) */
};

int
d9m_builder_new(struct d9m_model *m)
{
	struct d9m_builder *b = calloc(1, sizeof *b);

	if (b == NULL)
		return -1;
	b->m = m;
	b->seg = D9_NONE;
	b->input = D9_NONE;
	m->builder = b;
	return 0;
}

void
d9m_builder_free(struct d9m_model *m)
{
	free(m->builder);
	m->builder = NULL;
}

static uint32_t
intern_cstr(struct d9m_model *m, const char *s)
{
	return d9_intern(&m->strs, s, strlen(s));
}

static int
new_segment(struct d9m_builder *b)
{
	size_t row = d9m_tab_push(&b->m->segs, &d9m_desc_segs);

	if (row == SIZE_MAX)
		return -1;
	b->m->segs.input[row] = b->input;
	b->m->segs.cut[row] = 0;
	b->m->segs.group[row] = D9_NONE;
	d9m_pending_reset(&b->pend);
	b->seg = (uint32_t)row;
	b->seg_used = 0;
	b->seg_symbols = 0;
	return 0;
}

static void
on_input(void *ctx, const char *name)
{
	struct d9m_builder *b = ctx;

	b->input = intern_cstr(b->m, name);
	b->seg = D9_NONE;
}

static void
on_batch(void *ctx, uint64_t off)
{
	struct d9m_builder *b = ctx;

	(void)off;
	if (b->seg == D9_NONE || b->seg_symbols)
		new_segment(b);
	b->seg_used = 1;
}

static void
on_loss(void *ctx, int what)
{
	struct d9m_builder *b = ctx;

	if (what == D9P_LOSS_COPY)
		b->m->segs.copies++;
	else if (b->seg != D9_NONE)
		b->m->segs.cut[b->seg] = 1;
}

static int
on_schema(void *ctx, struct d9p_schema *s)
{
	struct d9m_builder *b = ctx;
	enum d9_schema kind = d9_schema_find(s->name);
	const struct d9_schema_def *def = d9_schema(kind);
	struct smap *sm;

	sm = d9_arena_alloc(&b->m->arena, sizeof *sm, 8);
	if (sm == NULL)
		return -1;
	sm->kind = (uint8_t)kind;
	sm->name = d9_intern_text(&b->m->strs, s->name, s->name_len);
	sm->s = s;
	sm->keys = d9_arena_alloc(&b->m->arena, (s->nfields + 1u) *
	    sizeof *sm->keys, 4);
	if (sm->keys == NULL)
		return -1;
	for (uint16_t j = 0; j < s->nfields; j++)
		sm->keys[j] = d9_intern_text(&b->m->strs, s->fields[j].name,
		    s->fields[j].name_len);
	for (int i = 0; i <= NO_FIELD; i++) {
		sm->f[i] = -1;
		if (def == NULL || i >= def->nfields)
			continue;
		for (uint16_t j = 0; j < s->nfields && sm->f[i] < 0; j++)
			if (strcmp(s->fields[j].name, def->fields[i].name) == 0)
				sm->f[i] = (int16_t)j;
	}
	sm->known = 0;
	for (int i = 0; i < D9_NF_MAX; i++)
		if (sm->f[i] >= 0 && sm->f[i] < 64)
			sm->known |= 1ull << sm->f[i];
	s->user = sm;
	return 0;
}

/* ---- value helpers ---- */

static int
get_u64(const struct smap *sm, const struct d9p_value *v, int i, uint64_t *out)
{
	if (sm->f[i] < 0)
		return -1;
	return d9p_value_int(&v[sm->f[i]], out);
}

static uint64_t
u64_or(const struct smap *sm, const struct d9p_value *v, int i, uint64_t def)
{
	uint64_t x;

	return get_u64(sm, v, i, &x) == 0 ? x : def;
}

static uint32_t
u32_or(const struct smap *sm, const struct d9p_value *v, int i, uint32_t def)
{
	uint64_t x;

	if (get_u64(sm, v, i, &x) < 0)
		return def;
	return x > UINT32_MAX - 1 ? UINT32_MAX - 1 : (uint32_t)x;
}

/* Ids of the segment's process (ids.h). */
static uint32_t
worker_of(const struct d9m_builder *b, const struct smap *sm,
    const struct d9p_value *v, int i)
{
	return d9m_group_worker(b->pend.group, u32_or(sm, v, i,
	    D9_WORKER_NONE));
}

static uint32_t
tid_of(const struct d9m_builder *b, const struct smap *sm,
    const struct d9p_value *v, int i, uint32_t def)
{
	return d9m_group_tid(b->pend.group, u32_or(sm, v, i, def));
}

static uint32_t
task_of(struct d9m_builder *b, const struct smap *sm,
    const struct d9p_value *v, int i)
{
	return d9m_task_row(b->m, b->pend.group, u64_or(sm, v, i, 0));
}

/* Text of any value, interned; D9_NONE for an absent optional. */
static uint32_t
value_text(struct d9m_builder *b, const struct d9p_value *v)
{
	struct d9m_model *m = b->m;
	char tmp[64];
	int n;

	if (!v->present)
		return D9_NONE;
	switch (v->type) {
	case D9_FT_POOLED_STRING:
		if (v->unresolved) {
			n = snprintf(tmp, sizeof tmp, "<unresolved pool#%" PRIu64
			    ">", v->u);
			return d9_intern(&m->strs, tmp, (size_t)n);
		}
		if (*v->cache == D9_NONE)
			*v->cache = d9_intern_text(&m->strs, v->p, v->count);
		return *v->cache;
	case D9_FT_STRING:
		return d9_intern_text(&m->strs, v->p, v->count);
	case D9_FT_BOOL:
		return intern_cstr(m, v->u ? "true" : "false");
	case D9_FT_I64:
		n = snprintf(tmp, sizeof tmp, "%" PRId64, (int64_t)v->u);
		return d9_intern(&m->strs, tmp, (size_t)n);
	case D9_FT_F64: {
		double d;

		memcpy(&d, &v->u, sizeof d);
		n = snprintf(tmp, sizeof tmp, "%.17g", d);
		return d9_intern(&m->strs, tmp, (size_t)n);
	}
	case D9_FT_VARINT:
	case D9_FT_U8:
	case D9_FT_U16:
	case D9_FT_U32:
		n = snprintf(tmp, sizeof tmp, "%" PRIu64, v->u);
		return d9_intern(&m->strs, tmp, (size_t)n);
	case D9_FT_STACK:
	case D9_FT_POOLED_STACK:
		n = snprintf(tmp, sizeof tmp, "[%u frames]", v->count);
		return d9_intern(&m->strs, tmp, (size_t)n);
	case D9_FT_BYTES:
		n = snprintf(tmp, sizeof tmp, "[%u bytes]", v->count);
		return d9_intern(&m->strs, tmp, (size_t)n);
	case D9_FT_STRING_MAP:
		n = snprintf(tmp, sizeof tmp, "{%u entries}", v->count);
		return d9_intern(&m->strs, tmp, (size_t)n);
	default:
		return intern_cstr(m, "[dynamic]");
	}
}

/* Optional string: D9_NONE when absent or empty. */
static uint32_t
str_field(struct d9m_builder *b, const struct smap *sm,
    const struct d9p_value *v, int i)
{
	uint32_t id;
	uint32_t len;

	if (sm->f[i] < 0)
		return D9_NONE;
	id = value_text(b, &v[sm->f[i]]);
	if (id == D9_NONE)
		return D9_NONE;
	d9_intern_str(&b->m->strs, id, &len);
	return len ? id : D9_NONE;
}

static uint32_t
stack_field(struct d9m_builder *b, const struct smap *sm,
    const struct d9p_value *v, int i)
{
	const struct d9p_value *x;

	if (sm->f[i] < 0)
		return d9_intern(&b->m->stacks, "", 0);
	x = &v[sm->f[i]];
	if (!x->present || x->unresolved ||
	    (x->type != D9_FT_STACK && x->type != D9_FT_POOLED_STACK))
		return d9_intern(&b->m->stacks, "", 0);
	if (x->cache != NULL) {
		if (*x->cache == D9_NONE)
			*x->cache = d9_intern(&b->m->stacks, x->p,
			    (size_t)x->count * 8);
		return *x->cache;
	}
	return d9_intern(&b->m->stacks, x->p, (size_t)x->count * 8);
}

/* Append to a (key, value) pair array used by the tid maps. */
static int
pair_set(uint32_t **keys, uint32_t **vals, size_t *n, size_t *cap,
    uint32_t k, uint32_t v)
{
	for (size_t i = *n; i-- > 0; )
		if ((*keys)[i] == k) {
			(*vals)[i] = v;
			return 0;
		}
	{
		void **cols[] = { (void **)keys, (void **)vals };
		const size_t el[] = { sizeof **keys, sizeof **vals };

		if (d9_grow_cols(cap, *n + 1, 2, cols, el) < 0)
			return -1;
	}
	(*keys)[*n] = k;
	(*vals)[*n] = v;
	(*n)++;
	return 0;
}

/* Field list of an event: every field, or (skip_known) every field the
 * kind does not read itself. */
static uint32_t
field_list(struct d9m_builder *b, const struct smap *sm,
    const struct d9p_value *v, int skip_known, int *any)
{
	const struct d9p_schema *s = sm->s;
	uint64_t pairs[64];
	size_t n = 0;

	*any = 0;
	for (uint16_t i = 0; i < s->nfields && n < 64; i++) {
		uint32_t key, val;

		if (skip_known && i < 64 && (sm->known >> i & 1))
			continue;
		*any = 1;
		key = sm->keys[i];
		if (v[i].type == D9_FT_STRING_MAP && v[i].present) {
			/* legacy span fields: flatten the map */
			size_t pos = 0;
			const char *k, *x;
			uint32_t kl, xl;

			while (n < 64 && d9p_map_next(&v[i], &pos, &k, &kl, &x,
			    &xl) == 0)
				pairs[n++] = (uint64_t)d9_intern_text(
				    &b->m->strs, k, kl) << 32 |
				    d9_intern_text(&b->m->strs, x, xl);
			continue;
		}
		if (v[i].cache != NULL && *v[i].cache != D9_NONE)
			val = *v[i].cache;	/* pooled, already interned */
		else if ((val = value_text(b, &v[i])) == D9_NONE)
			val = b->null_id;
		pairs[n++] = (uint64_t)key << 32 | val;
	}
	return d9_intern(&b->m->lists, pairs, n * sizeof pairs[0]);
}

/* ---- one function per kind ---- */

/* Where runtime events keep the fields they share (D9_F_ of their
 * schema, or NO_FIELD). */
static const struct rt_fields {
	int	worker, lq, cpu, tid, wait;
} rt_fields[] = {
	[D9M_RT_POLL_START] = { D9_F_POLL_START_WORKER_ID,
	    D9_F_POLL_START_LOCAL_QUEUE, NO_FIELD, NO_FIELD, NO_FIELD },
	[D9M_RT_POLL_END] = { D9_F_POLL_END_WORKER_ID, NO_FIELD, NO_FIELD,
	    NO_FIELD, NO_FIELD },
	[D9M_RT_PARK] = { D9_F_PARK_WORKER_ID, D9_F_PARK_LOCAL_QUEUE,
	    D9_F_PARK_CPU_TIME_NS, D9_F_PARK_TID, NO_FIELD },
	[D9M_RT_UNPARK] = { D9_F_UNPARK_WORKER_ID, D9_F_UNPARK_LOCAL_QUEUE,
	    D9_F_UNPARK_CPU_TIME_NS, D9_F_UNPARK_TID,
	    D9_F_UNPARK_SCHED_WAIT_NS },
};

/* Inline: with kind constant at each call, the field positions are too. */
static inline int
add_rt(struct d9m_builder *b, const struct smap *sm, uint64_t ts,
    const struct d9p_value *v, enum d9m_rt_kind kind)
{
	const struct rt_fields *f = &rt_fields[kind];
	struct d9m_model *m = b->m;
	size_t row = d9m_tab_push(&m->rt, &d9m_desc_rt);

	if (row == SIZE_MAX)
		return -1;
	m->rt.ts[row] = ts;
	m->rt.kind[row] = (uint8_t)kind;
	m->rt.worker[row] = worker_of(b, sm, v, f->worker);
	m->rt.lq[row] = (uint8_t)u64_or(sm, v, f->lq, 0);
	m->rt.a[row] = D9_NONE;
	m->rt.loc[row] = D9_NONE;
	if (kind == D9M_RT_POLL_START) {
		uint32_t task = task_of(b, sm, v, D9_F_POLL_START_TASK_ID);

		m->rt.a[row] = task;
		m->rt.loc[row] = str_field(b, sm, v, D9_F_POLL_START_SPAWN_LOC);
		if (task != D9_NONE && m->tasks.loc[task] == D9_NONE)
			m->tasks.loc[task] = m->rt.loc[row];
	} else if (kind == D9M_RT_PARK || kind == D9M_RT_UNPARK) {
		size_t p = d9m_tab_push(&m->parkinfo, &d9m_desc_parkinfo);

		if (p == SIZE_MAX)
			return -1;
		m->rt.a[row] = (uint32_t)p;
		m->parkinfo.cpu_ns[p] = u64_or(sm, v, f->cpu, 0);
		m->parkinfo.tid[p] = tid_of(b, sm, v, f->tid, D9_NONE);
		m->parkinfo.sched_wait[p] = u64_or(sm, v, f->wait, D9M_ABSENT);
		if (m->parkinfo.tid[p] != D9_NONE &&
		    pair_set(&m->tidmap_tid, &m->tidmap_worker, &m->tidmap_n,
		    &m->tidmap_cap, m->parkinfo.tid[p], m->rt.worker[row]) < 0)
			return -1;
	}
	return 0;
}

static int
add_task_event(struct d9m_builder *b, const struct smap *sm, uint64_t ts,
    const struct d9p_value *v, int spawn)
{
	struct d9m_model *m = b->m;
	uint32_t t = task_of(b, sm, v, spawn ? D9_F_SPAWN_TASK_ID :
	    D9_F_TERMINATE_TASK_ID);
	uint64_t instr;

	if (t == D9_NONE)
		return 0;
	if (!spawn) {
		m->tasks.term_ts[t] = ts;
		m->tasks.flags[t] |= D9M_TASK_TERMINATED;
		return 0;
	}
	m->tasks.spawn_ts[t] = ts;
	m->tasks.flags[t] |= D9M_TASK_SPAWNED;
	m->tasks.loc[t] = str_field(b, sm, v, D9_F_SPAWN_SPAWN_LOC);
	if (get_u64(sm, v, D9_F_SPAWN_INSTRUMENTED, &instr) == 0) {
		m->tasks.flags[t] |= D9M_TASK_INSTR_FIELD;
		if (instr)
			m->tasks.flags[t] |= D9M_TASK_INSTRUMENTED;
		else
			m->tasks.flags[t] &= (uint8_t)~D9M_TASK_INSTRUMENTED;
	} else
		m->tasks.flags[t] |= D9M_TASK_INSTRUMENTED;
	return 0;
}

static int
add_wake(struct d9m_builder *b, const struct smap *sm, uint64_t ts,
    const struct d9p_value *v)
{
	struct d9m_model *m = b->m;
	uint32_t woken = task_of(b, sm, v, D9_F_WAKE_WOKEN_TASK_ID);
	size_t row;

	if (woken == D9_NONE)
		return 0;	/* a wake of task 0 names nobody */
	if ((row = d9m_tab_push(&m->wakes, &d9m_desc_wakes)) == SIZE_MAX)
		return -1;
	m->wakes.ts[row] = ts;
	m->wakes.waker[row] = task_of(b, sm, v, D9_F_WAKE_WAKER_TASK_ID);
	m->wakes.woken[row] = woken;
	m->wakes.worker[row] = worker_of(b, sm, v, D9_F_WAKE_TARGET_WORKER);
	return 0;
}

static int
add_cpu(struct d9m_builder *b, const struct smap *sm, uint64_t ts,
    const struct d9p_value *v)
{
	struct d9m_model *m = b->m;
	size_t row = d9m_tab_push(&m->cpu, &d9m_desc_cpu);
	uint32_t name, len;

	if (row == SIZE_MAX)
		return -1;
	m->cpu.ts[row] = ts;
	m->cpu.wire_worker[row] = worker_of(b, sm, v, D9_F_CPU_WORKER_ID);
	m->cpu.tid[row] = tid_of(b, sm, v, D9_F_CPU_TID, 0);
	m->cpu.source[row] = (uint8_t)u64_or(sm, v, D9_F_CPU_SOURCE, 0);
	m->cpu.stack[row] = stack_field(b, sm, v, D9_F_CPU_CALLCHAIN);
	m->cpu.cpu[row] = u32_or(sm, v, D9_F_CPU_CPU, D9_NONE);
	m->cpu.seg[row] = b->seg;
	name = str_field(b, sm, v, D9_F_CPU_THREAD_NAME);
	if (name != D9_NONE && strcmp(d9_intern_str(&m->strs, name, &len),
	    "<no thread name>") != 0 &&
	    pair_set(&m->tname_tid, &m->tname_name, &m->tname_n,
	    &m->tname_cap, m->cpu.tid[row], name) < 0)
		return -1;
	return 0;
}

/* The fields of each span schema (NO_FIELD: it has no such field). */
static const struct span_fields {
	uint8_t	kind;		/* D9M_SPAN_* */
	int	worker, id, parent, name;
} span_fields[] = {
	{ D9M_SPAN_ENTER, D9_F_SPAN_ENTER_WORKER_ID, D9_F_SPAN_ENTER_SPAN_ID,
	    D9_F_SPAN_ENTER_PARENT_SPAN_ID, D9_F_SPAN_ENTER_SPAN_NAME },
	{ D9M_SPAN_EXIT, D9_F_SPAN_EXIT_WORKER_ID, D9_F_SPAN_EXIT_SPAN_ID,
	    NO_FIELD, D9_F_SPAN_EXIT_SPAN_NAME },
	{ D9M_SPAN_CLOSE, NO_FIELD, D9_F_SPAN_CLOSE_SPAN_ID, NO_FIELD, NO_FIELD },
};

static int
add_span(struct d9m_builder *b, const struct smap *sm, uint64_t ts,
    const struct d9p_value *v)
{
	const struct span_fields *f = &span_fields[
	    sm->kind == D9_SCH_SPAN_ENTER ? 0 :
	    sm->kind == D9_SCH_SPAN_EXIT ? 1 : 2];
	struct d9m_model *m = b->m;
	size_t row = d9m_tab_push(&m->spanev, &d9m_desc_spanev);
	int any;

	if (row == SIZE_MAX)
		return -1;
	m->spanev.ts[row] = ts;
	m->spanev.kind[row] = f->kind;
	m->spanev.worker[row] = worker_of(b, sm, v, f->worker);
	m->spanev.span_id[row] = d9m_group_span(b->pend.group,
	    u64_or(sm, v, f->id, 0));
	m->spanev.parent[row] = u64_or(sm, v, f->parent, D9M_ABSENT);
	if (m->spanev.parent[row] != D9M_ABSENT)
		m->spanev.parent[row] = d9m_group_span(b->pend.group,
		    m->spanev.parent[row]);
	m->spanev.name[row] = str_field(b, sm, v, f->name);
	m->spanev.site[row] = sm->name;
	m->spanev.fields[row] = D9_NONE;
	if (f->kind == D9M_SPAN_CLOSE)
		return 0;
	m->spanev.fields[row] = field_list(b, sm, v, 1, &any);
	if (!any)
		m->spanev.fields[row] = D9_NONE;
	return 0;
}

static int
add_symbol(struct d9m_builder *b, const struct smap *sm,
    const struct d9p_value *v)
{
	struct d9m_model *m = b->m;
	size_t row = d9m_tab_push(&m->symbols, &d9m_desc_symbols);

	if (row == SIZE_MAX)
		return -1;
	b->seg_symbols = 1;
	m->symbols.seg[row] = b->seg;
	m->symbols.addr[row] = u64_or(sm, v, D9_F_SYMBOL_ADDR, 0);
	m->symbols.name[row] = str_field(b, sm, v, D9_F_SYMBOL_SYMBOL_NAME);
	m->symbols.depth[row] = u32_or(sm, v, D9_F_SYMBOL_INLINE_DEPTH, 0);
	m->symbols.file[row] = str_field(b, sm, v, D9_F_SYMBOL_SOURCE_FILE);
	m->symbols.line[row] = u32_or(sm, v, D9_F_SYMBOL_SOURCE_LINE, 0);
	return 0;
}

static int
add_maps(struct d9m_builder *b, const struct smap *sm,
    const struct d9p_value *v)
{
	struct d9m_model *m = b->m;
	size_t row = d9m_tab_push(&m->maps, &d9m_desc_maps);

	if (row == SIZE_MAX)
		return -1;
	m->maps.seg[row] = b->seg;
	m->maps.start[row] = u64_or(sm, v, D9_F_MAPS_START, 0);
	m->maps.end[row] = u64_or(sm, v, D9_F_MAPS_END, 0);
	m->maps.off[row] = u64_or(sm, v, D9_F_MAPS_FILE_OFFSET, 0);
	m->maps.path[row] = str_field(b, sm, v, D9_F_MAPS_PATH);
	m->maps.build_id[row] = str_field(b, sm, v, D9_F_MAPS_BUILD_ID);
	return 0;
}

static int
add_meta(struct d9m_builder *b, const struct smap *sm, uint64_t ts,
    const struct d9p_value *v)
{
	struct d9m_model *m = b->m;
	const struct d9p_value *x;
	const char *k, *val;
	uint32_t kl, vl;
	size_t pos = 0;

	if (ts >= D9_WALLCLOCK_MIN_NS && m->meta.legacy_wall == 0)
		m->meta.legacy_wall = ts;
	if (sm->f[D9_F_SEGMENT_META_ENTRIES] < 0)
		return 0;
	x = &v[sm->f[D9_F_SEGMENT_META_ENTRIES]];
	while (d9p_map_next(x, &pos, &k, &kl, &val, &vl) == 0) {
		size_t row = d9m_tab_push(&m->meta, &d9m_desc_meta);

		if (row == SIZE_MAX)
			return -1;
		m->meta.seg[row] = b->seg;
		m->meta.key[row] = d9_intern_text(&m->strs, k, kl);
		m->meta.val[row] = d9_intern_text(&m->strs, val, vl);
		if (b->pend.group == D9_NONE)
			d9m_pending_meta(m, &b->pend, m->meta.key[row],
			    m->meta.val[row]);
	}
	return 0;
}

static int
add_custom(struct d9m_builder *b, const struct smap *sm, uint64_t ts,
    const struct d9p_value *v)
{
	struct d9m_model *m = b->m;
	size_t row = d9m_tab_push(&m->custom, &d9m_desc_custom);
	int any;

	if (row == SIZE_MAX)
		return -1;
	m->custom.ts[row] = ts;
	m->custom.name[row] = sm->name;
	m->custom.seg[row] = b->seg;
	m->custom.fields[row] = field_list(b, sm, v, 0, &any);
	return 0;
}

static int
on_event(void *ctx, const struct d9p_schema *s, uint64_t ts,
    const struct d9p_value *v)
{
	struct d9m_builder *b = ctx;
	struct d9m_model *m = b->m;
	const struct smap *sm = s->user;
	size_t row;

	if (sm == NULL)
		return 0;
	if (b->seg == D9_NONE && new_segment(b) < 0)
		return -1;
	if (b->pend.group == D9_NONE) {
		/* what names the process comes first; then the rows */
		uint64_t real = sm->kind == D9_SCH_CLOCK_SYNC ? u64_or(sm, v,
		    D9_F_CLOCK_SYNC_REALTIME_NS, 0) : 0;

		if (real != 0)
			d9m_pending_clock(&b->pend, ts, real);
		else if (sm->kind != D9_SCH_CLOCK_SYNC &&
		    sm->kind != D9_SCH_SEGMENT_META &&
		    sm->kind != D9_SCH_SYMBOL && sm->kind != D9_SCH_MAPS &&
		    d9m_group_resolve(m, &b->pend, b->seg, ts) < 0)
			return -1;
	}
	if (b->pend.group != D9_NONE && sm->kind != D9_SCH_SEGMENT_META)
		ts = d9m_pending_ts(&b->pend, ts);
	switch (sm->kind) {
	case D9_SCH_POLL_START:
		return add_rt(b, sm, ts, v, D9M_RT_POLL_START);
	case D9_SCH_POLL_END:
		return add_rt(b, sm, ts, v, D9M_RT_POLL_END);
	case D9_SCH_PARK:
		return add_rt(b, sm, ts, v, D9M_RT_PARK);
	case D9_SCH_UNPARK:
		return add_rt(b, sm, ts, v, D9M_RT_UNPARK);
	case D9_SCH_QUEUE:
		if ((row = d9m_tab_push(&m->queue, &d9m_desc_queue)) == SIZE_MAX)
			return -1;
		m->queue.ts[row] = ts;
		m->queue.global[row] = u32_or(sm, v, D9_F_QUEUE_GLOBAL_QUEUE, 0);
		return 0;
	case D9_SCH_SPAWN:
		return add_task_event(b, sm, ts, v, 1);
	case D9_SCH_TERMINATE:
		return add_task_event(b, sm, ts, v, 0);
	case D9_SCH_WAKE:
		return add_wake(b, sm, ts, v);
	case D9_SCH_CPU:
		return add_cpu(b, sm, ts, v);
	case D9_SCH_TASK_DUMP:
		if ((row = d9m_tab_push(&m->dumps, &d9m_desc_dumps)) == SIZE_MAX)
			return -1;
		m->dumps.ts[row] = ts;
		m->dumps.task[row] = task_of(b, sm, v, D9_F_TASK_DUMP_TASK_ID);
		m->dumps.stack[row] = stack_field(b, sm, v,
		    D9_F_TASK_DUMP_CALLCHAIN);
		m->dumps.seg[row] = b->seg;
		return 0;
	case D9_SCH_ALLOC:
		if ((row = d9m_tab_push(&m->allocs, &d9m_desc_allocs)) ==
		    SIZE_MAX)
			return -1;
		m->allocs.ts[row] = ts;
		m->allocs.tid[row] = tid_of(b, sm, v, D9_F_ALLOC_TID, 0);
		m->allocs.size[row] = u64_or(sm, v, D9_F_ALLOC_SIZE, 0);
		m->allocs.addr[row] = u64_or(sm, v, D9_F_ALLOC_ADDR, 0);
		m->allocs.stack[row] = stack_field(b, sm, v,
		    D9_F_ALLOC_CALLCHAIN);
		m->allocs.seg[row] = b->seg;
		return 0;
	case D9_SCH_FREE:
		if ((row = d9m_tab_push(&m->frees, &d9m_desc_frees)) == SIZE_MAX)
			return -1;
		m->frees.ts[row] = ts;
		m->frees.tid[row] = tid_of(b, sm, v, D9_F_FREE_TID, 0);
		m->frees.addr[row] = u64_or(sm, v, D9_F_FREE_ADDR, 0);
		m->frees.size[row] = u64_or(sm, v, D9_F_FREE_SIZE, 0);
		m->frees.alloc_ts[row] = u64_or(sm, v, D9_F_FREE_ALLOC_TS,
		    D9M_ABSENT);
		if (m->frees.alloc_ts[row] != D9M_ABSENT)
			m->frees.alloc_ts[row] = d9m_pending_ts(&b->pend,
			    m->frees.alloc_ts[row]);
		return 0;
	case D9_SCH_MEM_OVERFLOW:
		if ((row = d9m_tab_push(&m->overflow, &d9m_desc_overflow)) ==
		    SIZE_MAX)
			return -1;
		m->overflow.ts[row] = ts;
		m->overflow.allocs[row] = u64_or(sm, v,
		    D9_F_MEM_OVERFLOW_DROPPED_ALLOCS, 0);
		m->overflow.frees[row] = u64_or(sm, v,
		    D9_F_MEM_OVERFLOW_DROPPED_FREES, 0);
		m->overflow.seg[row] = b->seg;
		return 0;
	case D9_SCH_CLOCK_SYNC:
		if (u64_or(sm, v, D9_F_CLOCK_SYNC_REALTIME_NS, 0) == 0)
			return 0;
		if ((row = d9m_tab_push(&m->clock, &d9m_desc_clock)) == SIZE_MAX)
			return -1;
		m->clock.mono[row] = ts;
		m->clock.real[row] = u64_or(sm, v, D9_F_CLOCK_SYNC_REALTIME_NS, 0);
		m->clock.seg[row] = b->seg;
		return 0;
	case D9_SCH_SEGMENT_META:
		return add_meta(b, sm, ts, v);
	case D9_SCH_SYMBOL:
		return add_symbol(b, sm, v);
	case D9_SCH_MAPS:
		return add_maps(b, sm, v);
	case D9_SCH_SPAN_ENTER:
	case D9_SCH_SPAN_EXIT:
	case D9_SCH_SPAN_CLOSE:
		return add_span(b, sm, ts, v);
	default:
		return add_custom(b, sm, ts, v);
	}
}

void
d9m_builder_sink(struct d9m_model *m, struct d9p_sink *sink)
{
	struct d9m_builder *b = m->builder;

	b->null_id = intern_cstr(m, "null");
	memset(sink, 0, sizeof *sink);
	sink->ctx = b;
	sink->schema = on_schema;
	sink->event = on_event;
	sink->batch = on_batch;
	sink->input = on_input;
	sink->loss = on_loss;
}
