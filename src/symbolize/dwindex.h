/*
 * dwindex.h: the DWARF index as d9top keeps it, in one flat buffer: no
 * pointers, no libdwarf handle, so it can be built in a child process
 * (dwarf.c, isolate.h) and handed back as bytes. The buffer is a header
 * followed by eight tables, each at an 8-aligned offset, in this order:
 *
 *	func	one row per address range of a function, sorted by lo, then
 *		hi, then root node (DIE order); maxhi is the running maximum
 *		of hi, so a backwards scan can stop early
 *	span	address ranges of the compile units, sorted by lo: which
 *		CU's lines to ask about an address no function covers
 *	cu	per compile unit, its slices of row[] and file[]
 *	row	line rows, each CU's sorted by address (lines.c)
 *	file	file names of the CUs' line tables: str offsets or NONE
 *	node	inline trees: a function's root node, then its inlined
 *		subroutines; name and flags of the frame, the call site
 *		(DW_AT_call_file/line) and its children's slice of range[]
 *	range	the children's address ranges, each node's sorted by lo
 *	str	NUL-terminated strings (names, file names)
 *
 * d9s_dwindex_load() checks every count, offset and cross-reference of a
 * buffer before it is used, so a buffer from a child that went wrong can
 * only be refused, never read out of bounds. The lookups are in
 * dwindex.c; struct d9s_dwarf (dwarf.h) is the loaded buffer.
 */
#ifndef D9S_DWINDEX_H
#define D9S_DWINDEX_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "symbolize/dwarf.h"

#define D9S_IX_NONE	UINT32_MAX

enum d9s_ix_table {
	D9S_IX_FUNC, D9S_IX_SPAN, D9S_IX_CU, D9S_IX_ROW, D9S_IX_FILE,
	D9S_IX_NODE, D9S_IX_RANGE, D9S_IX_STR, D9S_IX_NTAB
};

/* Address-keyed rows start with their key (search.h). */
struct d9s_ix_func {
	uint64_t	lo, hi, maxhi;
	uint32_t	cu;
	uint32_t	node;		/* the function's root node */
};

struct d9s_ix_span {
	uint64_t	lo, hi;
	uint32_t	cu, pad;
};

struct d9s_ix_cu {
	uint32_t	row, nrow;	/* slice of row[] */
	uint32_t	file, nfile;	/* slice of file[]: raw file numbers */
};

struct d9s_ix_row {
	uint64_t	addr;
	uint32_t	line;
	uint32_t	file;		/* raw file number */
	uint32_t	disc;		/* discriminator */
	uint32_t	end;		/* ends a sequence: no line here */
};

struct d9s_ix_node {
	uint32_t	name;		/* str offset or NONE */
	uint32_t	flags;		/* D9S_FRAME_LINKAGE */
	uint32_t	call_file;	/* raw file number or NONE */
	uint32_t	call_line;	/* 0: none */
	uint32_t	first, n;	/* its children's rows in range[] */
};

struct d9s_ix_range {
	uint64_t	lo, hi;
	uint32_t	node, pad;
};

/* Tables being built: element size per table, counts grow. */
struct d9s_ixb {
	void		*tab[D9S_IX_NTAB];
	size_t		 n[D9S_IX_NTAB], cap[D9S_IX_NTAB];
};

void	 d9s_ixb_free(struct d9s_ixb *b);
/* k more rows of table t, zeroed (the first is row b->n[t] - k after
 * the call); NULL when out of memory or past 2^32 - 1 rows. Pointers
 * into a table last until the next call on that table. */
void	*d9s_ixb_add(struct d9s_ixb *b, enum d9s_ix_table t, size_t k);
/* Append s (len bytes, a NUL added); its offset, or NONE when out of
 * memory or past 4 GiB. */
uint32_t d9s_ixb_str(struct d9s_ixb *b, const char *s, size_t len);
/* One malloc'd buffer holding the tables and st; 0 or -1 (memory). */
int	 d9s_ixb_pack(const struct d9s_ixb *b,
	    const struct d9s_dwarf_stats *st, void **out, size_t *len);

/* Take the buffer (malloc'd, len bytes; freed here on error) and check
 * it. 0 or -D9_ERR_BAD_VALUE. */
int	 d9s_dwindex_load(struct d9s_dwarf **out, void *buf, size_t len,
	    struct d9_err *e);

#endif
