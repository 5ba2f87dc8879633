/*
 * inltree.h: the inlined subroutines of one function, read from its DIE
 * subtree once (on the function's first lookup) into a compact tree, so
 * later lookups in the function need no libdwarf call. Lexical blocks are
 * transparent: an inlined subroutine hangs off the nearest enclosing
 * inlined subroutine or the function itself (node 0). Each node's
 * children are a slice of range rows sorted by address, so the chain for
 * an address is a binary search per inline level.
 */
#ifndef D9S_INLTREE_H
#define D9S_INLTREE_H

#include <stddef.h>
#include <stdint.h>

#include <libdwarf/libdwarf.h>

#include "symbolize/ranges.h"

struct d9s_inl_node {
	Dwarf_Off	off;		/* the DIE */
	uint64_t	call_file;	/* DW_AT_call_file, UINT64_MAX: none */
	uint32_t	call_line;	/* DW_AT_call_line, 0: none */
	uint32_t	first, n;	/* its children's rows in range[] */
};

struct d9s_inl_range {
	uint64_t	lo, hi;		/* lo first: see search.h */
	uint32_t	node;
};

struct d9s_inltree {
	struct d9s_inl_node	*node;
	size_t			 nnode;
	struct d9s_inl_range	*range;
	size_t			 nrange;
};

/*
 * Build the tree below the function DIE at fn_off; cu_version/cu_base
 * are for reading ranges, scratch is a reusable range buffer. A broken
 * subtree just ends early. 0, or -1 when out of memory.
 */
int	d9s_inltree_build(struct d9s_inltree *t, Dwarf_Debug dbg,
	    Dwarf_Off fn_off, unsigned cu_version, uint64_t cu_base,
	    struct d9s_ranges *scratch);
void	d9s_inltree_free(struct d9s_inltree *t);
/* Node indexes of the inline chain holding addr, innermost first, ending
 * with node 0; returns how many (at most cap, the innermost kept). */
size_t	d9s_inltree_chain(const struct d9s_inltree *t, uint64_t addr,
	    uint32_t *out, size_t cap);

#endif
