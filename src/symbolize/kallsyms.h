/*
 * kallsyms.h: kernel function names from a copy of /proc/kallsyms
 * ("ADDRESS TYPE NAME [MODULE]" a line). Only text symbols (t, T, w, W)
 * are kept, sorted by address; an address is named by the nearest
 * symbol at or below it. A file whose addresses are all zero (read with
 * kptr_restrict in force) is refused: it would name nothing.
 */
#ifndef D9S_KALLSYMS_H
#define D9S_KALLSYMS_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

struct d9s_kallsyms;

/* 0 or -D9_ERR_* (unreadable, no usable symbol) with e->msg set. */
int	d9s_kallsyms_load(struct d9s_kallsyms **out, const char *path,
	    struct d9_err *e);
void	d9s_kallsyms_free(struct d9s_kallsyms **k);
/* How many lines were not "ADDRESS TYPE NAME" (skipped), and the number
 * of the first one (from 1). */
size_t	d9s_kallsyms_bad(const struct d9s_kallsyms *k, size_t *first);
/* The name of the function holding addr, or NULL (below every symbol).
 * The string lives as long as k. */
const char *d9s_kallsyms_find(const struct d9s_kallsyms *k, uint64_t addr);

#endif
