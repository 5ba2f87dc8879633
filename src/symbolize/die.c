/* die.c: see die.h. */
#include <stddef.h>

#include "symbolize/die.h"

void
d9s_die_forget(Dwarf_Debug dbg, Dwarf_Error *err)
{
	if (*err != NULL) {
		dwarf_dealloc_error(dbg, *err);
		*err = NULL;
	}
}

const char *
d9s_die_string(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at)
{
	Dwarf_Error err = NULL;
	char *s = NULL;

	if (dwarf_die_text(die, at, &s, &err) != DW_DLV_OK) {
		d9s_die_forget(dbg, &err);
		return NULL;
	}
	return s;
}

static Dwarf_Attribute
die_attr(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at)
{
	Dwarf_Error err = NULL;
	Dwarf_Attribute attr;

	if (dwarf_attr(die, at, &attr, &err) != DW_DLV_OK) {
		d9s_die_forget(dbg, &err);
		return NULL;
	}
	return attr;
}

int
d9s_die_udata(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at,
    Dwarf_Unsigned *v)
{
	Dwarf_Attribute attr = die_attr(dbg, die, at);
	Dwarf_Error err = NULL;
	Dwarf_Signed sv;
	int rc;

	if (attr == NULL)
		return -1;
	rc = dwarf_formudata(attr, v, &err);
	d9s_die_forget(dbg, &err);
	if (rc != DW_DLV_OK) {
		/* DW_FORM_implicit_const (gcc, DWARF 5) reads only as signed */
		rc = dwarf_formsdata(attr, &sv, &err);
		d9s_die_forget(dbg, &err);
		if (rc == DW_DLV_OK && sv >= 0)
			*v = (Dwarf_Unsigned)sv;
		else
			rc = DW_DLV_ERROR;
	}
	dwarf_dealloc_attribute(attr);
	return rc == DW_DLV_OK ? 0 : -1;
}

int
d9s_die_ref(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at, Dwarf_Off *off)
{
	Dwarf_Attribute attr = die_attr(dbg, die, at);
	Dwarf_Error err = NULL;
	int rc;

	if (attr == NULL)
		return -1;
	rc = dwarf_global_formref(attr, off, &err);
	d9s_die_forget(dbg, &err);
	dwarf_dealloc_attribute(attr);
	return rc == DW_DLV_OK ? 0 : -1;
}

Dwarf_Die
d9s_die_at(Dwarf_Debug dbg, Dwarf_Off off)
{
	Dwarf_Error err = NULL;
	Dwarf_Die die;

	if (dwarf_offdie_b(dbg, off, 1, &die, &err) != DW_DLV_OK) {
		d9s_die_forget(dbg, &err);
		return NULL;
	}
	return die;
}

/* rc from libdwarf for die; DW_DLV_ERROR (die deallocated) when it does
 * not lie after `after` and before end. */
static int
in_order(Dwarf_Debug dbg, int rc, Dwarf_Die die, Dwarf_Off after,
    Dwarf_Off end, Dwarf_Off *at)
{
	Dwarf_Error err = NULL;

	if (rc != DW_DLV_OK)
		return rc;
	if (dwarf_dieoffset(die, at, &err) != DW_DLV_OK || *at <= after ||
	    *at >= end) {
		d9s_die_forget(dbg, &err);
		dwarf_dealloc_die(die);
		return DW_DLV_ERROR;
	}
	return DW_DLV_OK;
}

int
d9s_die_child(Dwarf_Debug dbg, Dwarf_Die parent, Dwarf_Off end,
    Dwarf_Die *child)
{
	Dwarf_Error err = NULL;
	Dwarf_Off at, pat;
	int rc;

	if (dwarf_dieoffset(parent, &pat, &err) != DW_DLV_OK) {
		d9s_die_forget(dbg, &err);
		return DW_DLV_ERROR;
	}
	rc = dwarf_child(parent, child, &err);
	d9s_die_forget(dbg, &err);
	return in_order(dbg, rc, *child, pat, end, &at);
}

int
d9s_die_next(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Off end, Dwarf_Die *next,
    Dwarf_Off *bound)
{
	Dwarf_Error err = NULL;
	Dwarf_Off at;
	int rc;

	*bound = end;
	if (dwarf_dieoffset(die, &at, &err) != DW_DLV_OK) {
		d9s_die_forget(dbg, &err);
		return DW_DLV_ERROR;
	}
	rc = dwarf_siblingof_b(dbg, die, 1, next, &err);
	d9s_die_forget(dbg, &err);
	if ((rc = in_order(dbg, rc, *next, at, end, &at)) == DW_DLV_OK)
		*bound = at;
	return rc;
}
