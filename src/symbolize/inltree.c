/*
 * inltree.c: one recursive walk of a function's DIE subtree (depth
 * bounded), adding a node per inlined subroutine and collecting its
 * ranges as (parent, lo, hi, node) rows; the rows are then sorted by
 * parent and address, appended to the index's range table, and each
 * node gets its slice.
 */
#include <stdlib.h>
#include <string.h>

#include <libdwarf/dwarf.h>

#include "base/vec.h"
#include "symbolize/die.h"
#include "symbolize/inltree.h"

#define D9S_INL_DEPTH	64

struct pending {
	uint32_t	parent;
	uint32_t	node;
	uint64_t	lo, hi;
};

struct build {
	const struct d9s_inl_ctx *cx;
	struct pending		*p;
	size_t			 np, pcap;
};

/* A node for die, named, with its call site; NONE when out of memory. */
static uint32_t
add_node(const struct d9s_inl_ctx *cx, Dwarf_Die die, int inlined)
{
	struct d9s_ix_node *n;
	struct d9s_name name;
	Dwarf_Unsigned v;
	uint32_t idx;

	if (d9s_names_of(cx->names, die, cx->c_like, &name) != 0)
		return D9S_IX_NONE;
	idx = (uint32_t)cx->b->n[D9S_IX_NODE];
	if ((n = d9s_ixb_add(cx->b, D9S_IX_NODE, 1)) == NULL)
		return D9S_IX_NONE;
	n->name = name.str;
	n->flags = name.flags;
	n->call_file = D9S_IX_NONE;
	if (!inlined)
		return idx;
	if (d9s_die_udata(cx->cu.dbg, die, DW_AT_call_file, &v) == 0 &&
	    v < D9S_IX_NONE)
		n->call_file = (uint32_t)v;
	if (d9s_die_udata(cx->cu.dbg, die, DW_AT_call_line, &v) == 0 &&
	    v <= UINT32_MAX)
		n->call_line = (uint32_t)v;
	return idx;
}

/* An inlined subroutine whose ranges are in scratch. */
static int
add_inlined(struct build *bd, Dwarf_Die die, uint32_t parent,
    uint32_t *out)
{
	const struct d9s_ranges *r = bd->cx->scratch;
	size_t i;

	if (d9_grow(&bd->p, &bd->pcap, bd->np + r->n, sizeof *bd->p) == -1)
		return -1;
	if ((*out = add_node(bd->cx, die, 1)) == D9S_IX_NONE)
		return -1;
	for (i = 0; i < r->n; i++) {
		bd->p[bd->np].parent = parent;
		bd->p[bd->np].node = *out;
		bd->p[bd->np].lo = r->r[i].lo;
		bd->p[bd->np].hi = r->r[i].hi;
		bd->np++;
	}
	return 0;
}

/* The children of parent_die (node parent), which end before end. */
static int
walk(struct build *bd, Dwarf_Die parent_die, uint32_t parent, Dwarf_Off end,
    int depth)
{
	const struct d9s_inl_ctx *cx = bd->cx;
	Dwarf_Error err = NULL;
	Dwarf_Die die, next = NULL;
	Dwarf_Half tag;
	Dwarf_Off bound;
	uint32_t node;
	int rc, nrc, r = 0;

	rc = d9s_die_child(cx->cu.dbg, parent_die, end, &die);
	while (rc == DW_DLV_OK && r == 0) {
		nrc = d9s_die_next(cx->cu.dbg, die, end, &next, &bound);
		if (dwarf_tag(die, &tag, &err) != DW_DLV_OK) {
			d9s_die_forget(cx->cu.dbg, &err);
			tag = 0;
		}
		if (tag == DW_TAG_inlined_subroutine) {
			rc = d9s_ranges_read(cx->scratch, &cx->cu, die, &err);
			if (rc == D9S_RANGES_NOMEM)
				r = -1;
			d9s_die_forget(cx->cu.dbg, &err);
			if (rc == 1 && cx->scratch->n > 0 && r == 0) {
				r = add_inlined(bd, die, parent, &node);
				if (r == 0 && depth < D9S_INL_DEPTH)
					r = walk(bd, die, node, bound,
					    depth + 1);
			}
		} else if ((tag == DW_TAG_lexical_block ||
		    tag == DW_TAG_try_block || tag == DW_TAG_catch_block) &&
		    depth < D9S_INL_DEPTH)
			r = walk(bd, die, parent, bound, depth + 1);
		dwarf_dealloc_die(die);
		die = next;
		rc = nrc;
	}
	if (rc == DW_DLV_OK)
		dwarf_dealloc_die(die);
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
finish(struct build *bd)
{
	struct d9s_ixb *b = bd->cx->b;
	size_t first = b->n[D9S_IX_RANGE], i;
	struct d9s_ix_range *r;

	if (bd->np == 0)
		return 0;
	qsort(bd->p, bd->np, sizeof *bd->p, pending_cmp);
	if ((r = d9s_ixb_add(b, D9S_IX_RANGE, bd->np)) == NULL)
		return -1;
	for (i = 0; i < bd->np; i++) {
		struct d9s_ix_node *parent =
		    (struct d9s_ix_node *)b->tab[D9S_IX_NODE] + bd->p[i].parent;

		if (parent->n == 0)
			parent->first = (uint32_t)(first + i);
		parent->n++;
		r[i].lo = bd->p[i].lo;
		r[i].hi = bd->p[i].hi;
		r[i].node = bd->p[i].node;
	}
	return 0;
}

int
d9s_inltree_build(const struct d9s_inl_ctx *cx, Dwarf_Die fn, Dwarf_Off end,
    uint32_t *root)
{
	struct build bd = { .cx = cx };
	int rc;

	if ((*root = add_node(cx, fn, 0)) == D9S_IX_NONE)
		return -1;
	rc = walk(&bd, fn, *root, end, 0);
	if (rc == 0)
		rc = finish(&bd);
	free(bd.p);
	return rc;
}
