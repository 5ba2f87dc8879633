/*
 * ksymline.h: one line of /proc/kallsyms, "ADDRESS TYPE NAME [MODULE]",
 * as d9top (symbolize/kallsyms.c, a copy given with --kallsyms) and
 * libd9rec (rec/ksyms.c, the live file) both read it. Only text symbols
 * (types t, T, w, W) name code; read under kptr_restrict, every address
 * is zero.
 */
#ifndef D9_KSYMLINE_H
#define D9_KSYMLINE_H

#include <stddef.h>
#include <stdint.h>

enum d9_ksym {
	D9_KSYM_SKIP,		/* a symbol, not of text; a blank line */
	D9_KSYM_TEXT,		/* a text symbol: *addr, *name, *len */
	D9_KSYM_ZERO,		/* a text symbol at address 0 */
	D9_KSYM_BAD		/* not "ADDRESS TYPE NAME" */
};

/* line: NUL-terminated. The name is not: *len bytes at *name, inside
 * line (up to the first blank or line end). */
enum d9_ksym d9_ksym_line(const char *line, uint64_t *addr,
	    const char **name, size_t *len);

#endif
