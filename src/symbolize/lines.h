/*
 * lines.h: the line table of one compile unit, decoded with libdwarf
 * into the index (dwindex.h): its rows sorted by address, its file names
 * joined the way binutils joins them (comp_dir, include directory, name;
 * see lines.c).
 *
 * File numbers are kept raw: file entry k of the CU is line-table entry
 * k, so DWARF 2-4 (entries from 1) and DWARF 5 (entries from 0) index
 * the same way, for rows and for DW_AT_call_file alike.
 */
#ifndef D9S_LINES_H
#define D9S_LINES_H

#include <libdwarf/libdwarf.h>

#include "symbolize/dwindex.h"
#include "symbolize/ranges.h"

#define D9S_LINES_NOMEM	(-2)

/*
 * Decode the line table of cudie into b and set the row and file slices
 * of cu; the address ranges of the sequences kept go to seq (replacing
 * its contents). comp_dir may be NULL. Sequences starting at address 0
 * (code dropped by the linker) are left out. Returns 0 (also for a CU
 * without a line table), -1 when the table cannot be read (*err may be
 * set: the caller deallocates it; nothing of the table is kept), or
 * D9S_LINES_NOMEM.
 */
int	d9s_lines_load(struct d9s_ixb *b, struct d9s_ix_cu *cu,
	    struct d9s_ranges *seq, Dwarf_Die cudie, const char *comp_dir,
	    Dwarf_Error *err);

#endif
