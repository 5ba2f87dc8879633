/*
 * browse.h: what the browser's fuzz targets share (fuzz_tui.c,
 * fuzz_keys.c): a trace file in a headless app, as the browser's loader
 * makes it.
 */
#ifndef D9_FUZZ_BROWSE_H
#define D9_FUZZ_BROWSE_H

#include "tui/app.h"

/* The trace at *path loaded, finished and indexed by lane into a new
 * app whose jobs run at once (cfg, made here, and path are the app's:
 * the caller keeps them while it lives): 0, or -1 when there is nothing
 * to browse (d9top says so; no app). */
int	fz_browse(struct d9t_app *app, struct d9t_config *cfg,
	    const char *const *path);

#endif
