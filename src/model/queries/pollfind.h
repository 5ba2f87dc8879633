/*
 * pollfind.h: the timeline's search (/text): the polls of a spawn
 * location whose name holds the text, else the polls in which a sampled
 * stack has a frame whose name holds it (a symbol: crunch_numbers,
 * SyncWait). The next one after a time, else the first.
 */
#ifndef D9M_POLLFIND_H
#define D9M_POLLFIND_H

#include <stdint.h>

#include "model/core/model.h"

struct d9m_resolver;

enum d9m_found { D9M_FOUND_NONE, D9M_FOUND_LOC, D9M_FOUND_FRAME };

/* The first poll matching text that starts after ts, else the first of
 * all, into *poll; what matched. -1 when out of memory. */
int	d9m_poll_find(const struct d9m_model *m, const struct d9m_resolver *r,
	    const char *text, uint64_t ts, uint32_t *poll,
	    enum d9m_found *how);

#endif
