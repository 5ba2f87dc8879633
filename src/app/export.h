/*
 * export.h: d9top --export parquet OUTDIR PATH... (src/export): the
 * resolver of the options, progress on stderr, a summary at the end.
 */
#ifndef D9A_EXPORT_H
#define D9A_EXPORT_H

#include "app/opts.h"

/* The exit status: 0, 1 when nothing could be read or written, 2 for an
 * unusable file of the resolver's options. */
int	d9a_export_main(const struct d9a_opts *o);

#endif
