/*
 * folded.c: --folded. One line per distinct stack, root first, frames
 * joined by ';', then a space and the weight: what flamegraph.pl and
 * inferno-flamegraph read. cpu: on-CPU samples; offcpu: context-switch
 * samples; alloc: sampled allocations weighted by estimated bytes, the
 * allocator hook frames removed.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/stackcap.h"
#include "output/output.h"
#include "base/text.h"
#include "model/flame.h"
#include "model/samples.h"

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

static void
put_stack(FILE *f, const struct d9m_frame *fr, size_t n)
{
	for (size_t i = n; i-- > 0; ) {
		put_name(f, d9m_frame_name(&fr[i]));
		if (i > 0)
			putc(';', f);
	}
}

int
d9o_folded_tree(FILE *f, const struct d9m_flame *t)
{
	uint32_t *path = malloc((t->n + 1) * sizeof *path);

	if (path == NULL)
		return -1;
	/* each node's own weight (what its children do not hold) is a line:
	 * its path, root first (for an inverted tree, the leaf's callers
	 * reversed back into call order) */
	for (uint32_t i = 1; i < t->n; i++) {
		const struct d9m_fnode *nd = &t->nodes[i];
		double self = nd->w;
		size_t np = 0;

		for (uint32_t k = 0; k < nd->nkids; k++)
			self -= t->nodes[t->kids[nd->kid0 + k]].w;
		if (self < 0.5)
			continue;
		for (uint32_t p = i; p != 0; p = t->nodes[p].parent)
			path[np++] = p;
		for (size_t k = 0; k < np; k++) {
			size_t at = t->req.invert ? k : np - 1 - k;

			put_name(f, d9m_flame_name(t, path[at]));
			putc(k + 1 < np ? ';' : ' ', f);
		}
		fprintf(f, "%.0f\n", self);
	}
	free(path);
	return 0;
}

int
d9o_folded(const struct d9o_out *o, const char *kind,
    const struct d9m_window *w)
{
	const struct d9m_model *m = o->m;
	struct d9m_frame *fr = d9m_frames_alloc();
	int alloc = strcmp(kind, "alloc") == 0;
	int off = strcmp(kind, "offcpu") == 0;

	if (fr == NULL)
		return -1;
	if (!alloc && !off && strcmp(kind, "cpu") != 0) {
		free(fr);
		return -1;
	}
	if (alloc) {
		const struct d9m_memory *mem = &o->a->mem;

		for (size_t i = 0; i < mem->nsites; i++) {
			size_t n = d9m_alloc_frames(m, o->r, mem->sites[i].seg,
			    mem->sites[i].stack, fr, D9_STACK_MAX);

			if (n == 0)
				continue;
			put_stack(o->f, fr, n);
			fprintf(o->f, " %" PRIu64 "\n",
			    (uint64_t)llround(mem->sites[i].est_bytes));
		}
	} else {
		struct d9m_stack_group *g;
		uint32_t *rows = malloc((m->cpu.n ? m->cpu.n : 1) *
		    sizeof *rows);
		size_t n = 0, ng;

		if (rows == NULL) {
			free(fr);
			return -1;
		}
		for (size_t i = 0; i < m->cpu.n; i++)
			if (d9m_in_window(w, m->cpu.ts[i]) &&
			    d9m_cpu_class(m, i) == (off ? D9M_OFF_CPU :
			    D9M_ON_CPU))
				rows[n++] = (uint32_t)i;
		if (d9m_group_stacks(m, o->r, rows, n, &g, &ng) == 0) {
			for (size_t i = 0; i < ng; i++) {
				size_t nf = d9m_stack_frames(m, o->r, g[i].seg,
				    g[i].stack, fr, D9_STACK_MAX);

				if (nf == 0)
					continue;
				put_stack(o->f, fr, nf);
				fprintf(o->f, " %zu\n", g[i].count);
			}
			free(g);
		}
		free(rows);
	}
	free(fr);
	return 0;
}
