/*
 * names.h: the name of each frame of the DWARF index, resolved while the
 * index is built (in the reading child): DW_AT_linkage_name (then
 * DW_AT_MIPS_linkage_name), else DW_AT_name, else the DIE that
 * DW_AT_abstract_origin or DW_AT_specification points to, up to eight
 * hops; demangled, and copied into the index's string table. A DIE
 * pointed to by many (the abstract origin of every inlined copy of a
 * function) is resolved once.
 */
#ifndef D9S_NAMES_H
#define D9S_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include <libdwarf/libdwarf.h>

#include "symbolize/dwindex.h"
#include "base/hmap.h"

struct d9s_name {
	uint32_t	str;		/* offset in the index, or NONE */
	uint32_t	flags;		/* D9S_FRAME_LINKAGE */
};

struct d9s_names {
	Dwarf_Debug	 dbg;
	struct d9s_ixb	*b;
	struct d9_hmap	 by_off;	/* DIE offset -> slot[] */
	struct d9s_name	*slot;
	size_t		 nslot, cap;
};

void	d9s_names_init(struct d9s_names *nm, Dwarf_Debug dbg,
	    struct d9s_ixb *b);
void	d9s_names_free(struct d9s_names *nm);
/* The name of die; c_like: DW_AT_name is a linkage name in this CU
 * (binutils' is_linkage for C-like languages). 0, or -1 when out of
 * memory. */
int	d9s_names_of(struct d9s_names *nm, Dwarf_Die die, int c_like,
	    struct d9s_name *out);

#endif
