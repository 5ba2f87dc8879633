/*
 * dwcheck.h: checks of DWARF sections that libdwarf 20210528 trusts too
 * much. A corrupted .debug_rnglists or .debug_loclists unit header makes
 * that version free memory twice while loading .debug_info (seen in our
 * corruption tests); the headers are checked here first, so such a file
 * is refused with a message instead of crashing d9top.
 */
#ifndef D9S_DWCHECK_H
#define D9S_DWCHECK_H

#include "base/err.h"

/* 0 when the list sections of the ELF file at path are consistent (or
 * absent, or compressed: libdwarf checks those while inflating). */
int	d9s_dwcheck_lists(const char *path, struct d9_err *e);

#endif
