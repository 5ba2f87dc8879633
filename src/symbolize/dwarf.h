/*
 * dwarf.h: the DWARF index of one binary (or its separate debug file) and
 * address lookups in it, on libdwarf 20210528. The index is built once by
 * d9s_dwarf_open(): one row per address range of every DW_TAG_subprogram
 * (also those nested in namespaces and types; ranges at address 0, code
 * dropped by the linker, are skipped), sorted, and the line table of
 * every compile unit (lines.h). The libdwarf handle stays open: a lookup
 * finds the function by binary search, then walks its DIE children down
 * the inlined-subroutine chain (sections are in memory: no file I/O).
 *
 * A lookup returns frames innermost first. Frame 0 takes file:line from
 * the line table; each outer frame takes DW_AT_call_file/DW_AT_call_line
 * of the inlined DIE below it. Names prefer DW_AT_linkage_name (demangled,
 * Rust hashes hidden), else DW_AT_name, following DW_AT_abstract_origin
 * and DW_AT_specification. Strings live as long as the index.
 */
#ifndef D9S_DWARF_H
#define D9S_DWARF_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

#define D9S_MAX_FRAMES	32	/* deeper inline chains lose outer frames */

#define D9S_FRAME_INLINED	0x1	/* inlined into the next frame */
#define D9S_FRAME_LINKAGE	0x2	/* name is a linkage name (binutils'
					   is_linkage: also DW_AT_name in C) */
#define D9S_FRAME_SYMTAB	0x4	/* name from the ELF symbol table */
#define D9S_FRAME_NOFUNC	0x8	/* no function DIE covers the address:
					   file:line from the line table only */

struct d9s_frame {
	const char	*function;	/* NULL when unknown */
	const char	*file;		/* full path, NULL when unknown */
	uint32_t	 line;		/* 0 when unknown */
	uint32_t	 discriminator;	/* of the line-table row (frame 0) */
	uint32_t	 flags;		/* D9S_FRAME_* */
};

struct d9s_dwarf_stats {
	size_t	cus;		/* compile units indexed */
	size_t	dies;		/* DIEs visited while indexing */
	size_t	funcs;		/* function address ranges */
	size_t	rows;		/* line rows decoded so far (tables are read
				   on a CU's first lookup) */
	size_t	errors;		/* libdwarf errors skipped while indexing */
};

struct d9s_dwarf;

/* Open path with libdwarf and build the index. 0 or -D9_ERR_* with e->msg
 * saying what failed (the path is not in it). */
int	d9s_dwarf_open(struct d9s_dwarf **out, const char *path,
	    struct d9_err *e);
void	d9s_dwarf_free(struct d9s_dwarf **d);
/*
 * Frames for link address addr into frames[0 .. cap): the count, 0 when
 * the DWARF knows nothing of addr, or -D9_ERR_NOMEM. frames[0].function
 * is NULL when only the line table covers addr. Broken DIEs end the
 * inline walk early instead of failing.
 */
int	d9s_dwarf_lookup(struct d9s_dwarf *d, uint64_t addr,
	    struct d9s_frame *frames, size_t cap, struct d9_err *e);
void	d9s_dwarf_stats(const struct d9s_dwarf *d, struct d9s_dwarf_stats *st);

#endif
