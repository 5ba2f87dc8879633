/*
 * folded.c: --folded. One line per path of the browser's flame tree of
 * the window, root first, frames joined by ';', then a space and the
 * weight: what flamegraph.pl and inferno-flamegraph read. cpu: on-CPU
 * samples; offcpu: context switches (a sample taken 1 in N stands for N);
 * alloc: sampled allocations weighted by estimated bytes, the allocator
 * hook frames removed. The tree is the model's (flame.h): --folded, the
 * browser and the report count the same samples.
 */
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "base/text.h"
#include "model/queries/flame.h"

/* One frame's name, escaped; ';' separates frames in folded format. */
static void
put_name(FILE *f, const char *s)
{
	char buf[512];
	size_t len = d9_text_safe(buf, sizeof buf, s, strlen(s));

	for (size_t k = 0; k < len; k++)
		if (buf[k] == ';')
			buf[k] = ',';
	fwrite(buf, 1, len, f);
}

int
d9o_folded_tree(FILE *f, const struct d9m_flame *t)
{
	uint32_t *path = malloc((t->n + 1) * sizeof *path);
	uint32_t *todo = malloc((t->n + 1) * sizeof *todo);
	size_t nt = 0;

	if (path == NULL || todo == NULL) {
		free(path);
		free(todo);
		return -1;
	}
	/* each node's own weight (what its children do not hold) is a line:
	 * its path, root first (for an inverted tree, the leaf's callers
	 * reversed back into call order); nodes in the browser's order,
	 * depth first, heaviest child first, so that the lines are the same
	 * whatever order the trace's files were read in */
	for (uint32_t k = t->n > 0 ? t->nodes[0].nkids : 0; k-- > 0; )
		todo[nt++] = t->kids[t->nodes[0].kid0 + k];
	while (nt > 0) {
		uint32_t i = todo[--nt];
		const struct d9m_fnode *nd = &t->nodes[i];
		double self = nd->w;
		size_t np = 0;

		for (uint32_t k = nd->nkids; k-- > 0; ) {
			self -= t->nodes[t->kids[nd->kid0 + k]].w;
			todo[nt++] = t->kids[nd->kid0 + k];
		}
		if (self < 0.5)
			continue;
		for (uint32_t p = i; p != 0; p = t->nodes[p].parent)
			path[np++] = p;
		for (size_t k = 0; k < np; k++) {
			size_t at = d9m_query_has(&t->req, D9M_Q_INVERT) ? k :
			    np - 1 - k;

			put_name(f, d9m_flame_name(t, path[at]));
			putc(k + 1 < np ? ';' : ' ', f);
		}
		fprintf(f, "%.0f\n", self);
	}
	free(path);
	free(todo);
	return 0;
}

int
d9o_folded(const struct d9o_out *o, const char *kind,
    const struct d9m_window *w)
{
	/* the browser's tree of the window, whole: the same samples, the
	 * same weights (an off-CPU sample stands for its switches, an
	 * allocation for its estimated bytes) */
	struct d9m_query q = D9M_QUERY_INIT;
	struct d9m_flame *t;
	int rc;

	q.win = *w;
	q.kind = D9M_F_CPU;
	if (strcmp(kind, "offcpu") == 0)
		q.kind = D9M_F_OFF;
	else if (strcmp(kind, "alloc") == 0)
		q.kind = D9M_F_ALLOC;
	else if (strcmp(kind, "cpu") != 0)
		return -1;
	if ((t = d9m_flame_build(o->m, o->r, &q)) == NULL)
		return -1;
	rc = d9o_folded_tree(o->f, t);
	d9m_flame_free(&t);
	return rc;
}
