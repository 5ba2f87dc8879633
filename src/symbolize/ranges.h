/*
 * ranges.h: the address ranges of one DIE, whatever the encoding:
 * DW_AT_low_pc + DW_AT_high_pc (address or, DWARF 4+, length), DWARF 2-4
 * DW_AT_ranges into .debug_ranges (entries relative to the CU base
 * address, base selection entries honoured), DWARF 5 DW_AT_ranges as
 * DW_FORM_rnglistx or DW_FORM_sec_offset into .debug_rnglists (libdwarf's
 * "cooked" absolute addresses). Empty ranges are dropped.
 */
#ifndef D9S_RANGES_H
#define D9S_RANGES_H

#include <stddef.h>
#include <stdint.h>

#include <libdwarf/libdwarf.h>

#include "symbolize/dwcheck.h"

struct d9s_range {
	uint64_t	lo, hi;		/* [lo, hi) */
};

struct d9s_ranges {
	struct d9s_range	*r;
	size_t			 n, cap;
};

#define D9S_RANGES_NOMEM	(-2)

/* What reading ranges needs from the compile unit of the DIE. */
struct d9s_cu {
	Dwarf_Debug		 dbg;
	const struct d9s_dwcheck *chk;		/* where rnglists start */
	unsigned		 version;	/* of the CU */
	uint64_t		 base;		/* its DW_AT_low_pc, or 0 */
};

/*
 * Replace the contents of out with the ranges of die. Returns 1 when the
 * DIE has range attributes, 0 when it has none, -1 when they cannot be
 * read (*err may be set: the caller deallocates it; also for a
 * DW_FORM_sec_offset where no .debug_rnglists entry starts, which
 * libdwarf would read anyway), or D9S_RANGES_NOMEM.
 */
int	d9s_ranges_read(struct d9s_ranges *out, const struct d9s_cu *cu,
	    Dwarf_Die die, Dwarf_Error *err);
/* Append [lo, hi) unless empty; 0, or -1 when out of memory. */
int	d9s_ranges_add(struct d9s_ranges *r, uint64_t lo, uint64_t hi);
void	d9s_ranges_free(struct d9s_ranges *r);

#endif
