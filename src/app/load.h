/*
 * load.h: what every non-interactive mode does first: make the resolver
 * of the options, read inputs into a finished model and (optionally)
 * analyse a window of it. --diff does it once per side, with the side's
 * own window.
 */
#ifndef D9A_LOAD_H
#define D9A_LOAD_H

#include <stddef.h>

#include <pthread.h>

#include "app/meter.h"
#include "app/opts.h"
#include "model/figures/analysis.h"
#include "store/store.h"
#include "model/core/model.h"

/* A window in milliseconds from the trace's start, as --window gives. */
struct d9a_win {
	int		have;
	double		lo_ms, hi_ms;	/* hi_ms < 0: to the end */
};

struct d9a_load {
	struct d9m_model	*m;
	struct d9m_resolver	*res;
	struct d9m_analysis_opts ao;	/* ao.win: the window, absolute */
	struct d9m_analysis	 a;
	int			 analysed;
	struct d9i_store	 in;		/* the inputs (store/store.h) */
	struct d9m_lanes	*lanes;		/* read with the model from it */
	pthread_t		 store;		/* writing it, when storing */
	int			 storing;
	int			 keep;		/* closed: the detached writer
						 * starts (app/keep.h), or -1 */
	struct d9a_meter	 meter;		/* the read's progress */
	int			 metered;	/* meter made, to free */
};

/* Messages about input, on stderr ("d9top: ..."), escaped. */
void	d9a_note(void *ctx, const char *msg);
/* The resolver of o's --binary, --debug-dir, ... (its notes to note as
 * they arise, unless NULL or --quiet); NULL and a message when a file is
 * unusable. */
struct d9m_resolver *d9a_resolver(const struct d9a_opts *o,
	    void (*note)(void *ctx, const char *msg), void *note_ctx);
/* The window of o. */
struct d9a_win d9a_win_of(const struct d9a_opts *o);
/* Load paths (through the index unless --no-cache), finish the model
 * and, with analyse, analyse window w (o's
 * --worst and --chain). 0, or the exit status after a message: 1 when
 * nothing could be read (or out of memory), 2 for an unusable file of
 * the resolver's options. l is freed on failure. */
int	d9a_load(struct d9a_load *l, const struct d9a_opts *o,
	    const char *const *paths, size_t npaths, const struct d9a_win *w,
	    int analyse);
void	d9a_load_free(struct d9a_load *l);

#endif
