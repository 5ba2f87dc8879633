/*
 * twins.c: see twins.h. Each segment's symbol rows (sorted by segment
 * since d9m_symbols_index) and map rows are hashed; a segment whose hash
 * an earlier one had is compared with it row for row, and is its twin
 * only when every row is the same (a collision leaves it alone).
 */
#include <stdlib.h>
#include <string.h>

#include "base/hmap.h"
#include "base/sum.h"
#include "model/core/twins.h"

/* The map rows of each segment, in table order: rows[off[s] ..
 * off[s + 1]). */
struct bysegs {
	uint32_t	*rows;
	size_t		*off;
};

static int
maps_by_seg(const struct d9m_model *m, struct bysegs *b)
{
	const struct d9m_maps *t = &m->maps;
	size_t ns = m->segs.n, *fill;

	b->rows = malloc((t->n + 1) * sizeof *b->rows);
	b->off = calloc(ns + 2, sizeof *b->off);
	fill = malloc((ns + 1) * sizeof *fill);
	if (b->rows == NULL || b->off == NULL || fill == NULL) {
		free(fill);
		return -1;
	}
	for (size_t i = 0; i < t->n; i++)
		if (t->seg[i] < ns)
			b->off[t->seg[i] + 1]++;
	for (size_t s = 0; s < ns; s++)
		b->off[s + 1] += b->off[s];
	memcpy(fill, b->off, (ns + 1) * sizeof *fill);
	for (size_t i = 0; i < t->n; i++)
		if (t->seg[i] < ns)
			b->rows[fill[t->seg[i]]++] = (uint32_t)i;
	free(fill);
	return 0;
}

static uint64_t
seg_hash(const struct d9m_model *m, const struct bysegs *b, size_t s)
{
	const struct d9m_symbols *y = &m->symbols;
	const struct d9m_maps *t = &m->maps;
	struct d9_sum h;

	d9_sum_init(&h);
	for (size_t i = m->sym_seg_off[s]; i < m->sym_seg_off[s + 1]; i++) {
		uint64_t v[3] = { y->addr[i], (uint64_t)y->depth[i] << 32 |
		    y->name[i], (uint64_t)y->file[i] << 32 | y->line[i] };

		d9_sum_add(&h, v, sizeof v);
	}
	for (size_t k = b->off[s]; k < b->off[s + 1]; k++) {
		uint32_t i = b->rows[k];
		uint64_t v[4] = { t->start[i], t->end[i], t->off[i],
		    (uint64_t)t->path[i] << 32 | t->build_id[i] };

		d9_sum_add(&h, v, sizeof v);
	}
	return d9_sum_end(&h);
}

/* Whether segments s and u have the same rows. */
static int
same_rows(const struct d9m_model *m, const struct bysegs *b, size_t s,
    size_t u)
{
	const struct d9m_symbols *y = &m->symbols;
	const struct d9m_maps *t = &m->maps;
	size_t a = m->sym_seg_off[s], c = m->sym_seg_off[u];
	size_t n = m->sym_seg_off[s + 1] - a;

	if (m->sym_seg_off[u + 1] - c != n ||
	    b->off[s + 1] - b->off[s] != b->off[u + 1] - b->off[u])
		return 0;
	for (size_t k = 0; k < n; k++)
		if (y->addr[a + k] != y->addr[c + k] ||
		    y->depth[a + k] != y->depth[c + k] ||
		    y->name[a + k] != y->name[c + k] ||
		    y->file[a + k] != y->file[c + k] ||
		    y->line[a + k] != y->line[c + k])
			return 0;
	for (size_t k = 0; k < b->off[s + 1] - b->off[s]; k++) {
		uint32_t i = b->rows[b->off[s] + k], j = b->rows[b->off[u] + k];

		if (t->start[i] != t->start[j] || t->end[i] != t->end[j] ||
		    t->off[i] != t->off[j] || t->path[i] != t->path[j] ||
		    t->build_id[i] != t->build_id[j])
			return 0;
	}
	return 1;
}

int
d9m_seg_twins(const struct d9m_model *m, uint32_t *twin)
{
	struct bysegs b = { NULL, NULL };
	struct d9_hmap first;		/* hash -> first segment with it */
	int rc = -1;

	d9_hmap_init(&first);
	for (size_t s = 0; s < m->segs.n; s++)
		twin[s] = (uint32_t)s;
	if (m->sym_seg_off == NULL)
		return 0;		/* no symbols indexed: alone */
	if (maps_by_seg(m, &b) < 0)
		goto out;
	for (size_t s = 0; s < m->segs.n; s++) {
		uint64_t h = seg_hash(m, &b, s);
		uint32_t u = d9_hmap_get(&first, h);

		if (u == D9_NONE) {
			if (d9_hmap_put(&first, h, (uint32_t)s) < 0)
				goto out;
		} else if (same_rows(m, &b, s, u))
			twin[s] = u;
	}
	rc = 0;
out:
	d9_hmap_free(&first);
	free(b.rows);
	free(b.off);
	return rc;
}

uint32_t
d9m_twin_of(const struct d9m_model *m, uint32_t seg)
{
	return m->seg_twin != NULL && seg < m->segs.n ? m->seg_twin[seg] :
	    seg;
}
