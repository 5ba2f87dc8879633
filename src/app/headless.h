/*
 * headless.h: d9top's modes without the browser (--json, --report,
 * --folded, --chrome): load the inputs, analyse, write one rendering.
 */
#ifndef D9A_HEADLESS_H
#define D9A_HEADLESS_H

#include <stdio.h>

#include "app/opts.h"

struct d9a_tally;

/* o's mode of o's inputs, written to f, a stream through t (app/tally.h):
 * 0, or the status of d9a_load (app/load.h) after its message. Whether
 * all of it reached its file is the caller's to check (t->err). */
int	d9a_headless(const struct d9a_opts *o, FILE *f, struct d9a_tally *t);

#endif
