/*
 * loader.h: loading in a background thread, so the first frame never
 * waits for the input: read (with progress and cancel), finish the model,
 * build the browser's index.
 *
 * While it reads, the loader hands out partial models now and then: a
 * snapshot of what was read so far, finished and indexed, so the views
 * work during a long load. Snapshots are spaced so that they cost at
 * most about a fifth of the loading time. A partial model shares strings
 * with the loader's own model: free it before d9t_loader_free().
 *
 * Inputs the index (store/store.h) holds are mapped from it, whole and
 * at once; others are kept there once read (unless D9T_LOAD_NO_CACHE),
 * and the entry, mapped, then takes the model's place. Inputs that changed
 * since the index's entry of the same paths was made (a directory that
 * gained segments, lost its oldest to the recorder's retention, or
 * whose .active segment was sealed) are read again, and that entry,
 * mapped, is the first partial model meanwhile (the only one: a model
 * of part of the new read would show less); the views carry what they
 * show over by text and task id (view.h: keeps_str, keeps_task).
 *
 * With follow set the loader never finishes: after the inputs are read it
 * keeps watching them for new segments (see parse/follow.h) and hands out
 * a new partial model whenever some arrived.
 */
#ifndef D9T_LOADER_H
#define D9T_LOADER_H

#include <stddef.h>

#include "model/core/model.h"
#include "model/queries/lanes.h"
#include "store/cache.h"

struct d9t_loader;

enum {
	D9T_LOAD_FOLLOW = 1,	/* keep reading (--follow) */
	D9T_LOAD_WHOLE = 2,	/* no partial models (benchmarks compare) */
	D9T_LOAD_NO_CACHE = 4,	/* neither read nor write the index */
	D9T_LOAD_STREAM = 8	/* every input streams (D9TOP_STREAM) */
};
/* where: the index (NULL: none); mem_budget: the model's most
 * (d9p_read_opts'), 0: none. */
struct d9t_loader *d9t_loader_new(const char *const *paths, size_t npaths,
	    int flags, const struct d9i_where *where, uint64_t mem_budget);
/* 0 loading, 1 finishing, 2 done (the model can be taken). */
int	d9t_loader_state(struct d9t_loader *ld);
/* Following: 1 once nothing more can arrive (stdin ended). */
int	d9t_loader_ended(struct d9t_loader *ld);
void	d9t_loader_progress(struct d9t_loader *ld, uint64_t *bytes,
	    uint64_t *total, uint64_t *events);
/* The newest partial model and its index, if one was made since the last
 * call (the caller owns both); 0 when there is none. */
int	d9t_loader_partial(struct d9t_loader *ld, struct d9m_model **m,
	    struct d9m_lanes **ix);
/* Whether the first partial model is the index's entry of the inputs
 * before they changed: 1 with *p (how they differ, store/files.h), else 0
 * (p->how D9I_NONE). */
int	d9t_loader_prior(struct d9t_loader *ld, struct d9i_prior *p);
/* After done: the model and index (caller owns them; NULL on OOM) and
 * the read statistics. */
void	d9t_loader_take(struct d9t_loader *ld, struct d9m_model **m,
	    struct d9m_lanes **ix, struct d9p_read_stats *st);
/* After done, once the whole model was written to the index: that entry,
 * mapped, to take the place of the model (the same figures, memory of
 * the page cache's); 1 once with *m and *ix (the caller owns them), 0
 * while it may still come, -1 when none will (the model came from the
 * index, the inputs are live or unreadable, the write failed or was
 * stopped). The model it replaces still holds the strings of every partial
 * model: free it after them. */
int	d9t_loader_mapped(struct d9t_loader *ld, struct d9m_model **m,
	    struct d9m_lanes **ix);
/* After done, the model may still be being written to the index (by
 * the loader's thread, reading it): stop that and wait for the thread,
 * before the model is freed. */
void	d9t_loader_stop(struct d9t_loader *ld);
/* Cancel if still running and free; a thread stuck in a read (a silent
 * pipe) is left to die with the process. */
void	d9t_loader_free(struct d9t_loader **ld);

#endif
