/*
 * flamediff.c: a flame tree against a baseline window's (diff.h). Nodes
 * are matched by their path of names from the root: a node's match is
 * the child of its parent's match with the same name. Both trees intern
 * their names, so cur's name ids are mapped to base's once; a parent is
 * always before its children in a tree's node array.
 */
#include <stdlib.h>
#include <string.h>

#include "model/figures/diff.h"

struct keyed {
	double		ch, w;
	uint32_t	id;
};

static int
cmp_keyed(const void *x, const void *y)
{
	const struct keyed *a = x, *b = y;

	if (a->ch != b->ch)
		return a->ch > b->ch ? -1 : 1;
	if (a->w != b->w)
		return a->w > b->w ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

double
d9m_fdiff_change(const struct d9m_flame *cur, const struct d9m_fdiff *d,
    uint32_t i)
{
	double c = cur->nodes[0].w > 0 ? cur->nodes[i].w / cur->nodes[0].w : 0;
	double b = d->base_total > 0 ? d->base_w[i] / d->base_total : 0;

	return c - b;
}

/* Each node's children by change (d->base_w filled). */
static int
order(const struct d9m_flame *cur, struct d9m_fdiff *d)
{
	struct keyed *k = malloc((cur->n + 1) * sizeof *k);

	if (k == NULL)
		return -1;
	for (size_t i = 0; i < cur->n; i++) {
		const struct d9m_fnode *nd = &cur->nodes[i];

		for (uint32_t j = 0; j < nd->nkids; j++) {
			uint32_t c = cur->kids[nd->kid0 + j];

			k[j] = (struct keyed){ d9m_fdiff_change(cur, d, c),
			    cur->nodes[c].w, c };
		}
		qsort(k, nd->nkids, sizeof *k, cmp_keyed);
		for (uint32_t j = 0; j < nd->nkids; j++)
			d->kids[nd->kid0 + j] = k[j].id;
	}
	free(k);
	return 0;
}

int
d9m_flame_diff(const struct d9m_flame *cur, const struct d9m_flame *base,
    struct d9m_fdiff *d)
{
	uint32_t *match = malloc((cur->n + 1) * sizeof *match);
	uint32_t *name = malloc((cur->names.n + 1) * sizeof *name);
	int rc = -1;

	memset(d, 0, sizeof *d);
	d->base_w = calloc(cur->n + 1, sizeof *d->base_w);
	d->kids = malloc((cur->n + 1) * sizeof *d->kids);
	if (match == NULL || name == NULL || d->base_w == NULL ||
	    d->kids == NULL)
		goto out;
	for (size_t i = 0; i < cur->names.n; i++) {
		uint32_t len;
		const char *s = d9_intern_str(&cur->names, (uint32_t)i, &len);

		name[i] = d9_intern_find(&base->names, s, len);
	}
	d->base_total = base->n ? base->nodes[0].w : 0;
	match[0] = base->n ? 0 : D9_NONE;
	if (cur->n)
		d->base_w[0] = d->base_total;
	for (size_t i = 1; i < cur->n; i++) {
		uint32_t p = match[cur->nodes[i].parent], nm =
		    name[cur->nodes[i].name];

		match[i] = D9_NONE;
		for (uint32_t j = 0; p != D9_NONE && nm != D9_NONE &&
		    j < base->nodes[p].nkids; j++) {
			uint32_t c = base->kids[base->nodes[p].kid0 + j];

			if (base->nodes[c].name == nm) {
				match[i] = c;
				d->base_w[i] = base->nodes[c].w;
				break;
			}
		}
	}
	rc = order(cur, d);
out:
	free(match);
	free(name);
	if (rc < 0)
		d9m_fdiff_free(d);
	return rc;
}

void
d9m_fdiff_free(struct d9m_fdiff *d)
{
	free(d->base_w);
	free(d->kids);
	memset(d, 0, sizeof *d);
}
