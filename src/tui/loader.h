/*
 * loader.h: loading in a background thread, so the first frame never
 * waits for the input: read (with progress and cancel), finish the model,
 * build the browser's index. The UI thread polls d9t_loader_done() and
 * then takes the model; until then the loader owns it.
 */
#ifndef D9T_LOADER_H
#define D9T_LOADER_H

#include <stddef.h>

#include "model/model.h"
#include "tui/index.h"

struct d9t_loader;

struct d9t_loader *d9t_loader_start(const char *const *paths, size_t npaths);
/* 0 loading, 1 finishing, 2 done. */
int	d9t_loader_state(struct d9t_loader *ld);
void	d9t_loader_progress(struct d9t_loader *ld, uint64_t *bytes,
	    uint64_t *total, uint64_t *events);
/* After done: the model and index (caller owns them; NULL on OOM) and
 * the read statistics. */
void	d9t_loader_take(struct d9t_loader *ld, struct d9m_model **m,
	    struct d9t_index **ix, struct d9p_read_stats *st);
/* Cancel if still running and free; a thread stuck in a read (a silent
 * pipe) is left to die with the process. */
void	d9t_loader_free(struct d9t_loader **ld);

#endif
