/*
 * stacks.c: see stacks.h.
 */
#include <stdlib.h>
#include <string.h>

#include "base/stackcap.h"
#include "base/vec.h"
#include "export/hash128.h"
#include "export/stacks.h"

int
d9x_stacks_init(struct d9x_stacks *s)
{
	memset(s, 0, sizeof *s);
	d9_hmap_init(&s->memo);
	d9_arena_init(&s->arena, 64 << 10);
	d9_intern_init(&s->ids, &s->arena);
	d9m_fmemo_init(&s->fm);
	s->f = d9m_frames_alloc();
	return s->f == NULL ? -1 : 0;
}

void
d9x_stacks_free(struct d9x_stacks *s)
{
	d9_hmap_free(&s->memo);
	d9_intern_free(&s->ids);
	d9_arena_free(&s->arena);
	d9m_fmemo_free(&s->fm);
	d9x_bytes_free(&s->names);
	d9x_bytes_free(&s->all);
	free(s->at);
	free(s->f);
	memset(s, 0, sizeof *s);
}

static size_t
frames(struct d9x_stacks *s, const struct d9x_source *src, uint64_t key)
{
	uint32_t stack = (uint32_t)(key >> 32), seg = (uint32_t)key >> 1;

	if (key & 1)
		return d9m_alloc_frames_memo(src->m, src->r, &s->fm, seg,
		    stack, s->f, D9_STACK_MAX);
	return d9m_stack_frames_memo(src->m, src->r, &s->fm, seg, stack,
	    s->f, D9_STACK_MAX);
}

int
d9x_stacks_id(struct d9x_stacks *s, const struct d9x_source *src,
    uint32_t seg, uint32_t stack, int alloc, uint8_t id[16])
{
	uint64_t key = (uint64_t)stack << 32 | (uint64_t)(seg & 0x7fffffff)
	    << 1 | (alloc != 0);
	uint32_t row = d9_hmap_get(&s->memo, key);
	const char *p;
	size_t n, had;

	if (row == D9_NONE) {
		d9x_bytes_reset(&s->names);
		n = frames(s, src, key);
		for (size_t k = 0; k < n; k++) {
			const char *name = d9m_frame_name(&s->f[k]);

			d9x_bytes_put(&s->names, name, strlen(name) + 1);
		}
		if (s->names.oom)
			return -1;
		d9x_hash128(s->names.p, s->names.n, id);
		had = s->ids.n;
		row = d9_intern(&s->ids, id, 16);
		if (row == D9_NONE || d9_hmap_put(&s->memo, key, row) < 0)
			return -1;
		/* a new id (not the last one met again by another stack) */
		if (s->ids.n > had) {
			if (d9_grow(&s->at, &s->cap, s->ids.n,
			    sizeof *s->at) < 0)
				return -1;
			s->at[row] = s->all.n;
			d9x_bytes_put(&s->all, s->names.p, s->names.n);
			if (s->all.oom)
				return -1;
		}
		return 0;
	}
	p = d9_intern_str(&s->ids, row, NULL);
	memcpy(id, p, 16);
	return 0;
}

int
d9x_stacks_write(struct d9x_stacks *s, struct d9x_leaf *l)
{
	for (size_t i = 0; i < s->ids.n; i++) {
		struct d9x_pq *w = d9x_leaf_pq(l);
		const char *p = (const char *)s->all.p + s->at[i];
		const char *end = (const char *)s->all.p + (i + 1 < s->ids.n ?
		    s->at[i + 1] : s->all.n);

		if (w == NULL)
			return -1;
		d9x_pq_str(w, D9X_STACK_ID, d9_intern_str(&s->ids,
		    (uint32_t)i, NULL), 16);
		d9x_pq_begin(w, D9X_STACK_FRAMES);
		while (p < end) {	/* each name ends in a NUL */
			size_t n = strlen(p);

			d9x_pq_str(w, D9X_STACK_FRAMES, p, n);
			p += n + 1;
		}
		d9x_pq_end(w, D9X_STACK_FRAMES);
		if (d9x_leaf_row(l) < 0)
			return -1;
	}
	return 0;
}
