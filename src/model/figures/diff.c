/*
 * diff.c: see diff.h. A side owns copies of its names (an intern table
 * in its arena); each weight list has a second table whose ids are the
 * list's indexes, so adding to a leaf already met is a lookup. The diff
 * matches names with a table of the new side's names and points into
 * both sides.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/stackcap.h"
#include "base/vec.h"
#include "model/figures/diff.h"

#define KEY_MAX	(D9_STACK_MAX * 256u)	/* a site's frame names joined */

void
d9m_side_init(struct d9m_side *s)
{
	memset(s, 0, sizeof *s);
	d9_arena_init(&s->arena, 0);
	d9_intern_init(&s->names, &s->arena);
	for (int k = 0; k < 3; k++)
		d9_intern_init(&s->keys[k], &s->arena);
}

void
d9m_side_free(struct d9m_side *s)
{
	free(s->locs);
	free(s->cpu);
	free(s->off);
	free(s->sites);
	free(s->spans);
	d9_intern_free(&s->names);
	for (int k = 0; k < 3; k++)
		d9_intern_free(&s->keys[k]);
	d9_arena_free(&s->arena);
	memset(s, 0, sizeof *s);
}

static const char *
copy(struct d9m_side *s, const char *t)
{
	uint32_t id = d9_intern(&s->names, t, strlen(t));

	return id == D9_NONE ? NULL : d9_intern_str(&s->names, id, NULL);
}

/* Past the next n path components of p ('/' after each): where the
 * rest starts, or NULL when p has fewer. */
static const char *
past(const char *p, int n)
{
	while (n-- > 0)
		if ((p = strchr(p, '/')) == NULL || *++p == '\0')
			return NULL;
	return p;
}

const char *
d9m_loc_key(const char *name)
{
	static const struct {
		const char	*at;
		int		 skip;	/* components after it */
	} homes[] = {
		{ "/registry/src/", 1 },	/* INDEX-hash/ */
		{ "/git/checkouts/", 2 },	/* repo-hash/rev/ */
	};
	const char *at, *rest;

	for (size_t i = 0; i < sizeof homes / sizeof homes[0]; i++)
		if ((at = strstr(name, homes[i].at)) != NULL &&
		    (rest = past(at + strlen(homes[i].at), homes[i].skip)) !=
		    NULL)
			return rest;
	return name;
}

static int
add_pct(struct d9m_side *s, struct d9m_npct **v, size_t *n, size_t *cap,
    const char *name, const char *key, const struct d9m_pct *p)
{
	const char *c = copy(s, name), *k = copy(s, key);

	if (c == NULL || k == NULL || d9_grow(v, cap, *n + 1, sizeof **v) < 0)
		return -1;
	(*v)[*n].name = c;
	(*v)[*n].key = k;
	(*v)[(*n)++].v = *p;
	return 0;
}

int
d9m_side_loc(struct d9m_side *s, const char *name, const struct d9m_pct *v)
{
	return add_pct(s, &s->locs, &s->nlocs, &s->caplocs, name,
	    d9m_loc_key(name), v);
}

int
d9m_side_span(struct d9m_side *s, const char *name, const struct d9m_pct *v)
{
	return add_pct(s, &s->spans, &s->nspans, &s->capspans, name, name, v);
}

static struct d9m_nweight **
list(struct d9m_side *s, int which, size_t **n, size_t **cap)
{
	switch (which) {
	case D9M_SIDE_CPU: *n = &s->ncpu; *cap = &s->capcpu; return &s->cpu;
	case D9M_SIDE_OFF: *n = &s->noff; *cap = &s->capoff; return &s->off;
	default: *n = &s->nsites; *cap = &s->capsites; return &s->sites;
	}
}

const char *
d9m_unnamed_row(const char *name, char *buf, size_t cap)
{
	const char *rest;
	size_t h, len;

	if (strncmp(name, "[kernel] 0x", 11) == 0)
		return "[unnamed in the kernel]";
	if (name[0] != '0' || name[1] != 'x' ||
	    (h = strspn(name + 2, "0123456789abcdefABCDEF")) == 0)
		return NULL;
	rest = name + 2 + h;
	if (*rest == '\0')
		return "[unnamed]";
	len = strlen(rest);
	if (len < 4 || rest[0] != ' ' || rest[1] != '(' || rest[len - 1] != ')')
		return NULL;
	snprintf(buf, cap, "[unnamed in %.*s]", (int)(len - 3), rest + 2);
	return buf;
}

/* key (frames joined by newlines) with each unnamed frame's line its
 * row's (d9m_unnamed_row), into out (cap bytes; cut there). */
static const char *
site_key(const char *key, char *out, size_t cap)
{
	size_t k = 0;

	out[0] = '\0';
	for (const char *p = key; *p != '\0'; p += p[0] == '\n') {
		size_t len = strcspn(p, "\n");
		char line[D9M_ROW_MAX], row[D9M_ROW_MAX];
		const char *r = NULL;

		if (len < sizeof line) {	/* unnamed ones are short */
			memcpy(line, p, len);
			line[len] = '\0';
			r = d9m_unnamed_row(line, row, sizeof row);
		}
		if (r != NULL) {
			p += len;
			len = strlen(r);
		} else
			r = p, p += len;
		if (k + (k > 0) + len + 1 > cap)
			break;
		if (k > 0)
			out[k++] = '\n';
		memcpy(out + k, r, len);
		out[k += len] = '\0';
	}
	return out;
}

/* d9m_side_weight; with group, an unnamed frame (the leaf, and each
 * frame of a site's key) counts in its row (d9m_unnamed_row). */
static int
add_weight(struct d9m_side *s, int which, const char *name, const char *key,
    double w, int group)
{
	size_t *n, *cap;
	struct d9m_nweight **v = list(s, which, &n, &cap);
	uint32_t id;
	const char *cn, *ck, *u;
	char row[D9M_ROW_MAX], *skey = NULL;

	if (group && (u = d9m_unnamed_row(name, row, sizeof row)) != NULL)
		name = u;
	if (key == NULL || (group && which != D9M_SIDE_SITE))
		key = name;		/* a leaf's key is its name */
	else if (group && which == D9M_SIDE_SITE &&
	    (skey = malloc(KEY_MAX)) != NULL)
		key = site_key(key, skey, KEY_MAX);
	id = d9_intern(&s->keys[which], key, strlen(key));
	if (id != D9_NONE && id < *n)
		(*v)[id].w += w;
	else if (id == D9_NONE || (cn = copy(s, name)) == NULL ||
	    (ck = copy(s, key)) == NULL ||
	    d9_grow(v, cap, *n + 1, sizeof **v) < 0)
		id = D9_NONE;
	else {
		(*v)[*n].name = cn;
		(*v)[*n].key = ck;
		(*v)[(*n)++].w = w;
	}
	free(skey);
	return id == D9_NONE ? -1 : 0;
}

int
d9m_side_weight(struct d9m_side *s, int which, const char *name,
    const char *key, double w)
{
	return add_weight(s, which, name, key, w, 0);
}

/* The weights of s (leaves, sites) into g, unnamed frames in their rows:
 * what two runs compare. 0 or -1. */
static int
grouped(struct d9m_side *g, const struct d9m_side *s)
{
	for (int which = D9M_SIDE_CPU; which <= D9M_SIDE_SITE; which++) {
		size_t *n, *cap;
		struct d9m_nweight **v = list((struct d9m_side *)s, which, &n,
		    &cap);

		for (size_t i = 0; i < *n; i++)
			if (add_weight(g, which, (*v)[i].name, (*v)[i].key,
			    (*v)[i].w, 1) < 0)
				return -1;
	}
	g->cpu_total = s->cpu_total;
	g->off_total = s->off_total;
	return 0;
}

int
d9m_side_locs(struct d9m_side *s, const struct d9m_model *m,
    const struct d9m_analysis *a, int all)
{
	for (size_t i = 0; i < a->nlocs; i++) {
		const struct d9m_loc_fig *f = &a->locs[i];

		if ((all || f->poll.count > 0) && d9m_side_loc(s, f->loc == D9_NONE ?
		    "(unknown)" : d9m_str(m, f->loc), &f->poll) < 0)
			return -1;
	}
	s->long_polls = a->long_polls;
	s->sched = a->sched;
	return 0;
}

int
d9m_side_spans(struct d9m_side *s, const struct d9m_model *m,
    const struct d9m_spanset *ss)
{
	for (size_t i = 0; i < ss->nnames; i++)
		if (d9m_side_span(s, d9m_str(m, ss->names[i].name),
		    &ss->names[i].dur) < 0)
			return -1;
	return 0;
}

int
d9m_side_leaves(struct d9m_side *s, const struct d9m_model *m,
    const struct d9m_resolver *r, const struct d9m_analysis *a)
{
	struct d9m_frame *f = d9m_frames_alloc();
	int rc = -1;

	if (f == NULL)
		return -1;
	for (int off = 0; off < 2; off++) {
		const struct d9m_stack_group *g = off ? a->off_groups :
		    a->cpu_groups;
		size_t ng = off ? a->noff_groups : a->ncpu_groups;

		for (size_t i = 0; i < ng; i++) {
			size_t j = d9m_stack_leaf(m, r, g[i].seg, g[i].stack,
			    off, f);

			if (d9m_side_weight(s, off ? D9M_SIDE_OFF :
			    D9M_SIDE_CPU, j == SIZE_MAX ? "(no frames)" :
			    d9m_frame_name(&f[j]), NULL,
			    (double)g[i].count) < 0)
				goto out;
		}
	}
	s->cpu_total = (double)a->on_cpu;
	s->off_total = (double)a->off_in_poll;
	rc = 0;
out:
	free(f);
	return rc;
}

/* The sites of the memory figures: their frames joined by newlines. */
static int
sites(struct d9m_side *s, const struct d9m_model *m,
    const struct d9m_resolver *r, const struct d9m_memory *mem)
{
	struct d9m_frame *f = d9m_frames_alloc();
	char *key = malloc(KEY_MAX);
	int rc = -1;

	if (f == NULL || key == NULL)
		goto out;
	for (size_t i = 0; i < mem->nsites; i++) {
		size_t n = d9m_alloc_frames(m, r, mem->sites[i].seg,
		    mem->sites[i].stack, f, D9_STACK_MAX), k = 0;

		key[0] = '\0';
		for (size_t j = 0; j < n; j++) {
			const char *nm = d9m_frame_name(&f[j]);
			size_t len = strlen(nm);

			if (k + len + 2 > KEY_MAX)
				break;
			if (j)
				key[k++] = '\n';
			memcpy(key + k, nm, len + 1);
			k += len;
		}
		if (d9m_side_weight(s, D9M_SIDE_SITE, n ?
		    d9m_frame_name(&f[0]) : "(no frames)", key,
		    mem->sites[i].est_bytes) < 0)
			goto out;
	}
	rc = 0;
out:
	free(f);
	free(key);
	return rc;
}

int
d9m_side_of(struct d9m_side *s, const struct d9m_model *m,
    const struct d9m_resolver *r, const struct d9m_analysis *a)
{
	s->duration_ns = a->duration_ns;
	if (d9m_side_locs(s, m, a, 0) < 0 || d9m_side_leaves(s, m, r, a) < 0 ||
	    sites(s, m, r, &a->mem) < 0)
		return -1;
	for (size_t i = 0; i < a->nspans; i++)
		if (d9m_side_span(s, d9m_str(m, a->spans[i].name),
		    &a->spans[i].dur) < 0)
			return -1;
	return 0;
}

struct ranked {
	double		 w;
	const char	*name;
	size_t		 i;
};

static int
cmp_ranked(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;

	if (a->w != b->w)
		return a->w > b->w ? -1 : 1;
	return strcmp(a->name, b->name);
}

size_t *
d9m_side_order(const struct d9m_side *s, int which)
{
	size_t *n, *cap, *out;
	struct d9m_nweight **v = list((struct d9m_side *)s, which, &n, &cap);
	struct ranked *r = malloc((*n + 1) * sizeof *r);

	out = malloc((*n + 1) * sizeof *out);
	if (r == NULL || out == NULL || *n == 0) {
		free(r);
		free(out);
		return NULL;
	}
	for (size_t i = 0; i < *n; i++)
		r[i] = (struct ranked){ (*v)[i].w, (*v)[i].key, i };
	qsort(r, *n, sizeof *r, cmp_ranked);
	for (size_t i = 0; i < *n; i++)
		out[i] = r[i].i;
	free(r);
	return out;
}

/* ---- the diff ---- */

int64_t
d9m_delta(uint64_t new, uint64_t old)
{
	if (new >= old)
		return new - old > INT64_MAX ? INT64_MAX : (int64_t)(new - old);
	return old - new > INT64_MAX ? -INT64_MAX : -(int64_t)(old - new);
}

int64_t
d9m_dpct_change(const struct d9m_dpct *r)
{
	return d9m_delta(r->new ? r->new->p99 : 0, r->old ? r->old->p99 : 0);
}

/* New-only first (by p99), then by the increase of p99, old-only last. */
static int
cmp_dpct(const void *x, const void *y)
{
	const struct d9m_dpct *a = x, *b = y;
	int ca = a->old == NULL ? 0 : a->new == NULL ? 2 : 1;
	int cb = b->old == NULL ? 0 : b->new == NULL ? 2 : 1;
	int64_t da = d9m_dpct_change(a), db = d9m_dpct_change(b);

	if (ca != cb)
		return ca - cb;
	if (ca == 2) {
		da = -da;	/* the largest old p99 first */
		db = -db;
	}
	if (da != db)
		return da > db ? -1 : 1;
	return strcmp(a->name, b->name);
}

static int
cmp_dweight(const void *x, const void *y)
{
	const struct d9m_dweight *a = x, *b = y;
	double da = a->new - a->old, db = b->new - b->old;

	if (da != db)
		return da > db ? -1 : 1;
	return strcmp(a->key, b->key);
}

/* The name at offset off of element i of an array of stride bytes. */
static const char *
key_at(const void *v, size_t i, size_t stride, size_t off)
{
	const char *const *k = (const void *)((const char *)v + i * stride +
	    off);

	return *k;
}

/* One key of either side: its index in each, SIZE_MAX where absent. */
struct pair {
	size_t	o, n;
};

/* The keys of two arrays of one element type (the key at offset off),
 * new's in order, then old's not in new; *np of them, malloc'd. */
static struct pair *
pairs(const void *o, size_t no, const void *n, size_t nn, size_t stride,
    size_t off, size_t *np)
{
	struct d9_arena ar;
	struct d9_intern t;
	size_t *at = malloc((no + 1) * sizeof *at), k = 0;
	uint8_t *used = calloc(no + 1, 1);
	struct pair *p = malloc((no + nn + 1) * sizeof *p);

	d9_arena_init(&ar, 0);
	d9_intern_init(&t, &ar);
	if (at == NULL || used == NULL || p == NULL)
		goto fail;
	for (size_t j = 0; j < no; j++) {
		const char *key = key_at(o, j, stride, off);
		uint32_t id = d9_intern(&t, key, strlen(key));

		if (id == D9_NONE)
			goto fail;
		if (id == t.n - 1)
			at[id] = j;	/* the first of a repeated name */
	}
	for (size_t i = 0; i < nn; i++) {
		const char *key = key_at(n, i, stride, off);
		uint32_t id = d9_intern_find(&t, key, strlen(key));

		p[k].n = i;
		p[k++].o = id == D9_NONE ? SIZE_MAX : at[id];
		if (id != D9_NONE)
			used[at[id]] = 1;
	}
	for (size_t j = 0; j < no; j++)
		if (!used[j])
			p[k++] = (struct pair){ j, SIZE_MAX };
	*np = k;
	goto out;
fail:
	free(p);
	p = NULL;
out:
	free(at);
	free(used);
	d9_intern_free(&t);
	d9_arena_free(&ar);
	return p;
}

static double
total(const struct d9m_npct *v, size_t n)
{
	double t = 0;

	for (size_t i = 0; i < n; i++)
		t += (double)v[i].v.count;
	return t;
}

static int
diff_pct(const struct d9m_npct *o, size_t no, const struct d9m_npct *n,
    size_t nn, struct d9m_dpct **out, size_t *nout)
{
	double to = total(o, no), tn = total(n, nn);
	struct pair *p = pairs(o, no, n, nn, sizeof *o,
	    offsetof(struct d9m_npct, key), nout);
	struct d9m_dpct *r = p ? calloc(*nout + 1, sizeof *r) : NULL;

	for (size_t k = 0; r != NULL && k < *nout; k++) {
		const struct d9m_npct *x = p[k].o != SIZE_MAX ? &o[p[k].o] :
		    NULL, *y = p[k].n != SIZE_MAX ? &n[p[k].n] : NULL;

		r[k].name = y ? y->name : x->name;
		r[k].old = x ? &x->v : NULL;
		r[k].new = y ? &y->v : NULL;
		r[k].iold = p[k].o;
		r[k].inew = p[k].n;
		r[k].old_share = x && to > 0 ? (double)x->v.count / to : 0;
		r[k].new_share = y && tn > 0 ? (double)y->v.count / tn : 0;
	}
	free(p);
	if (r != NULL)
		qsort(r, *nout, sizeof *r, cmp_dpct);
	*out = r;
	return r != NULL ? 0 : -1;
}

/* Weights compared as shares of their totals (0: as they are). */
static int
diff_weight(const struct d9m_nweight *o, size_t no, double to,
    const struct d9m_nweight *n, size_t nn, double tn,
    struct d9m_dweight **out, size_t *nout)
{
	double so = to > 0 ? 1 / to : 1, sn = tn > 0 ? 1 / tn : 1;
	struct pair *p = pairs(o, no, n, nn, sizeof *o,
	    offsetof(struct d9m_nweight, key), nout);
	struct d9m_dweight *r = p ? calloc(*nout + 1, sizeof *r) : NULL;

	for (size_t k = 0; r != NULL && k < *nout; k++) {
		const struct d9m_nweight *x = p[k].o != SIZE_MAX ? &o[p[k].o] :
		    NULL, *y = p[k].n != SIZE_MAX ? &n[p[k].n] : NULL;

		r[k].name = y ? y->name : x->name;
		r[k].key = y ? y->key : x->key;
		r[k].old = x ? x->w * so : 0;
		r[k].new = y ? y->w * sn : 0;
	}
	free(p);
	if (r != NULL)
		qsort(r, *nout, sizeof *r, cmp_dweight);
	*out = r;
	return r != NULL ? 0 : -1;
}

double
d9m_per_sec(double n, uint64_t dur_ns)
{
	return dur_ns > 0 ? n * 1e9 / (double)dur_ns : 0;
}

static int
cmp_rate(const void *x, const void *y)
{
	const struct d9m_dweight *a = x, *b = y;
	double da = a->new_rate - a->old_rate, db = b->new_rate - b->old_rate;

	if (da != db)
		return da > db ? -1 : 1;
	return strcmp(a->key, b->key);
}

/* Rates of the sites; by their change when the runs are unequal. */
static void
site_rates(struct d9m_diff *d)
{
	for (size_t i = 0; i < d->nsites; i++) {
		d->sites[i].old_rate = d9m_per_sec(d->sites[i].old, d->dur_old);
		d->sites[i].new_rate = d9m_per_sec(d->sites[i].new, d->dur_new);
	}
	if (d->unequal)
		qsort(d->sites, d->nsites, sizeof *d->sites, cmp_rate);
}

int
d9m_diff(const struct d9m_side *old_side, const struct d9m_side *new_side,
    struct d9m_diff *d)
{
	const struct d9m_side *o = old_side, *n = new_side;

	memset(d, 0, sizeof *d);
	d->dur_old = o->duration_ns;
	d->dur_new = n->duration_ns;
	d->unequal = d->dur_old > 0 && d->dur_new > 0 &&
	    fabs((double)d->dur_old - (double)d->dur_new) >
	    0.1 * (double)(d->dur_old > d->dur_new ? d->dur_old : d->dur_new);
	d->long_old = o->long_polls;
	d->long_new = n->long_polls;
	d->long_old_rate = d9m_per_sec((double)o->long_polls, d->dur_old);
	d->long_new_rate = d9m_per_sec((double)n->long_polls, d->dur_new);
	d->sched_old = o->sched;
	d->sched_new = n->sched;
	if ((d->grouped = calloc(2, sizeof *d->grouped)) == NULL)
		return -1;
	d9m_side_init(&d->grouped[0]);
	d9m_side_init(&d->grouped[1]);
	if (grouped(&d->grouped[0], o) < 0 || grouped(&d->grouped[1], n) < 0) {
		d9m_diff_free(d);
		return -1;
	}
	o = &d->grouped[0];	/* their weights; the rest is the sides' */
	n = &d->grouped[1];
	if (diff_pct(old_side->locs, old_side->nlocs, new_side->locs,
	    new_side->nlocs, &d->locs, &d->nlocs) < 0 ||
	    diff_pct(old_side->spans, old_side->nspans, new_side->spans,
	    new_side->nspans, &d->spans, &d->nspans) < 0 ||
	    diff_weight(o->cpu, o->ncpu, o->cpu_total, n->cpu, n->ncpu,
	    n->cpu_total, &d->cpu, &d->ncpu) < 0 ||
	    diff_weight(o->off, o->noff, o->off_total, n->off, n->noff,
	    n->off_total, &d->off, &d->noff) < 0 ||
	    diff_weight(o->sites, o->nsites, 0, n->sites, n->nsites, 0,
	    &d->sites, &d->nsites) < 0) {
		d9m_diff_free(d);
		return -1;
	}
	site_rates(d);
	return 0;
}

void
d9m_diff_free(struct d9m_diff *d)
{
	free(d->locs);
	free(d->spans);
	free(d->cpu);
	free(d->off);
	free(d->sites);
	if (d->grouped != NULL) {
		d9m_side_free(&d->grouped[0]);
		d9m_side_free(&d->grouped[1]);
		free(d->grouped);
	}
	memset(d, 0, sizeof *d);
}
