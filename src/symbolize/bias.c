/*
 * bias.c: load-bias inference (bias.h). The trace's distinct names are
 * interned first, so each ELF symbol costs one demangling and one hash
 * probe; a name that several symbols carry at different addresses (Rust
 * generics, static functions of the same name) is ambiguous and skipped.
 */
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/intern.h"
#include "base/vec.h"
#include "model/core/model.h"
#include "symbolize/bias.h"
#include "base/demangle.h"
#include "symbolize/elfsyms.h"

#define MAX_CANDIDATES	16	/* larger functions say too little */

enum { FN_NONE, FN_ONE, FN_AMBIGUOUS };

struct fn {
	uint64_t	start, size;
	int		state;
};

struct obs {
	uint32_t	seg, name;
	uint64_t	addr;
};

struct vote {
	uint32_t	seg;
	uint64_t	bias;
};

struct ctx {
	struct d9_arena	 arena;
	struct d9_intern names;
	struct fn	*fn;
	size_t		 nfn, fncap;
	struct obs	*obs;
	size_t		 nobs, obscap;
	struct vote	*votes;
	size_t		 nvotes, votecap;
};

/* Length of s without a Rust legacy hash suffix "::h" + 16 hex digits. */
static size_t
name_len(const char *s)
{
	size_t n = strlen(s);

	if (n > 19 && memcmp(s + n - 19, "::h", 3) == 0 &&
	    strspn(s + n - 16, "0123456789abcdef") == 16)
		return n - 19;
	return n;
}

static int
is_placeholder(const char *s)
{
	return *s == '\0' || *s == '[' || strncmp(s, "0x", 2) == 0;
}

/* The depth-0 names of the trace (one per segment and address). */
static int
collect(struct ctx *c, const struct d9m_model *m, const uint8_t *skip)
{
	const struct d9m_symbols *t = &m->symbols;

	for (size_t i = 0; i < t->n; i++) {
		const char *name;
		uint32_t id;

		if (t->depth[i] != 0 || t->addr[i] >> 63 ||
		    t->name[i] == D9_NONE ||
		    (t->seg[i] < m->segs.n && skip != NULL && skip[t->seg[i]]))
			continue;
		if (c->nobs > 0 && c->obs[c->nobs - 1].seg == t->seg[i] &&
		    c->obs[c->nobs - 1].addr == t->addr[i])
			continue;	/* a repeated definition */
		name = d9m_str(m, t->name[i]);
		if (is_placeholder(name))
			continue;
		id = d9_intern(&c->names, name, name_len(name));
		if (id == D9_NONE || d9_grow(&c->obs, &c->obscap, c->nobs + 1,
		    sizeof *c->obs) == -1)
			return -1;
		c->obs[c->nobs].seg = t->seg[i];
		c->obs[c->nobs].name = id;
		c->obs[c->nobs++].addr = t->addr[i];
	}
	if (d9_grow(&c->fn, &c->fncap, c->names.n + 1, sizeof *c->fn) == -1)
		return -1;
	c->nfn = c->names.n;
	memset(c->fn, 0, c->nfn * sizeof *c->fn);
	return 0;
}

static uint32_t
find_name(const struct ctx *c, const char *s)
{
	return d9_intern_find(&c->names, s, name_len(s));
}

/* Pair each trace name with the one symbol carrying it. */
static void
match_symbols(struct ctx *c, const struct d9s_elfsyms *syms)
{
	for (size_t i = 0; i < syms->n; i++) {
		const struct d9s_elfsym *s = &syms->sym[i];
		const char *raw = s->name;
		char *dem = NULL;
		uint32_t id;
		struct fn *f;

		if (raw == NULL || *raw == '\0')
			continue;
		/* only mangled names need the demangler */
		if (strstr(raw, "_Z") != NULL || strstr(raw, "_R") != NULL)
			dem = d9_demangle(raw);
		id = dem != NULL ? find_name(c, dem) : D9_NONE;
		if (id == D9_NONE)
			id = find_name(c, raw);
		free(dem);
		if (id == D9_NONE)
			continue;
		f = &c->fn[id];
		if (f->state == FN_NONE) {
			f->state = FN_ONE;
			f->start = s->addr;
			f->size = s->size;
		} else if (f->state == FN_ONE && f->start != s->addr)
			f->state = FN_AMBIGUOUS;
		else if (f->state == FN_ONE && s->size > f->size)
			f->size = s->size;	/* an alias, larger */
	}
}

/* Range [*lo, *hi] of biases the observation allows; 0 if none. */
static int
bias_range(const struct fn *f, uint64_t addr, uint64_t *lo, uint64_t *hi)
{
	uint64_t size = f->size ? f->size : 1;

	if (f->state != FN_ONE || addr < f->start)
		return 0;
	*hi = addr - f->start;
	*lo = *hi >= size - 1 ? *hi - (size - 1) : 0;
	return 1;
}

static int
add_votes(struct ctx *c)
{
	for (size_t i = 0; i < c->nobs; i++) {
		const struct obs *o = &c->obs[i];
		uint64_t lo, hi, b;

		if (!bias_range(&c->fn[o->name], o->addr, &lo, &hi))
			continue;
		b = (lo + D9S_BIAS_PAGE - 1) & ~(uint64_t)(D9S_BIAS_PAGE - 1);
		if (b < lo || b > hi ||
		    (hi - b) / D9S_BIAS_PAGE >= MAX_CANDIDATES)
			continue;
		for (; b <= hi && b >= lo; b += D9S_BIAS_PAGE) {
			if (d9_grow(&c->votes, &c->votecap, c->nvotes + 1,
			    sizeof *c->votes) == -1)
				return -1;
			c->votes[c->nvotes].seg = o->seg;
			c->votes[c->nvotes++].bias = b;
		}
	}
	return 0;
}

static int
cmp_seg_bias(const void *a, const void *b)
{
	const struct vote *x = a, *y = b;

	if (x->seg != y->seg)
		return x->seg < y->seg ? -1 : 1;
	return x->bias < y->bias ? -1 : x->bias > y->bias;
}

static int
cmp_bias(const void *a, const void *b)
{
	const struct vote *x = a, *y = b;

	return x->bias < y->bias ? -1 : x->bias > y->bias;
}

/* The most voted bias of v[0, n) (sorted by bias within): ties go to
 * the lowest. */
static uint64_t
winner(const struct vote *v, size_t n)
{
	uint64_t best = 0;
	size_t bestn = 0;

	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && v[j].bias == v[i].bias; j++)
			;
		if (j - i > bestn) {
			bestn = j - i;
			best = v[i].bias;
		}
	}
	return best;
}

static void
judge(struct d9s_bias *b)
{
	b->ok = b->agree >= D9S_BIAS_MIN_AGREE &&
	    b->agree * 10 >= b->matches * 9;
}

int
d9s_bias_infer(const struct d9m_model *m, const struct d9s_elfsyms *syms,
    const uint8_t *skip, struct d9s_bias *per_seg, struct d9s_bias *all,
    struct d9_err *e)
{
	struct ctx c;
	int rc = -1;

	memset(&c, 0, sizeof c);
	memset(all, 0, sizeof *all);
	memset(per_seg, 0, m->segs.n * sizeof *per_seg);
	d9_arena_init(&c.arena, 0);
	d9_intern_init(&c.names, &c.arena);
	if (collect(&c, m, skip) < 0)
		goto out;
	match_symbols(&c, syms);
	if (add_votes(&c) < 0)
		goto out;
	if (c.nvotes > 1)	/* c.votes is NULL when there are none */
		qsort(c.votes, c.nvotes, sizeof *c.votes, cmp_seg_bias);
	for (size_t i = 0, j; i < c.nvotes; i = j) {
		for (j = i; j < c.nvotes && c.votes[j].seg == c.votes[i].seg;
		    j++)
			;
		if (c.votes[i].seg < m->segs.n)
			per_seg[c.votes[i].seg].bias = winner(c.votes + i,
			    j - i);
	}
	if (c.nvotes > 1)
		qsort(c.votes, c.nvotes, sizeof *c.votes, cmp_bias);
	all->bias = winner(c.votes, c.nvotes);
	for (size_t i = 0; i < c.nobs; i++) {
		const struct obs *o = &c.obs[i];
		struct d9s_bias *s = o->seg < m->segs.n ? &per_seg[o->seg] :
		    NULL;
		uint64_t lo, hi;

		if (!bias_range(&c.fn[o->name], o->addr, &lo, &hi))
			continue;
		all->matches++;
		all->agree += all->bias >= lo && all->bias <= hi;
		if (s != NULL) {
			s->matches++;
			s->agree += s->bias >= lo && s->bias <= hi;
		}
	}
	judge(all);
	for (size_t i = 0; i < m->segs.n; i++)
		judge(&per_seg[i]);
	rc = 0;
out:
	if (rc != 0)
		d9_err_set(e, D9_ERR_NOMEM, 0, "load bias inference");
	d9_intern_free(&c.names);
	d9_arena_free(&c.arena);
	free(c.fn);
	free(c.obs);
	free(c.votes);
	return rc;
}
