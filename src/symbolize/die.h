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
/*
 * Walking a DIE tree whose DW_AT_sibling values are untrusted: a sibling
 * pointing back would make a walk go round for ever, one pointing into
 * an earlier sibling's subtree would make a recursive walk visit DIEs
 * again at every level (2^depth times). So a DIE must come after the one
 * before it and before end, the offset where its parent's next sibling
 * starts (UINT64_MAX at the top): the subtrees of siblings do not
 * overlap, and each DIE is visited at most once per level.
 *
 * The first child of parent into *child, or the sibling after die into
 * *next (die stays allocated), with *bound the offset where that DIE's
 * own children must end: DW_DLV_OK, DW_DLV_NO_ENTRY at the end of the
 * list, DW_DLV_ERROR when it cannot be read or breaks the rule.
 */
int		 d9s_die_child(Dwarf_Debug dbg, Dwarf_Die parent, Dwarf_Off end,
		    Dwarf_Die *child);
int		 d9s_die_next(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Off end,
		    Dwarf_Die *next, Dwarf_Off *bound);
/* The DIE at a .debug_info offset (caller deallocates), or NULL. */
Dwarf_Die	 d9s_die_at(Dwarf_Debug dbg, Dwarf_Off off);

#endif
