/*
 * dwcheck.h: checks of an ELF file and its DWARF that libdwarf 20210528
 * trusts too much, run before libdwarf sees the file (all of them found
 * crashing it in our corruption tests and fuzzing, fuzz/fuzz_dwarf.c):
 *
 *  - the ELF structure, read with libelf: header, section header table
 *    and every section inside the file, names inside the section name
 *    table, little-endian; libdwarf reads the same headers with its own
 *    reader, so what libelf cannot read is refused;
 *  - at most one section of each kind checked here (.debug_ or .zdebug_,
 *    plain or .dwo: libdwarf takes any of them), decompressed as libdwarf
 *    would decompress it;
 *  - .debug_rnglists and .debug_loclists unit headers: lengths inside the
 *    section, version 5, address size 4 or 8, no segment selector, the
 *    offset table inside the unit (a bad header makes libdwarf free
 *    memory twice while loading .debug_info);
 *  - every .debug_rnglists list, decoded entry by entry: known kinds,
 *    operands inside the unit, each list ended inside it; every offset
 *    table entry at the start of an entry (libdwarf adds such an offset
 *    to the section without a check and reads there: the SIGSEGV in
 *    dwarf_rnglists_get_rle_head);
 *  - every .debug_loclists offset table entry inside its unit;
 *  - every DIE of .debug_info against .debug_abbrev (dwinfo.h), for the
 *    DW_AT_sibling values libdwarf follows blindly (one pointing at its
 *    own DIE made it loop for ever).
 *
 * What remains of .debug_rnglists is kept: DW_AT_ranges given as a
 * section offset goes to libdwarf only when a list entry starts there
 * (ranges.c), which libdwarf does not check either when the unit has a
 * DW_AT_rnglists_base.
 */
#ifndef D9S_DWCHECK_H
#define D9S_DWCHECK_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

struct d9s_dwcheck {
	uint8_t		*rle;	/* a bit per byte of .debug_rnglists: set
				   where a list entry starts */
	size_t		 nrle;	/* bytes of .debug_rnglists, 0: none */
};

/* Check the file at path; 0 when libdwarf may read it, or
 * -D9_ERR_BAD_VALUE (-D9_ERR_NOMEM) with e->msg saying what is wrong.
 * c is filled in either way and must be freed. */
int	d9s_dwcheck_file(struct d9s_dwcheck *c, const char *path,
	    struct d9_err *e);
void	d9s_dwcheck_free(struct d9s_dwcheck *c);
/* 1 when a range list entry starts at off in .debug_rnglists. */
int	d9s_dwcheck_rnglist_at(const struct d9s_dwcheck *c, uint64_t off);

#endif
