/*
 * pollfind.c: see pollfind.h. Each name is tested once: the strings of
 * the model for locations, each distinct (stack, segment) of the samples
 * for frames (kept in a map).
 */
#include <stdlib.h>

#include "base/hmap.h"
#include "base/stackcap.h"
#include "base/text.h"
#include "model/core/frames.h"
#include "model/queries/pollfind.h"

/* The better of two candidates: after ts the earliest, else the first. */
static void
consider(const struct d9m_model *m, uint32_t p, uint64_t ts, uint32_t *next,
    uint32_t *first)
{
	uint64_t s = m->polls.start[p];

	if (s > ts && (*next == D9_NONE || s < m->polls.start[*next]))
		*next = p;
	if (*first == D9_NONE || s < m->polls.start[*first])
		*first = p;
}

static int
by_location(const struct d9m_model *m, const char *text, uint64_t ts,
    uint32_t *next, uint32_t *first)
{
	uint8_t *hit = calloc(m->strs.n + 1, 1);

	if (hit == NULL)
		return -1;
	for (size_t i = 0; i < m->strs.n; i++)
		hit[i] = (uint8_t)d9_text_contains(d9m_str(m, (uint32_t)i),
		    text);
	for (size_t i = 0; i < m->polls.n; i++) {
		uint32_t l = m->polls.loc[i];

		if (l != D9_NONE && hit[l])
			consider(m, (uint32_t)i, ts, next, first);
	}
	free(hit);
	return 0;
}

/* Whether a frame of the stack's names holds text. */
static int
stack_has(const struct d9m_model *m, const struct d9m_resolver *r,
    uint32_t seg, uint32_t stack, const char *text, struct d9m_frame *f)
{
	size_t n = d9m_stack_frames(m, r, seg, stack, f, D9_STACK_MAX);

	for (size_t k = 0; k < n; k++)
		if (f[k].name != NULL && d9_text_contains(f[k].name, text))
			return 1;
	return 0;
}

static int
by_frame(const struct d9m_model *m, const struct d9m_resolver *r,
    const char *text, uint64_t ts, uint32_t *next, uint32_t *first)
{
	struct d9m_frame *f = d9m_frames_alloc();
	struct d9_hmap said;
	int rc = -1;

	d9_hmap_init(&said);
	if (f == NULL)
		goto out;
	for (size_t i = 0; i < m->cpu.n; i++) {
		uint64_t key = (uint64_t)m->cpu.stack[i] << 32 | m->cpu.seg[i];
		uint32_t v;

		if (m->cpu.poll[i] == D9_NONE)
			continue;
		if ((v = d9_hmap_get(&said, key)) == D9_NONE) {
			v = (uint32_t)stack_has(m, r, m->cpu.seg[i],
			    m->cpu.stack[i], text, f);
			if (d9_hmap_put(&said, key, v) < 0)
				goto out;
		}
		if (v)
			consider(m, m->cpu.poll[i], ts, next, first);
	}
	rc = 0;
out:
	d9_hmap_free(&said);
	free(f);
	return rc;
}

int
d9m_poll_find(const struct d9m_model *m, const struct d9m_resolver *r,
    const char *text, uint64_t ts, uint32_t *poll, enum d9m_found *how)
{
	uint32_t next = D9_NONE, first = D9_NONE;

	*poll = D9_NONE;
	*how = D9M_FOUND_NONE;
	if (by_location(m, text, ts, &next, &first) < 0)
		return -1;
	if (first != D9_NONE)
		*how = D9M_FOUND_LOC;
	else if (by_frame(m, r, text, ts, &next, &first) < 0)
		return -1;
	else if (first != D9_NONE)
		*how = D9M_FOUND_FRAME;
	*poll = next != D9_NONE ? next : first;
	return 0;
}
