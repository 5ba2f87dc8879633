/*
 * die.h: reading single DIE attributes with libdwarf 20210528. Absent and
 * unreadable attributes look the same to callers (-1 / NULL); libdwarf
 * errors are deallocated here, so no caller leaks them.
 */
#ifndef D9S_DIE_H
#define D9S_DIE_H

#include <libdwarf/libdwarf.h>

/* Deallocate *err if set and clear it. */
void		 d9s_die_forget(Dwarf_Debug dbg, Dwarf_Error *err);
/* A string attribute; points into libdwarf's sections (do not free). */
const char	*d9s_die_string(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at);
/* A constant attribute, DW_FORM_implicit_const included. 0 or -1. */
int		 d9s_die_udata(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at,
		    Dwarf_Unsigned *v);
/* A reference attribute as a .debug_info offset. 0 or -1. */
int		 d9s_die_ref(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half at,
		    Dwarf_Off *off);
/* The sibling after die into *next, deallocating die: DW_DLV_OK,
 * DW_DLV_NO_ENTRY at the end of the list, DW_DLV_ERROR when it cannot be
 * read or does not come after die (a DW_AT_sibling pointing back would
 * make a walk go round for ever). */
int		 d9s_die_next(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Die *next);
/* The DIE at a .debug_info offset (caller deallocates), or NULL. */
Dwarf_Die	 d9s_die_at(Dwarf_Debug dbg, Dwarf_Off off);

#endif
