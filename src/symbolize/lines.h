/*
 * lines.h: the line table of one compile unit as a sorted row array, and
 * its file names joined the way binutils joins them (comp_dir, include
 * directory, name; see lines.c). Built once with the DWARF index; lookups
 * are a binary search, no libdwarf call.
 *
 * File numbers are kept raw: file[k] is line-table entry k, so DWARF 2-4
 * (entries from 1) and DWARF 5 (entries from 0) index the same way, for
 * rows and for DW_AT_call_file alike.
 */
#ifndef D9S_LINES_H
#define D9S_LINES_H

#include <stddef.h>
#include <stdint.h>

#include <libdwarf/libdwarf.h>

#include "base/arena.h"

struct d9s_line_row {
	uint64_t	addr;
	uint32_t	line;
	uint32_t	file;		/* raw file number */
	uint32_t	disc;		/* discriminator */
	uint32_t	end;		/* ends a sequence: no line here */
};

struct d9s_lines {
	struct d9s_line_row	*row;		/* sorted by addr */
	size_t			 nrow;
	const char		**file;		/* joined names or NULL */
	size_t			 nfile;
	uint64_t		*seq_lo, *seq_hi;	/* kept sequences */
	size_t			 nseq;
	unsigned		 version;	/* line table version */
};

#define D9S_LINES_NOMEM	(-2)

/*
 * Decode the line table of cudie. comp_dir may be NULL; names go into
 * arena. Sequences starting at address 0 (code dropped by the linker) are
 * left out. Returns 0 (also for a CU without a line table), -1 when the
 * table cannot be read (*err may be set: the caller deallocates it), or
 * D9S_LINES_NOMEM.
 */
int	d9s_lines_load(struct d9s_lines *l, Dwarf_Debug dbg, Dwarf_Die cudie,
	    const char *comp_dir, struct d9_arena *arena, Dwarf_Error *err);
void	d9s_lines_free(struct d9s_lines *l);
/* The row that holds addr, or NULL (no row, or addr past a sequence). */
const struct d9s_line_row *d9s_lines_find(const struct d9s_lines *l,
	    uint64_t addr);
/* File name for a raw file number, or NULL. */
const char	*d9s_lines_file(const struct d9s_lines *l, uint64_t fileno);

#endif
