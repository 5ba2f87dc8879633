/*
 * build_fields.c: the builder's readers of a field's value (build_int.h):
 * worker and thread ids, a value as interned text, string maps and the
 * field lists of spans and custom events. build.c and build_spans.c
 * call them; they call neither.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/wire.h"
#include "model/core/build_int.h"
#include "model/core/ids.h"

uint32_t
d9m_b_wid(struct d9m_builder *b, uint64_t own)
{
	uint32_t g = b->at.pend.group, row;

	if (b->wid_last.row != D9_NONE && b->wid_last.own == own &&
	    b->wid_last.group == g)
		return b->wid_last.row;
	row = d9m_wid_row(b->m, &b->wids, g, own);
	b->wid_last.group = g;
	b->wid_last.own = own;
	b->wid_last.row = row;
	return row;
}

uint32_t
d9m_b_worker(struct d9m_builder *b, const struct d9m_smap *sm,
    const struct d9p_value *v, int i)
{
	return d9m_b_wid(b, d9m_b_u64(sm, v, i, D9_WORKER_NONE));
}

uint32_t
d9m_b_tid(const struct d9m_builder *b, const struct d9m_smap *sm,
    const struct d9p_value *v, int i, uint32_t def)
{
	return d9m_group_tid(b->at.pend.group, d9m_b_u32(sm, v, i, def));
}

uint32_t
d9m_b_text(struct d9m_builder *b, const struct d9p_value *v)
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
		return d9m_b_intern_cstr(m, v->u ? "true" : "false");
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
		return d9m_b_intern_cstr(m, "[dynamic]");
	}
}

uint32_t
d9m_b_str(struct d9m_builder *b, const struct d9m_smap *sm,
    const struct d9p_value *v, int i)
{
	uint32_t id;
	uint32_t len;

	if (sm->f[i] < 0)
		return D9_NONE;
	id = d9m_b_text(b, &v[sm->f[i]]);
	if (id == D9_NONE)
		return D9_NONE;
	d9_intern_str(&b->m->strs, id, &len);
	return len ? id : D9_NONE;
}

/* The entries of a StringMap value appended to pairs[*n .. 64). */
static void
map_pairs(struct d9m_builder *b, const struct d9p_value *v, uint64_t *pairs,
    size_t *n)
{
	size_t pos = 0;
	const char *k, *x;
	uint32_t kl, xl;

	while (*n < 64 && d9p_map_next(v, &pos, &k, &kl, &x, &xl) == 0)
		pairs[(*n)++] = (uint64_t)d9_intern_text(&b->m->strs, k, kl) <<
		    32 | d9_intern_text(&b->m->strs, x, xl);
}

uint32_t
d9m_b_map(struct d9m_builder *b, const struct d9p_value *v)
{
	uint64_t pairs[64];
	size_t n = 0;

	if (!v->present || v->type != D9_FT_STRING_MAP)
		return D9_NONE;
	map_pairs(b, v, pairs, &n);
	return n ? d9_intern(&b->m->lists, pairs, n * sizeof pairs[0]) :
	    D9_NONE;
}

/* The list of pairs[0 .. n): the last one of the schema's events when
 * the same (memo), else interned (and kept when short). */
static uint32_t
pairs_list(struct d9_intern *lists, struct d9m_smemo *mo,
    const uint64_t *pairs, size_t n)
{
	size_t same = 0;
	uint32_t id;

	if (mo->list != D9_NONE && mo->n == n) {
		while (same < n && mo->pairs[same] == pairs[same])
			same++;
		if (same == n)
			return mo->list;
	}
	id = d9_intern(lists, pairs, n * sizeof *pairs);
	if (n <= D9M_MEMO_PAIRS) {
		mo->list = id;
		mo->n = n;
		memcpy(mo->pairs, pairs, n * sizeof *pairs);
	}
	return id;
}

uint32_t
d9m_b_fields(struct d9m_builder *b, const struct d9m_smap *sm,
    const struct d9p_value *v, int skip_known, int *any)
{
	const struct d9p_schema *s = sm->s;
	uint64_t pairs[64];
	size_t n = 0;

	pairs[0] = 0;	/* only pairs[0 .. n) are read: said for gcc */
	*any = 0;
	for (uint16_t i = 0; i < s->nfields && n < 64; i++) {
		uint32_t key, val;

		if (skip_known && i < 64 && (sm->known >> i & 1))
			continue;
		*any = 1;
		key = sm->keys[i];
		if (v[i].type == D9_FT_STRING_MAP && v[i].present) {
			/* legacy span fields: flatten the map */
			map_pairs(b, &v[i], pairs, &n);
			continue;
		}
		if (v[i].cache != NULL && *v[i].cache != D9_NONE)
			val = *v[i].cache;	/* pooled, already interned */
		else if ((val = d9m_b_text(b, &v[i])) == D9_NONE)
			val = b->null_id;
		pairs[n++] = (uint64_t)key << 32 | val;
	}
	return pairs_list(&b->m->lists, sm->memo, pairs, n);
}
