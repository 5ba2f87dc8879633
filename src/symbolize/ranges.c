/*
 * ranges.c: reads DIE ranges with the libdwarf 20210528 calls named in
 * DEPENDENCIES 4.1. Every list is freed before returning; libdwarf errors
 * are handed back to the caller, who deallocates them.
 */
#include <stdlib.h>
#include <string.h>

#include <libdwarf/dwarf.h>

#include "base/vec.h"
#include "symbolize/ranges.h"

int
d9s_ranges_add(struct d9s_ranges *out, uint64_t lo, uint64_t hi)
{
	if (hi <= lo)
		return 0;
	if (d9_grow(&out->r, &out->cap, out->n + 1, sizeof *out->r) == -1)
		return -1;
	out->r[out->n].lo = lo;
	out->r[out->n].hi = hi;
	out->n++;
	return 0;
}

static int
read_lowhigh(struct d9s_ranges *out, Dwarf_Die die, Dwarf_Error *err)
{
	Dwarf_Addr lo, hi;
	Dwarf_Half form;
	enum Dwarf_Form_Class cls;
	int rc;

	if ((rc = dwarf_lowpc(die, &lo, err)) != DW_DLV_OK)
		return rc == DW_DLV_NO_ENTRY ? 0 : -1;
	rc = dwarf_highpc_b(die, &hi, &form, &cls, err);
	if (rc == DW_DLV_ERROR)
		return -1;
	if (rc == DW_DLV_NO_ENTRY)
		hi = lo + 1;		/* a lone low_pc: one address */
	else if (cls == DW_FORM_CLASS_CONSTANT)
		hi = hi > UINT64_MAX - lo ? UINT64_MAX : lo + hi;
	return d9s_ranges_add(out, lo, hi) == 0 ? 1 : D9S_RANGES_NOMEM;
}

static int
read_v4(struct d9s_ranges *out, Dwarf_Debug dbg, Dwarf_Die die,
    Dwarf_Attribute attr, uint64_t base, Dwarf_Error *err)
{
	Dwarf_Off off, realoff;
	Dwarf_Unsigned udata, bytes;
	Dwarf_Ranges *rl;
	Dwarf_Signed n, i;
	int rc = 1;

	if (dwarf_global_formref(attr, &off, err) != DW_DLV_OK) {
		/* DWARF 2/3 use data4/data8 for the offset */
		dwarf_dealloc_error(dbg, *err);
		*err = NULL;
		if (dwarf_formudata(attr, &udata, err) != DW_DLV_OK)
			return -1;
		off = udata;
	}
	if (dwarf_get_ranges_b(dbg, off, die, &realoff, &rl, &n, &bytes, err) !=
	    DW_DLV_OK)
		return -1;
	for (i = 0; i < n && rl[i].dwr_type != DW_RANGES_END; i++) {
		if (rl[i].dwr_type == DW_RANGES_ADDRESS_SELECTION)
			base = rl[i].dwr_addr2;
		else if (d9s_ranges_add(out, base + rl[i].dwr_addr1,
		    base + rl[i].dwr_addr2) == -1) {
			rc = D9S_RANGES_NOMEM;
			break;
		}
	}
	dwarf_ranges_dealloc(dbg, rl, n);
	return rc;
}

static int
read_v5(struct d9s_ranges *out, const struct d9s_cu *cu, Dwarf_Attribute attr,
    Dwarf_Half form, Dwarf_Error *err)
{
	Dwarf_Rnglists_Head head;
	Dwarf_Unsigned value, count, goff, i;
	Dwarf_Off off;
	int rc = 1;

	if (form == DW_FORM_rnglistx) {
		if (dwarf_formudata(attr, &value, err) != DW_DLV_OK)
			return -1;
	} else {
		if (dwarf_global_formref(attr, &off, err) != DW_DLV_OK ||
		    !d9s_dwcheck_rnglist_at(cu->chk, off))
			return -1;
		value = off;
	}
	if (dwarf_rnglists_get_rle_head(attr, form, value, &head, &count,
	    &goff, err) != DW_DLV_OK)
		return -1;
	for (i = 0; i < count; i++) {
		Dwarf_Unsigned raw1, raw2, lo, hi;
		Dwarf_Bool unavailable = 0;
		unsigned len, code;

		if (dwarf_get_rnglists_entry_fields_a(head, i, &len, &code,
		    &raw1, &raw2, &unavailable, &lo, &hi, err) != DW_DLV_OK) {
			rc = -1;
			break;
		}
		if (code == DW_RLE_end_of_list)
			break;
		if (code == DW_RLE_base_address ||
		    code == DW_RLE_base_addressx || unavailable)
			continue;
		if (d9s_ranges_add(out, lo, hi) == -1) {
			rc = D9S_RANGES_NOMEM;
			break;
		}
	}
	dwarf_dealloc_rnglists_head(head);
	return rc;
}

int
d9s_ranges_read(struct d9s_ranges *out, const struct d9s_cu *cu, Dwarf_Die die,
    Dwarf_Error *err)
{
	Dwarf_Attribute attr;
	Dwarf_Half form;
	int rc;

	out->n = 0;
	rc = dwarf_attr(die, DW_AT_ranges, &attr, err);
	if (rc == DW_DLV_ERROR)
		return -1;
	if (rc == DW_DLV_NO_ENTRY)
		return read_lowhigh(out, die, err);
	if (dwarf_whatform(attr, &form, err) != DW_DLV_OK)
		rc = -1;
	else if (cu->version >= 5 || form == DW_FORM_rnglistx)
		rc = read_v5(out, cu, attr, form, err);
	else
		rc = read_v4(out, cu->dbg, die, attr, cu->base, err);
	dwarf_dealloc_attribute(attr);
	return rc;
}

void
d9s_ranges_free(struct d9s_ranges *r)
{
	free(r->r);
	memset(r, 0, sizeof *r);
}
