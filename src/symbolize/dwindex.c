/*
 * dwindex.c: building, packing, checking and searching the flat DWARF
 * index (dwindex.h). Nothing here calls libdwarf: this is the part of
 * the symbolizer that stays in d9top's own process when the DWARF of a
 * binary is read in a child.
 *
 * Like binutils, the function picked for an address is the smallest range
 * containing it (nested functions), ties going to the later DIE (the
 * larger root node: nodes are numbered in DIE order).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "base/vec.h"
#include "symbolize/dwindex.h"
#include "symbolize/search.h"

#define D9S_IX_MAGIC	0x78693964u	/* "d9ix" */
#define D9S_IX_VERSION	1u
#define D9S_IX_DEPTH	66		/* inline levels followed */

struct ixhead {
	uint32_t	magic, version;
	uint64_t	count[D9S_IX_NTAB];
	uint64_t	cus, dies, funcs, rows, errors;
};

static const size_t ix_elem[D9S_IX_NTAB] = {
	[D9S_IX_FUNC] = sizeof(struct d9s_ix_func),
	[D9S_IX_SPAN] = sizeof(struct d9s_ix_span),
	[D9S_IX_CU] = sizeof(struct d9s_ix_cu),
	[D9S_IX_ROW] = sizeof(struct d9s_ix_row),
	[D9S_IX_FILE] = sizeof(uint32_t),
	[D9S_IX_NODE] = sizeof(struct d9s_ix_node),
	[D9S_IX_RANGE] = sizeof(struct d9s_ix_range),
	[D9S_IX_STR] = 1,
};

struct d9s_dwarf {
	void				*buf;
	const struct d9s_ix_func	*fn;
	const struct d9s_ix_span	*span;
	const struct d9s_ix_cu		*cu;
	const struct d9s_ix_row		*row;
	const uint32_t			*file;
	const struct d9s_ix_node	*node;
	const struct d9s_ix_range	*range;
	const char			*str;
	size_t				 n[D9S_IX_NTAB];
	struct d9s_dwarf_stats		 stats;
};

/* ---- building ---- */

void
d9s_ixb_free(struct d9s_ixb *b)
{
	for (int t = 0; t < D9S_IX_NTAB; t++)
		free(b->tab[t]);
	memset(b, 0, sizeof *b);
}

void *
d9s_ixb_add(struct d9s_ixb *b, enum d9s_ix_table t, size_t k)
{
	void *p;

	/* room for one more even when k is 0: never a NULL table */
	if (k > UINT32_MAX - 1 - b->n[t] ||
	    d9_grow(&b->tab[t], &b->cap[t], b->n[t] + k + 1, ix_elem[t]) == -1)
		return NULL;
	p = (char *)b->tab[t] + b->n[t] * ix_elem[t];
	memset(p, 0, k * ix_elem[t]);
	b->n[t] += k;
	return p;
}

uint32_t
d9s_ixb_str(struct d9s_ixb *b, const char *s, size_t len)
{
	size_t off = b->n[D9S_IX_STR];
	char *p;

	if (len >= UINT32_MAX || (p = d9s_ixb_add(b, D9S_IX_STR, len + 1)) ==
	    NULL)
		return D9S_IX_NONE;
	if (len > 0)
		memcpy(p, s, len);
	p[len] = '\0';
	return (uint32_t)off;
}

static size_t
align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

int
d9s_ixb_pack(const struct d9s_ixb *b, const struct d9s_dwarf_stats *st,
    void **out, size_t *len)
{
	struct ixhead h;
	size_t off[D9S_IX_NTAB], size = sizeof h;
	char *p;

	memset(&h, 0, sizeof h);
	h.magic = D9S_IX_MAGIC;
	h.version = D9S_IX_VERSION;
	for (int t = 0; t < D9S_IX_NTAB; t++) {
		h.count[t] = b->n[t];
		off[t] = size;
		size = align8(size + b->n[t] * ix_elem[t]);
	}
	h.cus = st->cus;
	h.dies = st->dies;
	h.funcs = st->funcs;
	h.rows = st->rows;
	h.errors = st->errors;
	if ((p = calloc(1, size)) == NULL)
		return -1;
	memcpy(p, &h, sizeof h);
	for (int t = 0; t < D9S_IX_NTAB; t++)
		if (b->n[t] > 0)
			memcpy(p + off[t], b->tab[t], b->n[t] * ix_elem[t]);
	*out = p;
	*len = size;
	return 0;
}

/* ---- checking a buffer ---- */

/* Table offsets from the header's counts; -1 when they do not add up to
 * exactly len bytes. */
static int
layout(const struct ixhead *h, size_t len, size_t off[D9S_IX_NTAB])
{
	size_t size = sizeof *h;

	for (int t = 0; t < D9S_IX_NTAB; t++) {
		if (h->count[t] > UINT32_MAX ||
		    h->count[t] > (len - size) / ix_elem[t])
			return -1;
		off[t] = size;
		size = align8(size + (size_t)h->count[t] * ix_elem[t]);
		if (size > len)
			return -1;
	}
	return size == len ? 0 : -1;
}

static int
in_slice(uint32_t first, uint32_t n, size_t total)
{
	return first <= total && n <= total - first;
}

static int
str_ok(const struct d9s_dwarf *d, uint32_t off)
{
	return off == D9S_IX_NONE || off < d->n[D9S_IX_STR];
}

/* Every reference points into its table; strings end in a NUL. */
static int
check(const struct d9s_dwarf *d)
{
	const size_t *n = d->n;
	size_t i;

	if (n[D9S_IX_STR] > 0 && d->str[n[D9S_IX_STR] - 1] != '\0')
		return -1;
	for (i = 0; i < n[D9S_IX_FUNC]; i++)
		if (d->fn[i].cu >= n[D9S_IX_CU] ||
		    d->fn[i].node >= n[D9S_IX_NODE])
			return -1;
	for (i = 0; i < n[D9S_IX_SPAN]; i++)
		if (d->span[i].cu >= n[D9S_IX_CU])
			return -1;
	for (i = 0; i < n[D9S_IX_CU]; i++)
		if (!in_slice(d->cu[i].row, d->cu[i].nrow, n[D9S_IX_ROW]) ||
		    !in_slice(d->cu[i].file, d->cu[i].nfile, n[D9S_IX_FILE]))
			return -1;
	for (i = 0; i < n[D9S_IX_FILE]; i++)
		if (!str_ok(d, d->file[i]))
			return -1;
	for (i = 0; i < n[D9S_IX_NODE]; i++)
		if (!str_ok(d, d->node[i].name) ||
		    !in_slice(d->node[i].first, d->node[i].n, n[D9S_IX_RANGE]))
			return -1;
	for (i = 0; i < n[D9S_IX_RANGE]; i++)
		if (d->range[i].node >= n[D9S_IX_NODE])
			return -1;
	return 0;
}

int
d9s_dwindex_load(struct d9s_dwarf **out, void *buf, size_t len,
    struct d9_err *e)
{
	struct d9s_dwarf *d;
	struct ixhead h;
	size_t off[D9S_IX_NTAB];
	const char *p = buf;

	*out = NULL;
	if (len < sizeof h) {
		free(buf);
		return d9_err_set(e, D9_ERR_BAD_VALUE, 0,
		    "DWARF index: %zu bytes, too short", len);
	}
	memcpy(&h, buf, sizeof h);
	if (h.magic != D9S_IX_MAGIC || h.version != D9S_IX_VERSION ||
	    layout(&h, len, off) != 0) {
		free(buf);
		return d9_err_set(e, D9_ERR_BAD_VALUE, 0,
		    "DWARF index: bad header");
	}
	if ((d = calloc(1, sizeof *d)) == NULL) {
		free(buf);
		return d9_err_set(e, D9_ERR_NOMEM, 0, "DWARF index");
	}
	d->buf = buf;
	for (int t = 0; t < D9S_IX_NTAB; t++)
		d->n[t] = (size_t)h.count[t];
	d->fn = (const void *)(p + off[D9S_IX_FUNC]);
	d->span = (const void *)(p + off[D9S_IX_SPAN]);
	d->cu = (const void *)(p + off[D9S_IX_CU]);
	d->row = (const void *)(p + off[D9S_IX_ROW]);
	d->file = (const void *)(p + off[D9S_IX_FILE]);
	d->node = (const void *)(p + off[D9S_IX_NODE]);
	d->range = (const void *)(p + off[D9S_IX_RANGE]);
	d->str = p + off[D9S_IX_STR];
	d->stats.cus = (size_t)h.cus;
	d->stats.dies = (size_t)h.dies;
	d->stats.funcs = (size_t)h.funcs;
	d->stats.rows = (size_t)h.rows;
	d->stats.errors = (size_t)h.errors;
	if (check(d) != 0) {
		d9s_dwarf_free(&d);
		return d9_err_set(e, D9_ERR_BAD_VALUE, 0,
		    "DWARF index: a reference points outside its table");
	}
	*out = d;
	return 0;
}

void
d9s_dwarf_free(struct d9s_dwarf **dp)
{
	if (*dp == NULL)
		return;
	free((*dp)->buf);
	free(*dp);
	*dp = NULL;
}

void
d9s_dwarf_stats(const struct d9s_dwarf *d, struct d9s_dwarf_stats *st)
{
	*st = d->stats;
}

size_t
d9s_dwarf_size(const struct d9s_dwarf *d)
{
	size_t size = sizeof(struct ixhead);

	for (int t = 0; t < D9S_IX_NTAB; t++)
		size = align8(size + d->n[t] * ix_elem[t]);
	return size;
}

/* ---- lookups ---- */

/* Index of the smallest function range holding addr, or -1. */
static ssize_t
find_func(const struct d9s_dwarf *d, uint64_t addr)
{
	const struct d9s_ix_func *fn = d->fn;
	size_t i = d9s_upper_bound(fn, d->n[D9S_IX_FUNC], sizeof *fn, addr);
	ssize_t best = -1;

	for (; i > 0 && fn[i - 1].maxhi > addr; i--) {
		const struct d9s_ix_func *f = &fn[i - 1], *b;

		if (addr >= f->hi)
			continue;
		b = best >= 0 ? &fn[best] : NULL;
		if (b == NULL || f->hi - f->lo < b->hi - b->lo ||
		    (f->hi - f->lo == b->hi - b->lo && f->node > b->node))
			best = (ssize_t)(i - 1);
	}
	return best;
}

/* CU holding addr (no function does), or -1. */
static ssize_t
find_span_cu(const struct d9s_dwarf *d, uint64_t addr)
{
	size_t end = d9s_upper_bound(d->span, d->n[D9S_IX_SPAN],
	    sizeof *d->span, addr);
	size_t i;

	/* spans of one binary rarely overlap; look back a little */
	for (i = end; i > 0 && end - i < 16; i--)
		if (addr < d->span[i - 1].hi)
			return d->span[i - 1].cu;
	return -1;
}

/* The row of c holding addr: upper bound minus one, none past the end
 * of a sequence. */
static const struct d9s_ix_row *
find_row(const struct d9s_dwarf *d, const struct d9s_ix_cu *c,
    uint64_t addr)
{
	const struct d9s_ix_row *r = d->row + c->row;
	size_t i = d9s_upper_bound(r, c->nrow, sizeof *r, addr);

	if (i == 0 || r[i - 1].end)
		return NULL;
	return &r[i - 1];
}

static const char *
str_at(const struct d9s_dwarf *d, uint32_t off)
{
	return off == D9S_IX_NONE ? NULL : d->str + off;
}

static const char *
file_of(const struct d9s_dwarf *d, const struct d9s_ix_cu *c,
    uint32_t fileno)
{
	if (fileno >= c->nfile)
		return NULL;
	return str_at(d, d->file[c->file + fileno]);
}

/* Node indexes of the inline chain of root holding addr, innermost
 * first, ending with root; how many (at most cap, the innermost kept). */
static size_t
chain_of(const struct d9s_dwarf *d, uint32_t root, uint64_t addr,
    uint32_t *out, size_t cap)
{
	uint32_t chain[D9S_IX_DEPTH];
	size_t depth = 0, i, n;
	uint32_t cur = root;

	chain[depth++] = root;
	while (depth < D9S_IX_DEPTH) {
		const struct d9s_ix_node *nd = &d->node[cur];
		const struct d9s_ix_range *r = d->range + nd->first;
		size_t k = d9s_upper_bound(r, nd->n, sizeof *r, addr), back;

		/* siblings do not overlap; allow a little slack anyway */
		for (back = 0; k > 0 && back < 4; k--, back++)
			if (addr < r[k - 1].hi)
				break;
		if (k == 0 || back == 4 || addr >= r[k - 1].hi)
			break;
		cur = r[k - 1].node;
		chain[depth++] = cur;
	}
	n = depth < cap ? depth : cap;
	for (i = 0; i < n; i++)
		out[i] = chain[depth - 1 - i];
	return n;
}

int
d9s_dwarf_lookup(struct d9s_dwarf *d, uint64_t addr, struct d9s_frame *frames,
    size_t cap, struct d9_err *e)
{
	uint32_t chain[D9S_MAX_FRAMES];
	const struct d9s_ix_row *row;
	const struct d9s_ix_cu *c;
	ssize_t fi, cu;
	size_t n, i;

	(void)e;
	if (cap == 0)
		return 0;
	fi = find_func(d, addr);
	cu = fi >= 0 ? (ssize_t)d->fn[fi].cu : find_span_cu(d, addr);
	if (cu < 0)
		return 0;
	c = &d->cu[cu];
	row = find_row(d, c, addr);
	memset(&frames[0], 0, sizeof frames[0]);
	if (row != NULL) {
		frames[0].file = file_of(d, c, row->file);
		frames[0].line = row->line;
		frames[0].discriminator = row->disc;
	}
	frames[0].flags = fi < 0 ? D9S_FRAME_NOFUNC : 0;
	if (fi < 0)
		return row != NULL;
	n = chain_of(d, d->fn[fi].node, addr, chain, cap < D9S_MAX_FRAMES ?
	    cap : D9S_MAX_FRAMES);
	for (i = 0; i < n; i++) {
		const struct d9s_ix_node *nd = &d->node[chain[i]];

		if (i > 0) {
			const struct d9s_ix_node *in = &d->node[chain[i - 1]];

			memset(&frames[i], 0, sizeof frames[i]);
			frames[i].file = file_of(d, c, in->call_file);
			frames[i].line = in->call_line;
		}
		if (chain[i] != d->fn[fi].node)
			frames[i].flags |= D9S_FRAME_INLINED;
		frames[i].function = str_at(d, nd->name);
		frames[i].flags |= nd->flags;
	}
	return (int)n;
}
