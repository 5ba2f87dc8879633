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

#include "base/prefault.h"
#include "base/schemas.h"
#include "base/vec.h"
#include "base/wire.h"
#include "model/core/build.h"
#include "model/core/build_int.h"
#include "model/core/groups.h"
#include "model/core/ids.h"
#include "model/core/pairs.h"
#include "model/core/table.h"
#include "model/core/tables.h"

int
d9m_builder_new(struct d9m_model *m)
{
	struct d9m_builder *b = calloc(1, sizeof *b);

	if (b == NULL)
		return -1;
	b->m = m;
	b->at.seg = D9_NONE;
	b->at.input = D9_NONE;
	b->prev.group = D9_NONE;
	b->wid_last.row = D9_NONE;
	d9_hmap_init(&b->tags);
	d9_hmap_init(&b->span_ids);
	d9_hmap_init(&b->rt_tags);
	d9_hmap_init(&b->tasklocs);
	d9_hmap_init(&b->left);
	d9_hmap_init(&b->wids);
	d9_hmap_init(&b->tidmap);
	d9_hmap_init(&b->tnames);
	d9_hmap_init(&b->series);
	m->builder = b;
	return 0;
}

/* Rows added to the loaded tables between two asks for the rows ahead:
 * each table asks for twice the rows it gained since the last ask. A
 * column that grows moves: what was asked at its old place is skipped or
 * brought in for nothing, never changed. */
#define AHEAD_STEP	((size_t)256 << 10)

void
d9m_b_ahead_start(struct d9m_builder *b)
{
	if (b->ahead == NULL)
		b->ahead = d9_prefault_new();
}

void
d9m_b_ahead_stop(struct d9m_builder *b)
{
	d9_prefault_free(&b->ahead);
}

void
d9m_b_ahead(struct d9m_builder *b)
{
	struct d9m_tabref t[D9M_NTABLES];
	size_t n, rows = 0;

	if (b->ahead == NULL)
		return;
	n = d9m_model_tables(b->m, t);
	for (size_t i = 0; i < n; i++)
		rows += d9m_tab_n(t[i].tab);
	if (rows < b->ahead_rows + AHEAD_STEP)
		return;
	b->ahead_rows = rows;
	for (size_t i = 0; i < n; i++) {
		size_t had = b->ahead_n[i], now = d9m_tab_n(t[i].tab);

		b->ahead_n[i] = now;
		if (now > had)
			d9m_tab_ahead(t[i].tab, t[i].desc, now,
			    now + 2 * (now - had), b->ahead);
	}
}

void
d9m_b_on_size(void *ctx, uint64_t bytes)
{
	struct d9m_builder *b = ctx;
	struct d9m_tabref t[D9M_NTABLES];
	size_t n = d9m_model_tables(b->m, t);

	b->in_bytes = bytes;
	b->in_roomed = 0;
	for (size_t i = 0; i < n; i++)
		b->in_rows[i] = d9m_tab_n(t[i].tab);
}

/* Decoded bytes of an input read, at least, before its rows are taken
 * as a sample of all of them: ROOM_FROM, and an eighth of the input. */
#define ROOM_FROM	((uint64_t)256 << 10)
#define ROOM_PART	8

void
d9m_b_room(struct d9m_builder *b, uint64_t off)
{
	struct d9m_tabref t[D9M_NTABLES];
	size_t n;

	if (b->in_bytes == 0 || b->in_roomed || off < ROOM_FROM ||
	    off < b->in_bytes / ROOM_PART || off >= b->in_bytes)
		return;
	b->in_roomed = 1;	/* once: a guess moves a column, as a
				 * doubling does */
	n = d9m_model_tables(b->m, t);
	for (size_t i = 0; i < n; i++) {
		size_t now = d9m_tab_n(t[i].tab);
		size_t cap = ((const size_t *)t[i].tab)[1];
		uint64_t gained = now - b->in_rows[i], want;

		if (now <= b->in_rows[i] || gained > UINT64_MAX / b->in_bytes)
			continue;
		/* the rows so far in the share of the bytes read so far,
		 * and a quarter more (room not written takes no memory);
		 * only when it saves the push a doubling or more (in a
		 * directory, the files after the first add less than
		 * the tables hold), and a guess short of the rows leaves
		 * the doubling to the push, as without one */
		want = gained * b->in_bytes / off;
		want += want / 4 + b->in_rows[i];
		if (want / 2 > cap && want < D9_NONE)
			(void)d9m_tab_reserve(t[i].tab, t[i].desc,
			    (size_t)want);
	}
}

void
d9m_builder_free(struct d9m_model *m)
{
	if (m->builder != NULL) {
		d9m_b_ahead_stop(m->builder);
		d9_hmap_free(&m->builder->tags);
		free(m->builder->tagv);
		d9_hmap_free(&m->builder->span_ids);
		d9_hmap_free(&m->builder->rt_tags);
		d9_hmap_free(&m->builder->tasklocs);
		d9_hmap_free(&m->builder->left);
		free(m->builder->leftv);
		d9_hmap_free(&m->builder->wids);
		d9_hmap_free(&m->builder->tidmap);
		d9_hmap_free(&m->builder->tnames);
		d9_hmap_free(&m->builder->series);
	}
	free(m->builder);
	m->builder = NULL;
}

static int
on_schema(void *ctx, struct d9p_schema *s)
{
	struct d9m_builder *b = ctx;
	enum d9_schema kind = d9_schema_find(s->name);
	const struct d9_schema_def *def = d9_schema(kind);
	struct d9m_smap *sm;

	sm = d9_arena_alloc(&b->m->arena, sizeof *sm, 8);
	if (sm == NULL)
		return -1;
	sm->kind = (uint8_t)kind;
	sm->compiled = 0;
	sm->sev = NULL;
	sm->metric = NULL;
	sm->name = d9_intern_text(&b->m->strs, s->name, s->name_len);
	sm->s = s;
	sm->keys = d9_arena_alloc(&b->m->arena, (s->nfields + 1u) *
	    sizeof *sm->keys, 4);
	sm->memo = d9_arena_alloc(&b->m->arena, sizeof *sm->memo, 8);
	if (sm->keys == NULL || sm->memo == NULL)
		return -1;
	sm->memo->tag = sm->memo->list = D9_NONE;
	sm->memo->n = 0;
	for (uint16_t j = 0; j < s->nfields; j++)
		sm->keys[j] = d9_intern_text(&b->m->strs, s->fields[j].name,
		    s->fields[j].name_len);
	for (int i = 0; i <= D9M_NO_FIELD; i++) {
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

/* ---- value helpers (the rest: build_fields.c) ---- */

static uint32_t
task_of(struct d9m_builder *b, const struct d9m_smap *sm,
    const struct d9p_value *v, int i)
{
	return d9m_task_row(b->m, b->at.pend.group, d9m_b_u64(sm, v, i, 0));
}

static uint32_t
stack_field(struct d9m_builder *b, const struct d9m_smap *sm,
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

int
d9m_builder_sort_tids(struct d9m_model *m)
{
	struct d9m_builder *b = m->builder;
	const struct d9m_pairs w = d9m_tid_workers(m), t = d9m_tid_names(m);

	return d9m_pairs_sort(&w, b != NULL ? &b->tidmap : NULL) < 0 ||
	    d9m_pairs_sort(&t, b != NULL ? &b->tnames : NULL) < 0 ? -1 : 0;
}

/* ---- one function per kind ---- */

/* Where runtime events keep the fields they share (D9_F_ of their
 * schema, or D9M_NO_FIELD). */
static const struct rt_fields {
	int	worker, lq, cpu, tid, wait;
} rt_fields[] = {
	[D9M_RT_POLL_START] = { D9_F_POLL_START_WORKER_ID,
	    D9_F_POLL_START_LOCAL_QUEUE, D9M_NO_FIELD, D9M_NO_FIELD,
	    D9M_NO_FIELD },
	[D9M_RT_POLL_END] = { D9_F_POLL_END_WORKER_ID, D9M_NO_FIELD,
	    D9M_NO_FIELD, D9M_NO_FIELD, D9M_NO_FIELD },
	[D9M_RT_PARK] = { D9_F_PARK_WORKER_ID, D9_F_PARK_LOCAL_QUEUE,
	    D9_F_PARK_CPU_TIME_NS, D9_F_PARK_TID, D9M_NO_FIELD },
	[D9M_RT_UNPARK] = { D9_F_UNPARK_WORKER_ID, D9_F_UNPARK_LOCAL_QUEUE,
	    D9_F_UNPARK_CPU_TIME_NS, D9_F_UNPARK_TID,
	    D9_F_UNPARK_SCHED_WAIT_NS },
};

static uint32_t
rt_tag(struct d9m_builder *b, uint8_t kind, uint8_t lq, uint32_t worker)
{
	struct d9m_rttags *t = &b->m->rttags;
	uint64_t key = (uint64_t)kind << 40 | (uint64_t)lq << 32 | worker;
	uint32_t r;
	int fresh;

	if (b->rt_last[kind].tag != 0 && b->rt_last[kind].key == key)
		return b->rt_last[kind].tag - 1;
	r = d9m_tab_intern(&b->rt_tags, key, t, &d9m_desc_rttags, &fresh);
	if (fresh) {
		t->kind[r] = kind;
		t->lq[r] = lq;
		t->worker[r] = worker;
	}
	b->rt_last[kind].key = key;
	b->rt_last[kind].tag = r + 1;	/* D9_NONE: 0, none cached */
	return r;
}

static uint32_t
taskloc(struct d9m_builder *b, uint32_t task, uint32_t loc)
{
	struct d9m_taskloc *t = &b->m->taskloc;
	int fresh;
	uint32_t r = d9m_tab_intern(&b->tasklocs, (uint64_t)task << 32 | loc, t,
	    &d9m_desc_taskloc, &fresh);

	if (fresh) {
		t->task[r] = task;
		t->loc[r] = loc;
	}
	return r;
}

/* Inline: with kind constant at each call, the field positions are too. */
static inline int
add_rt(struct d9m_builder *b, const struct d9m_smap *sm, uint64_t ts,
    const struct d9p_value *v, enum d9m_rt_kind kind)
{
	const struct rt_fields *f = &rt_fields[kind];
	struct d9m_model *m = b->m;
	uint32_t worker = d9m_b_worker(b, sm, v, f->worker);
	uint32_t tag = worker == D9_NONE ? D9_NONE : rt_tag(b, (uint8_t)kind,
	    (uint8_t)d9m_b_u64(sm, v, f->lq, 0), worker);
	size_t row;

	if (tag == D9_NONE ||
	    (row = d9m_tab_push(&m->rt, &d9m_desc_rt)) == SIZE_MAX)
		return -1;
	m->rt.ts[row] = ts;
	m->rt.tag[row] = tag;
	m->rt.a[row] = D9_NONE;
	if (kind == D9M_RT_POLL_START) {
		uint32_t task = task_of(b, sm, v, D9_F_POLL_START_TASK_ID);
		uint32_t loc = d9m_b_str(b, sm, v, D9_F_POLL_START_SPAWN_LOC);

		if ((m->rt.a[row] = taskloc(b, task, loc)) == D9_NONE)
			return -1;
		if (task != D9_NONE && m->tasks.loc[task] == D9_NONE)
			m->tasks.loc[task] = loc;
	} else if (kind == D9M_RT_PARK || kind == D9M_RT_UNPARK) {
		size_t p = d9m_tab_push(&m->parkinfo, &d9m_desc_parkinfo);

		if (p == SIZE_MAX)
			return -1;
		m->rt.a[row] = (uint32_t)p;
		m->parkinfo.cpu_ns[p] = d9m_b_u64(sm, v, f->cpu, 0);
		m->parkinfo.tid[p] = d9m_b_tid(b, sm, v, f->tid, D9_NONE);
		m->parkinfo.sched_wait[p] = d9m_b_u64(sm, v, f->wait,
		    D9M_ABSENT);
		if (m->parkinfo.tid[p] != D9_NONE) {
			const struct d9m_pairs tw = d9m_tid_workers(m);

			if (d9m_pairs_set(&tw, &b->tidmap, m->parkinfo.tid[p],
			    worker) < 0)
				return -1;
		}
	}
	return 0;
}

static int
add_task_event(struct d9m_builder *b, const struct d9m_smap *sm, uint64_t ts,
    const struct d9p_value *v, int spawn)
{
	struct d9m_model *m = b->m;
	uint32_t t = task_of(b, sm, v, spawn ? D9_F_SPAWN_TASK_ID :
	    D9_F_TERMINATE_TASK_ID);
	uint64_t instr;

	if (t == D9_NONE)
		return 0;
	/* The earliest spawn and the latest end of an id, whatever order
	 * the segments arrive in (a directory, or its files cat in another
	 * order): the same bytes give the same task. */
	if (!spawn) {
		if (m->tasks.term_ts[t] == D9M_ABSENT ||
		    ts > m->tasks.term_ts[t])
			m->tasks.term_ts[t] = ts;
		m->tasks.flags[t] |= D9M_TASK_TERMINATED;
		return 0;
	}
	if (m->tasks.spawn_ts[t] != D9M_ABSENT && m->tasks.spawn_ts[t] <= ts)
		return 0;
	m->tasks.spawn_ts[t] = ts;
	m->tasks.spawn_worker[t] = D9_NONE;
	if (sm->f[D9_F_SPAWN_WORKER_ID] >= 0 &&
	    v[sm->f[D9_F_SPAWN_WORKER_ID]].present &&
	    (m->tasks.spawn_worker[t] = d9m_b_worker(b, sm, v,
	    D9_F_SPAWN_WORKER_ID)) == D9_NONE)
		return -1;
	m->tasks.flags[t] |= D9M_TASK_SPAWNED;
	m->tasks.loc[t] = d9m_b_str(b, sm, v, D9_F_SPAWN_SPAWN_LOC);
	if (d9m_b_int(sm, v, D9_F_SPAWN_INSTRUMENTED, &instr) == 0) {
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
add_wake(struct d9m_builder *b, const struct d9m_smap *sm, uint64_t ts,
    const struct d9p_value *v)
{
	struct d9m_model *m = b->m;
	uint32_t woken = task_of(b, sm, v, D9_F_WAKE_WOKEN_TASK_ID);
	size_t row;

	/* a wake of task 0 names nobody (woken D9_NONE) but is a runtime
	 * event: it counts, and it bounds the trace's time (ANALYSIS 2) */
	if ((row = d9m_tab_push(&m->wakes, &d9m_desc_wakes)) == SIZE_MAX)
		return -1;
	m->wakes.ts[row] = ts;
	m->wakes.waker[row] = task_of(b, sm, v, D9_F_WAKE_WAKER_TASK_ID);
	m->wakes.woken[row] = woken;
	m->wakes.worker[row] = d9m_b_worker(b, sm, v, D9_F_WAKE_TARGET_WORKER);
	return m->wakes.worker[row] == D9_NONE ? -1 : 0;
}

static int
add_cpu(struct d9m_builder *b, const struct d9m_smap *sm, uint64_t ts,
    const struct d9p_value *v)
{
	struct d9m_model *m = b->m;
	size_t row = d9m_tab_push(&m->cpu, &d9m_desc_cpu);
	struct d9m_pairs names;
	uint32_t name, len;

	if (row == SIZE_MAX)
		return -1;
	m->cpu.ts[row] = ts;
	if ((m->cpu.wire_worker[row] = d9m_b_worker(b, sm, v,
	    D9_F_CPU_WORKER_ID)) == D9_NONE)
		return -1;
	m->cpu.tid[row] = d9m_b_tid(b, sm, v, D9_F_CPU_TID, 0);
	m->cpu.source[row] = (uint8_t)d9m_b_u64(sm, v, D9_F_CPU_SOURCE, 0);
	m->cpu.stack[row] = stack_field(b, sm, v, D9_F_CPU_CALLCHAIN);
	m->cpu.cpu[row] = d9m_b_u32(sm, v, D9_F_CPU_CPU, D9_NONE);
	m->cpu.seg[row] = b->at.seg;
	name = d9m_b_str(b, sm, v, D9_F_CPU_THREAD_NAME);
	if (name == D9_NONE || strcmp(d9_intern_str(&m->strs, name, &len),
	    "<no thread name>") == 0)
		return 0;
	names = d9m_tid_names(m);
	return d9m_pairs_set(&names, &b->tnames, m->cpu.tid[row], name);
}

/* A global queue sample: RuntimeMetricsEvent of one runtime, or the
 * older QueueSampleEvent of them all (the runtime D9_NONE). */
static int
add_queue(struct d9m_builder *b, const struct d9m_smap *sm, uint64_t ts,
    const struct d9p_value *v)
{
	struct d9m_queue *q = &b->m->queue;
	int rtm = sm->kind == D9_SCH_RT_METRICS;
	size_t row = d9m_tab_push(q, &d9m_desc_queue);

	if (row == SIZE_MAX)
		return -1;
	q->ts[row] = ts;
	q->global[row] = d9m_b_u32(sm, v, rtm ?
	    D9_F_RT_METRICS_GLOBAL_QUEUE_DEPTH : D9_F_QUEUE_GLOBAL_QUEUE, 0);
	q->alive[row] = d9m_b_u32(sm, v, rtm ? D9_F_RT_METRICS_ALIVE_TASKS :
	    D9_F_QUEUE_ACTIVE_TASKS, D9_NONE);
	q->runtime[row] = D9_NONE;
	if (rtm) {
		/* the unnamed default runtime is named "" (ids.h: of its
		 * process) */
		uint32_t name = d9m_b_str(b, sm, v,
		    D9_F_RT_METRICS_RUNTIME_NAME), len = 0;
		const char *text = name != D9_NONE ? d9_intern_str(&b->m->strs,
		    name, &len) : "";

		if ((q->runtime[row] = d9m_scoped_name(b->m, b->at.pend.group,
		    text, len)) == D9_NONE)
			return -1;
	}
	return 0;
}

static int
add_symbol(struct d9m_builder *b, const struct d9m_smap *sm,
    const struct d9p_value *v)
{
	struct d9m_model *m = b->m;
	size_t row = d9m_tab_push(&m->symbols, &d9m_desc_symbols);

	if (row == SIZE_MAX)
		return -1;
	b->at.seg_symbols = 1;
	m->symbols.seg[row] = b->at.seg;
	m->symbols.addr[row] = d9m_b_u64(sm, v, D9_F_SYMBOL_ADDR, 0);
	m->symbols.name[row] = d9m_b_str(b, sm, v, D9_F_SYMBOL_SYMBOL_NAME);
	m->symbols.depth[row] = d9m_b_u32(sm, v, D9_F_SYMBOL_INLINE_DEPTH, 0);
	m->symbols.file[row] = d9m_b_str(b, sm, v, D9_F_SYMBOL_SOURCE_FILE);
	m->symbols.line[row] = d9m_b_u32(sm, v, D9_F_SYMBOL_SOURCE_LINE, 0);
	return 0;
}

static int
add_maps(struct d9m_builder *b, const struct d9m_smap *sm,
    const struct d9p_value *v)
{
	struct d9m_model *m = b->m;
	size_t row = d9m_tab_push(&m->maps, &d9m_desc_maps);

	if (row == SIZE_MAX)
		return -1;
	m->maps.seg[row] = b->at.seg;
	m->maps.start[row] = d9m_b_u64(sm, v, D9_F_MAPS_START, 0);
	m->maps.end[row] = d9m_b_u64(sm, v, D9_F_MAPS_END, 0);
	m->maps.off[row] = d9m_b_u64(sm, v, D9_F_MAPS_FILE_OFFSET, 0);
	m->maps.path[row] = d9m_b_str(b, sm, v, D9_F_MAPS_PATH);
	m->maps.build_id[row] = d9m_b_str(b, sm, v, D9_F_MAPS_BUILD_ID);
	return 0;
}

static int
add_meta(struct d9m_builder *b, const struct d9m_smap *sm, uint64_t ts,
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
		m->meta.seg[row] = b->at.seg;
		m->meta.key[row] = d9_intern_text(&m->strs, k, kl);
		m->meta.val[row] = d9_intern_text(&m->strs, val, vl);
		if (b->at.pend.group == D9_NONE)
			d9m_pending_meta(m, &b->at.pend, m->meta.key[row],
			    m->meta.val[row]);
	}
	return 0;
}

static int
add_custom(struct d9m_builder *b, const struct d9m_smap *sm, uint64_t ts,
    const struct d9p_value *v)
{
	struct d9m_model *m = b->m;
	size_t row = d9m_tab_push(&m->custom, &d9m_desc_custom);
	int any;

	if (row == SIZE_MAX)
		return -1;
	m->custom.ts[row] = ts;
	m->custom.name[row] = sm->name;
	m->custom.seg[row] = b->at.seg;
	m->custom.fields[row] = d9m_b_fields(b, sm, v, 0, &any);
	return 0;
}

/* Events that frame a segment rather than record the process: they
 * neither resolve its source nor count in its times. */
static int
framing(uint8_t kind)
{
	return kind == D9_SCH_CLOCK_SYNC || kind == D9_SCH_SEGMENT_META ||
	    kind == D9_SCH_SYMBOL || kind == D9_SCH_MAPS;
}

static int
on_event(void *ctx, const struct d9p_schema *s, uint64_t ts,
    const struct d9p_value *v)
{
	struct d9m_builder *b = ctx;
	struct d9m_model *m = b->m;
	struct d9m_smap *sm = s->user;
	size_t row;

	if (sm == NULL)
		return 0;
	if (b->at.seg == D9_NONE && d9m_b_new_segment(b) < 0)
		return -1;
	if (b->at.pend.group != D9_NONE && (sm->kind == D9_SCH_CLOCK_SYNC ||
	    sm->kind == D9_SCH_SEGMENT_META) && d9m_b_other_process(b, sm, ts, v) &&
	    d9m_b_split(b) < 0)
		return -1;
	if (b->at.pend.group == D9_NONE) {
		/* what names the process comes first; then the rows */
		uint64_t real = sm->kind == D9_SCH_CLOCK_SYNC ? d9m_b_u64(sm, v,
		    D9_F_CLOCK_SYNC_REALTIME_NS, 0) : 0;

		if (real != 0)
			d9m_pending_clock(&b->at.pend, ts, real);
		else if (!framing(sm->kind) && d9m_group_resolve(m, &b->at.pend, b->at.seg, ts,
		    &b->prev) < 0)
			return -1;
	}
	if (!framing(sm->kind)) {
		if (ts < b->at.first)
			b->at.first = ts;
		if (ts > b->at.last)
			b->at.last = ts;
	}
	if (b->at.pend.group != D9_NONE && sm->kind != D9_SCH_SEGMENT_META)
		ts = d9m_pending_ts(&b->at.pend, ts);
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
	case D9_SCH_RT_METRICS:
		return add_queue(b, sm, ts, v);
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
		m->dumps.seg[row] = b->at.seg;
		return 0;
	case D9_SCH_ALLOC:
		if ((row = d9m_tab_push(&m->allocs, &d9m_desc_allocs)) ==
		    SIZE_MAX)
			return -1;
		m->allocs.ts[row] = ts;
		m->allocs.tid[row] = d9m_b_tid(b, sm, v, D9_F_ALLOC_TID, 0);
		m->allocs.size[row] = d9m_b_u64(sm, v, D9_F_ALLOC_SIZE, 0);
		m->allocs.addr[row] = d9m_b_u64(sm, v, D9_F_ALLOC_ADDR, 0);
		m->allocs.stack[row] = stack_field(b, sm, v,
		    D9_F_ALLOC_CALLCHAIN);
		m->allocs.seg[row] = b->at.seg;
		return 0;
	case D9_SCH_FREE:
		if ((row = d9m_tab_push(&m->frees, &d9m_desc_frees)) == SIZE_MAX)
			return -1;
		m->frees.ts[row] = ts;
		m->frees.tid[row] = d9m_b_tid(b, sm, v, D9_F_FREE_TID, 0);
		m->frees.addr[row] = d9m_b_u64(sm, v, D9_F_FREE_ADDR, 0);
		m->frees.size[row] = d9m_b_u64(sm, v, D9_F_FREE_SIZE, 0);
		m->frees.alloc_ts[row] = d9m_b_u64(sm, v, D9_F_FREE_ALLOC_TS,
		    D9M_ABSENT);
		if (m->frees.alloc_ts[row] != D9M_ABSENT)
			m->frees.alloc_ts[row] = d9m_pending_ts(&b->at.pend,
			    m->frees.alloc_ts[row]);
		return 0;
	case D9_SCH_MEM_OVERFLOW:
		if ((row = d9m_tab_push(&m->overflow, &d9m_desc_overflow)) ==
		    SIZE_MAX)
			return -1;
		m->overflow.ts[row] = ts;
		m->overflow.allocs[row] = d9m_b_u64(sm, v,
		    D9_F_MEM_OVERFLOW_DROPPED_ALLOCS, 0);
		m->overflow.frees[row] = d9m_b_u64(sm, v,
		    D9_F_MEM_OVERFLOW_DROPPED_FREES, 0);
		m->overflow.seg[row] = b->at.seg;
		return 0;
	case D9_SCH_CLOCK_SYNC:
		if (d9m_b_u64(sm, v, D9_F_CLOCK_SYNC_REALTIME_NS, 0) == 0)
			return 0;
		if ((row = d9m_tab_push(&m->clock, &d9m_desc_clock)) == SIZE_MAX)
			return -1;
		m->clock.mono[row] = ts;
		m->clock.real[row] = d9m_b_u64(sm, v,
		    D9_F_CLOCK_SYNC_REALTIME_NS, 0);
		m->clock.seg[row] = b->at.seg;
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
		return d9m_b_span(b, sm, ts, v);
	case D9_SCH_METRIC:
		return d9m_b_metric(b, sm, ts, v);
	default:
		if (!sm->compiled && (d9m_b_sev_compile(b, sm) < 0 ||
		    (sm->sev == NULL && d9m_b_gauges_compile(b, sm) < 0)))
			return -1;
		if (sm->metric != NULL)
			return d9m_b_gauges(b, sm, ts, v);
		if (sm->sev != NULL) {
			int rc = d9m_b_sev_event(b, sm, ts, v);

			if (rc <= 0)
				return rc;
		}
		return add_custom(b, sm, ts, v);
	}
}

/* A batch begins: its segment, then the rows ahead. */
static void
on_batch(void *ctx, uint64_t off)
{
	d9m_b_on_batch(ctx, off);
	d9m_b_room(ctx, off);
	d9m_b_ahead(ctx);
}

void
d9m_builder_sink(struct d9m_model *m, struct d9p_sink *sink)
{
	struct d9m_builder *b = m->builder;

	b->null_id = d9m_b_intern_cstr(m, "null");
	memset(sink, 0, sizeof *sink);
	sink->ctx = b;
	sink->schema = on_schema;
	sink->event = on_event;
	sink->batch = on_batch;
	sink->input = d9m_b_on_input;
	sink->size = d9m_b_on_size;
	sink->resume = d9m_b_on_resume;
	sink->renamed = d9m_b_on_renamed;
	sink->loss = d9m_b_on_loss;
}
