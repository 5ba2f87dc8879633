/*
 * byname.c: see byname.h. Each group's names are joined (a unit
 * separator between frames) and interned in a table of the call's own;
 * groups then merge by that id.
 */
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/intern.h"
#include "model/byname.h"

#define MAX_FRAMES	512

/* The names of a stack, joined, into buf (cap bytes); the length. */
static size_t
joined(const struct d9m_model *m, const struct d9m_resolver *r, int alloc,
    const struct d9m_wstack *g, struct d9m_frame *f, char *buf, size_t cap)
{
	size_t nf = alloc ? d9m_alloc_frames(m, r, g->seg, g->stack, f,
	    MAX_FRAMES) : d9m_stack_frames(m, r, g->seg, g->stack, f,
	    MAX_FRAMES), len = 0;

	for (size_t i = 0; i < nf; i++) {
		const char *s = d9m_frame_name(&f[i]);
		size_t sl = strlen(s);

		if (len + sl + 1 >= cap)
			break;
		memcpy(buf + len, s, sl);
		len += sl;
		buf[len++] = '\x1f';
	}
	return len;
}

int
d9m_name_ids(const struct d9m_model *m, const struct d9m_resolver *r,
    int alloc, const uint32_t *stack, const uint32_t *seg, size_t n,
    uint32_t *id)
{
	struct d9_arena arena;
	struct d9_intern names;
	struct d9m_frame *f = malloc(MAX_FRAMES * sizeof *f);
	char *buf = malloc(65536);
	int rc = -1;

	d9_arena_init(&arena, 64 * 1024);
	d9_intern_init(&names, &arena);
	for (size_t i = 0; f != NULL && buf != NULL && i < n; i++) {
		struct d9m_wstack g = { stack[i], seg[i], 0, 0 };
		size_t len = joined(m, r, alloc, &g, f, buf, 65536);

		if ((id[i] = d9_intern(&names, buf, len)) == D9_NONE)
			goto out;
	}
	rc = f != NULL && buf != NULL ? 0 : -1;
out:
	free(f);
	free(buf);
	d9_intern_free(&names);
	d9_arena_free(&arena);
	return rc;
}

int
d9m_merge_by_name(const struct d9m_model *m, const struct d9m_resolver *r,
    int alloc, struct d9m_wstack *v, size_t *n)
{
	uint32_t *stack = malloc((*n + 1) * sizeof *stack);
	uint32_t *seg = malloc((*n + 1) * sizeof *seg);
	uint32_t *id = malloc((*n + 1) * sizeof *id);
	size_t k = 0;
	int rc = -1;

	if (stack == NULL || seg == NULL || id == NULL)
		goto out;
	for (size_t i = 0; i < *n; i++) {
		stack[i] = v[i].stack;
		seg[i] = v[i].seg;
	}
	if (d9m_name_ids(m, r, alloc, stack, seg, *n, id) < 0)
		goto out;
	/* ids come in order of first meeting: a new one is the next kept */
	for (size_t i = 0; i < *n; i++) {
		if (id[i] == k) {
			v[k++] = v[i];
			continue;
		}
		v[id[i]].w += v[i].w;
		v[id[i]].n += v[i].n;
	}
	*n = k;
	rc = 0;
out:
	free(stack);
	free(seg);
	free(id);
	return rc;
}
