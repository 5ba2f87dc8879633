/*
 * inltree.c: one recursive walk of a function's DIE subtree (depth
 * bounded), collecting inlined subroutines and their ranges as
 * (parent, lo, hi, node) rows; the rows are then sorted by parent and
 * address and each node gets its slice.
 */
#include <stdlib.h>
#include <string.h>

#include <libdwarf/dwarf.h>

#include "base/vec.h"
#include "symbolize/die.h"
#include "symbolize/inltree.h"
#include "symbolize/search.h"

#define D9S_INL_DEPTH	64

struct pending {
	uint32_t	parent;
	uint32_t	node;
	uint64_t	lo, hi;
};

struct build {
	struct d9s_inltree	*t;
	Dwarf_Debug		 dbg;
	unsigned		 version;
	uint64_t		 base;
	struct d9s_ranges	*scratch;
	struct pending		*p;
	size_t			 np, pcap, nodecap;
};

static int
add_node(struct build *b, Dwarf_Die die, uint32_t parent, uint32_t *out)
{
	struct d9s_inl_node *n;
	Dwarf_Error err = NULL;
	Dwarf_Unsigned v;
	size_t i;

	if (b->t->nnode >= UINT32_MAX ||
	    d9_grow(&b->t->node, &b->nodecap, b->t->nnode + 1,
	    sizeof *b->t->node) == -1 ||
	    d9_grow(&b->p, &b->pcap, b->np + b->scratch->n, sizeof *b->p) == -1)
		return -1;
	n = &b->t->node[b->t->nnode];
	memset(n, 0, sizeof *n);
	if (dwarf_dieoffset(die, &n->off, &err) != DW_DLV_OK)
		d9s_die_forget(b->dbg, &err);
	n->call_file = d9s_die_udata(b->dbg, die, DW_AT_call_file, &v) == 0 ?
	    v : UINT64_MAX;
	n->call_line = d9s_die_udata(b->dbg, die, DW_AT_call_line, &v) == 0 &&
	    v <= UINT32_MAX ? (uint32_t)v : 0;
	*out = (uint32_t)b->t->nnode++;
	for (i = 0; i < b->scratch->n; i++) {
		b->p[b->np].parent = parent;
		b->p[b->np].node = *out;
		b->p[b->np].lo = b->scratch->r[i].lo;
		b->p[b->np].hi = b->scratch->r[i].hi;
		b->np++;
	}
	return 0;
}

static int
walk(struct build *b, Dwarf_Die parent_die, uint32_t parent, int depth)
{
	Dwarf_Error err = NULL;
	Dwarf_Die die, next;
	Dwarf_Half tag;
	uint32_t node;
	int rc, r = 0;

	rc = dwarf_child(parent_die, &die, &err);
	while (rc == DW_DLV_OK && r == 0) {
		if (dwarf_tag(die, &tag, &err) != DW_DLV_OK) {
			d9s_die_forget(b->dbg, &err);
			tag = 0;
		}
		if (tag == DW_TAG_inlined_subroutine) {
			rc = d9s_ranges_read(b->scratch, b->dbg, die,
			    b->version, b->base, &err);
			if (rc == D9S_RANGES_NOMEM)
				r = -1;
			d9s_die_forget(b->dbg, &err);
			if (rc == 1 && b->scratch->n > 0 && r == 0) {
				r = add_node(b, die, parent, &node);
				if (r == 0 && depth < D9S_INL_DEPTH)
					r = walk(b, die, node, depth + 1);
			}
		} else if ((tag == DW_TAG_lexical_block ||
		    tag == DW_TAG_try_block || tag == DW_TAG_catch_block) &&
		    depth < D9S_INL_DEPTH)
			r = walk(b, die, parent, depth + 1);
		rc = dwarf_siblingof_b(b->dbg, die, 1, &next, &err);
		dwarf_dealloc_die(die);
		die = next;
	}
	if (rc == DW_DLV_OK)
		dwarf_dealloc_die(die);
	d9s_die_forget(b->dbg, &err);
	return r;
}

static int
pending_cmp(const void *x, const void *y)
{
	const struct pending *a = x, *b = y;

	if (a->parent != b->parent)
		return a->parent < b->parent ? -1 : 1;
	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return a->node < b->node ? -1 : a->node > b->node;
}

static int
finish(struct build *b)
{
	struct d9s_inltree *t = b->t;
	size_t i;

	qsort(b->p, b->np, sizeof *b->p, pending_cmp);
	if ((t->range = malloc((b->np ? b->np : 1) * sizeof *t->range)) == NULL)
		return -1;
	for (i = 0; i < b->np; i++) {
		struct d9s_inl_node *parent = &t->node[b->p[i].parent];

		if (parent->n == 0)
			parent->first = (uint32_t)i;
		parent->n++;
		t->range[i].lo = b->p[i].lo;
		t->range[i].hi = b->p[i].hi;
		t->range[i].node = b->p[i].node;
	}
	t->nrange = b->np;
	return 0;
}

int
d9s_inltree_build(struct d9s_inltree *t, Dwarf_Debug dbg, Dwarf_Off fn_off,
    unsigned cu_version, uint64_t cu_base, struct d9s_ranges *scratch)
{
	struct build b = { .t = t, .dbg = dbg, .version = cu_version,
	    .base = cu_base, .scratch = scratch };
	Dwarf_Die die;
	int rc = 0;

	memset(t, 0, sizeof *t);
	if (d9_grow(&t->node, &b.nodecap, 1, sizeof *t->node) == -1)
		return -1;
	memset(&t->node[0], 0, sizeof t->node[0]);
	t->node[0].off = fn_off;
	t->node[0].call_file = UINT64_MAX;
	t->nnode = 1;
	if ((die = d9s_die_at(dbg, fn_off)) != NULL) {
		rc = walk(&b, die, 0, 0);
		dwarf_dealloc_die(die);
	}
	if (rc == 0)
		rc = finish(&b);
	free(b.p);
	if (rc != 0)
		d9s_inltree_free(t);
	return rc;
}

void
d9s_inltree_free(struct d9s_inltree *t)
{
	free(t->node);
	free(t->range);
	memset(t, 0, sizeof *t);
}

size_t
d9s_inltree_chain(const struct d9s_inltree *t, uint64_t addr, uint32_t *out,
    size_t cap)
{
	uint32_t chain[D9S_INL_DEPTH + 2];
	size_t depth = 0, i, n;
	uint32_t cur = 0;

	chain[depth++] = 0;
	while (depth < sizeof chain / sizeof chain[0]) {
		const struct d9s_inl_node *nd = &t->node[cur];
		const struct d9s_inl_range *r = t->range + nd->first;
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
