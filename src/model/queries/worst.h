/*
 * worst.h: the worst polls of a window, in one order everywhere (the
 * report's and JSON's worstPolls, the browser's w): longest first, on
 * equal durations the lower poll row (worker slot, then start) first.
 */
#ifndef D9M_WORST_H
#define D9M_WORST_H

#include <stddef.h>
#include <stdint.h>

#include "model/core/model.h"
#include "model/queries/window.h"

/* All poll rows in that order into *out (malloc'd, the caller's). */
int	 d9m_polls_by_dur(const struct d9m_model *m, uint32_t **out);
/* The next poll of that order starting in the window, from position
 * *pos of by_dur on; *pos moves past it. D9_NONE when none is left. */
uint32_t d9m_worst_next(const struct d9m_model *m, const uint32_t *by_dur,
	    const struct d9m_window *w, size_t *pos);

#endif
