/*
 * compare.h: the modes that compare: --diff OLD NEW (two runs, each a
 * trace, a directory or a --json output of an earlier run, told apart by
 * content) and --check RULES (with --baseline FILE).
 */
#ifndef D9A_COMPARE_H
#define D9A_COMPARE_H

#include <stdio.h>

#include "app/opts.h"

/* The exit status of each mode (main.c's list; 3: a rule failed), its
 * answer written to f (whether all of f reached its file is the
 * caller's to check). */
int	d9a_diff_main(const struct d9a_opts *o, FILE *f);
int	d9a_check_main(const struct d9a_opts *o, FILE *f);

#endif
