/*
 * inltree.h: the inlined subroutines of one function, read from its DIE
 * subtree into the index (dwindex.h) while it is built: a root node for
 * the function, then a node per inlined subroutine with an address range.
 * Lexical blocks are transparent: an inlined subroutine hangs off the
 * nearest enclosing inlined subroutine or the function itself. Each
 * node's children are a slice of range rows sorted by address, so the
 * chain for an address is a binary search per inline level.
 */
#ifndef D9S_INLTREE_H
#define D9S_INLTREE_H

#include <stdint.h>

#include <libdwarf/libdwarf.h>

#include "symbolize/dwindex.h"
#include "symbolize/names.h"
#include "symbolize/ranges.h"

/* What reading a function's subtree needs. */
struct d9s_inl_ctx {
	struct d9s_cu		 cu;		/* the function's CU */
	int			 c_like;	/* of the CU: names.h */
	struct d9s_ixb		*b;
	struct d9s_names	*names;
	struct d9s_ranges	*scratch;	/* reused range buffer */
};

/* Add the tree of the function at fn, whose DIEs end before end (die.h);
 * *root is its root node. A broken subtree just ends early. 0, or -1
 * when out of memory. */
int	d9s_inltree_build(const struct d9s_inl_ctx *cx, Dwarf_Die fn,
	    Dwarf_Off end, uint32_t *root);

#endif
