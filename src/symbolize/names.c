/*
 * names.c: see names.h. The first hop reads the DIE at hand; the rest
 * go through dwarf_offdie_b(), cached by the offset they start from.
 */
#include <stdlib.h>
#include <string.h>

#include <libdwarf/dwarf.h>

#include "base/vec.h"
#include "base/demangle.h"
#include "symbolize/die.h"
#include "symbolize/names.h"

#define D9S_MAX_HOPS	8	/* abstract_origin/specification hops */

void
d9s_names_init(struct d9s_names *nm, Dwarf_Debug dbg, struct d9s_ixb *b)
{
	memset(nm, 0, sizeof *nm);
	nm->dbg = dbg;
	nm->b = b;
	d9_hmap_init(&nm->by_off);
}

void
d9s_names_free(struct d9s_names *nm)
{
	d9_hmap_free(&nm->by_off);
	free(nm->slot);
	memset(nm, 0, sizeof *nm);
}

/* The raw name on die itself, or NULL; *ref the DIE it points to (0 when
 * it points nowhere). */
static const char *
own_name(struct d9s_names *nm, Dwarf_Die die, int c_like, uint32_t *flags,
    Dwarf_Off *ref)
{
	const char *raw;

	*ref = 0;
	if ((raw = d9s_die_string(nm->dbg, die, DW_AT_linkage_name)) !=
	    NULL || (raw = d9s_die_string(nm->dbg, die,
	    DW_AT_MIPS_linkage_name)) != NULL) {
		*flags = D9S_FRAME_LINKAGE;
		return raw;
	}
	if ((raw = d9s_die_string(nm->dbg, die, DW_AT_name)) != NULL) {
		*flags = c_like ? D9S_FRAME_LINKAGE : 0;
		return raw;
	}
	if (d9s_die_ref(nm->dbg, die, DW_AT_abstract_origin, ref) != 0 &&
	    d9s_die_ref(nm->dbg, die, DW_AT_specification, ref) != 0)
		*ref = 0;
	return NULL;
}

/* raw, demangled, into the index; -1 when out of memory. */
static int
keep(struct d9s_names *nm, const char *raw, uint32_t flags,
    struct d9s_name *out)
{
	char *dem = d9_demangle(raw);
	const char *s = dem != NULL ? dem : raw;

	out->str = d9s_ixb_str(nm->b, s, strlen(s));
	out->flags = flags;
	free(dem);
	return out->str == D9S_IX_NONE ? -1 : 0;
}

/* Follow references from the DIE at off. */
static int
resolve(struct d9s_names *nm, Dwarf_Off off, int c_like,
    struct d9s_name *out)
{
	const char *raw = NULL;
	uint32_t flags = 0;
	int hop;

	out->str = D9S_IX_NONE;
	out->flags = 0;
	for (hop = 1; hop < D9S_MAX_HOPS && raw == NULL && off != 0; hop++) {
		Dwarf_Die die = d9s_die_at(nm->dbg, off);

		if (die == NULL)
			break;
		raw = own_name(nm, die, c_like, &flags, &off);
		if (raw != NULL && keep(nm, raw, flags, out) != 0) {
			dwarf_dealloc_die(die);
			return -1;
		}
		dwarf_dealloc_die(die);
	}
	return 0;
}

int
d9s_names_of(struct d9s_names *nm, Dwarf_Die die, int c_like,
    struct d9s_name *out)
{
	const char *raw;
	uint32_t flags = 0, idx;
	Dwarf_Off ref;

	out->str = D9S_IX_NONE;
	out->flags = 0;
	if ((raw = own_name(nm, die, c_like, &flags, &ref)) != NULL)
		return keep(nm, raw, flags, out);
	if (ref == 0)
		return 0;
	if ((idx = d9_hmap_get(&nm->by_off, ref)) != D9_NONE) {
		*out = nm->slot[idx];
		return 0;
	}
	if (resolve(nm, ref, c_like, out) != 0 || nm->nslot >= UINT32_MAX ||
	    d9_grow(&nm->slot, &nm->cap, nm->nslot + 1, sizeof *nm->slot) ==
	    -1)
		return -1;
	nm->slot[nm->nslot] = *out;
	if (d9_hmap_put(&nm->by_off, ref, (uint32_t)nm->nslot) < 0)
		return -1;
	nm->nslot++;
	return 0;
}
