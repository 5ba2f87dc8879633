/*
 * build_segs.c: which segment and process each event belongs to, while
 * inputs are read (build_int.h). A segment starts with every input, at
 * the first batch after a symbol appendix, and where metadata or a clock
 * sync says another process's segment begins on one stream (ANALYSIS
 * 23); an input followed while it is written is read in turns, and each
 * turn goes on where that input stopped (struct d9m_bpos).
 */
#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "model/core/build.h"
#include "model/core/build_int.h"
#include "model/core/groups.h"
#include "model/core/tables.h"

/* The segment being read is left for good: the next may go on its
 * source (groups.h, d9m_prevseg). */
static void
seg_done(struct d9m_builder *b)
{
	struct d9m_prevseg *p = &b->prev;

	if (b->at.seg == D9_NONE || b->at.pend.group == D9_NONE ||
	    b->at.first > b->at.last)
		return;
	p->group = b->at.pend.group;
	p->first = b->at.first;
	p->last = b->at.last;
	if (p->last - p->first > p->longest)
		p->longest = p->last - p->first;
}

int
d9m_b_new_segment(struct d9m_builder *b)
{
	size_t row = d9m_tab_push(&b->m->segs, &d9m_desc_segs);

	if (row == SIZE_MAX)
		return -1;
	seg_done(b);
	b->m->segs.input[row] = b->at.input;
	b->m->segs.cut[row] = b->at.written ? D9M_SEG_WRITTEN : 0;
	b->m->segs.group[row] = D9_NONE;
	d9m_pending_reset(&b->at.pend);
	b->at.seg = (uint32_t)row;
	b->at.seg_used = 0;
	b->at.seg_symbols = 0;
	b->at.first = UINT64_MAX;
	b->at.last = 0;
	b->at.meta0 = b->m->meta.n;
	b->at.clock0 = b->m->clock.n;
	return 0;
}

/* Keep where the input being read is, for a later turn of it. */
static void
leave(struct d9m_builder *b)
{
	uint32_t row;

	if (b->at.input == D9_NONE)
		return;
	if ((row = d9_hmap_get(&b->left, b->at.input)) == D9_NONE) {
		if (d9_grow(&b->leftv, &b->capleft, b->nleft + 1,
		    sizeof *b->leftv) < 0 ||
		    d9_hmap_put(&b->left, b->at.input, (uint32_t)b->nleft) < 0)
			return;	/* out of memory: its next turn starts anew */
		row = (uint32_t)b->nleft++;
	}
	b->leftv[row] = b->at;
}

void
d9m_b_on_input(void *ctx, const char *name)
{
	struct d9m_builder *b = ctx;

	leave(b);
	seg_done(b);
	b->at.input = d9m_b_intern_cstr(b->m, name);
	b->at.seg = D9_NONE;
	b->at.written = 0;	/* until the reader says it */
	b->in_bytes = 0;	/* until the reader says it (d9m_b_on_size) */
}

/* Another turn of an input read before: on in the segment it was in,
 * never in the one another input left open meanwhile. */
void
d9m_b_on_resume(void *ctx, const char *name)
{
	struct d9m_builder *b = ctx;
	uint32_t id = d9m_b_intern_cstr(b->m, name), row;

	if (id == b->at.input)
		return;
	b->in_bytes = 0;	/* what is left of it is not known */
	leave(b);
	if ((row = d9_hmap_get(&b->left, id)) != D9_NONE) {
		b->at = b->leftv[row];
		return;
	}
	b->at.input = id;
	b->at.seg = D9_NONE;
}

/* A followed input sealed under its final name: its segments and the
 * place it was left at are the new name's (a segment read while .active
 * belongs where its sealed copy does: ANALYSIS 23). */
void
d9m_b_on_renamed(void *ctx, const char *from, const char *to)
{
	struct d9m_builder *b = ctx;
	struct d9m_segs *s = &b->m->segs;
	uint32_t a = d9m_b_intern_cstr(b->m, from);
	uint32_t z = d9m_b_intern_cstr(b->m, to), row;

	if (a == D9_NONE || z == D9_NONE)
		return;		/* out of memory: counted as .active */
	for (size_t i = 0; i < s->n; i++)
		if (s->input[i] == a)
			s->input[i] = z;
	if (b->at.input == a)
		b->at.input = z;
	if ((row = d9_hmap_get(&b->left, a)) != D9_NONE &&
	    d9_hmap_put(&b->left, z, row) == 0)
		b->leftv[row].input = z;
}

void
d9m_b_on_batch(void *ctx, uint64_t off)
{
	struct d9m_builder *b = ctx;

	(void)off;
	if (b->at.seg == D9_NONE || b->at.seg_symbols)
		d9m_b_new_segment(b);
	b->at.seg_used = 1;
	b->at.meta0 = b->m->meta.n;
	b->at.clock0 = b->m->clock.n;
}

int
d9m_builder_segment_ends(const struct d9m_model *m)
{
	const struct d9m_builder *b = m->builder;

	return b != NULL && b->at.seg != D9_NONE && b->at.seg_symbols;
}

void
d9m_b_on_loss(void *ctx, int what)
{
	struct d9m_builder *b = ctx;

	if (what == D9P_LOSS_COPY)
		b->m->segs.copies++;
	else if (what == D9P_LOSS_DAMAGED)
		b->m->segs.damaged++;
	else if (what == D9P_LOSS_UNREAD)
		b->m->segs.unread++;
	else if (what == D9P_INPUT_WRITTEN) {
		b->at.written = 1;
		if (b->at.seg != D9_NONE)
			b->m->segs.cut[b->at.seg] = D9M_SEG_WRITTEN;
	} else if (b->at.seg != D9_NONE)
		b->m->segs.cut[b->at.seg] = D9M_SEG_CUT;
}

#define META_NAMES	64	/* entries of a metadata event compared */

/*
 * Whether this metadata or clock sync event of a resolved segment says
 * another process's segment begins (segments of two processes piped
 * together, ANALYSIS 23).
 */
int
d9m_b_other_process(struct d9m_builder *b, const struct d9m_smap *sm, uint64_t ts,
    const struct d9p_value *v)
{
	struct d9m_model *m = b->m;
	uint32_t keys[META_NAMES], vals[META_NAMES];
	const struct d9p_value *x;
	const char *k, *val;
	uint32_t kl, vl;
	size_t pos = 0, n = 0;

	if (sm->kind == D9_SCH_CLOCK_SYNC)
		return d9m_pending_other(m, &b->at.pend, NULL, NULL, 0, ts,
		    d9m_b_u64(sm, v, D9_F_CLOCK_SYNC_REALTIME_NS, 0));
	if (sm->f[D9_F_SEGMENT_META_ENTRIES] < 0)
		return 0;
	x = &v[sm->f[D9_F_SEGMENT_META_ENTRIES]];
	while (n < META_NAMES && d9p_map_next(x, &pos, &k, &kl, &val, &vl) ==
	    0) {
		keys[n] = d9_intern_text(&m->strs, k, kl);
		vals[n++] = d9_intern_text(&m->strs, val, vl);
	}
	return n > 0 && d9m_pending_other(m, &b->at.pend, keys, vals, n, 0, 0);
}

/* Another process's segment begins here: the metadata and clock syncs
 * this batch wrote so far go with it (their times as recorded, which
 * d9m_group_resolve moves again). */
int
d9m_b_split(struct d9m_builder *b)
{
	struct d9m_model *m = b->m;
	uint32_t old = b->at.seg;
	int64_t shift = b->at.pend.shift;
	size_t meta0 = b->at.meta0, clock0 = b->at.clock0;

	if (d9m_b_new_segment(b) < 0)
		return -1;
	b->at.seg_used = 1;
	b->at.meta0 = meta0;
	b->at.clock0 = clock0;
	for (size_t i = meta0; i < m->meta.n; i++) {
		if (m->meta.seg[i] != old)
			continue;
		m->meta.seg[i] = b->at.seg;
		d9m_pending_meta(m, &b->at.pend, m->meta.key[i],
		    m->meta.val[i]);
	}
	for (size_t i = clock0; i < m->clock.n; i++) {
		if (m->clock.seg[i] != old)
			continue;
		m->clock.seg[i] = b->at.seg;
		m->clock.mono[i] = (uint64_t)((int64_t)m->clock.mono[i] -
		    shift);
		d9m_pending_clock(&b->at.pend, m->clock.mono[i],
		    m->clock.real[i]);
	}
	return 0;
}

