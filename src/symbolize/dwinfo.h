/*
 * dwinfo.h: a check of .debug_info against .debug_abbrev before libdwarf
 * 20210528 walks it (part of dwcheck.h). Every DIE of every unit is
 * decoded the way libdwarf decodes it: unit headers (DWARF 2 to 5),
 * abbreviation tables, each attribute's form and the size of its value,
 * all inside the unit. DW_AT_sibling is what matters: libdwarf's
 * dwarf_siblingof_b() jumps to it without checking that it moves on,
 * and one pointing at its own DIE makes it loop for ever (found by
 * fuzz_dwarf). So each DW_AT_sibling must point past its DIE, at the
 * start of a DIE or a null entry of the same unit, or at the unit's end.
 */
#ifndef D9S_DWINFO_H
#define D9S_DWINFO_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

struct d9_buf;

/* The initial length of a unit at b (4 bytes, or 0xffffffff and 8): its
 * end offset into *end and its offset size (4 or 8) into *osize; -1 when
 * it is reserved, cut, or longer than what is left. */
int	d9s_dwarf_unit_length(struct d9_buf *b, size_t *end, unsigned *osize);
/* 0, or -D9_ERR_BAD_VALUE (-D9_ERR_NOMEM) with e->msg naming the unit. */
int	d9s_dwinfo_check(const uint8_t *info, size_t ninfo,
	    const uint8_t *abbrev, size_t nabbrev, struct d9_err *e);

#endif
