/*
 * appev.h: the application's own events: every event of a schema d9top
 * does not read itself (struct d9m_custom), less the process samples it
 * draws as strips (ProcessResourceUsageEvent, the accept queues). Each
 * is put on the lane of the worker that recorded it: its worker_id
 * field, else the worker its tid field ran as (the last park or unpark
 * of that thread), and in the poll running there at that time. A text
 * (a request id) is found in span fields and event fields alike.
 */
#ifndef D9M_APPEV_H
#define D9M_APPEV_H

#include <stddef.h>
#include <stdint.h>

#include "model/core/model.h"
#include "model/queries/window.h"

/* Fill m->appev (d9m_model_finish); -1 when out of memory. */
int	d9m_appev_derive(struct d9m_model *m);
void	d9m_appev_free(struct d9m_model *m);

/* Application events in w, of schema name (D9_NONE: any) with a field
 * value containing text (NULL or "": any): indexes into m->appev, in
 * time order, into *out (malloc'd). -1 when out of memory. */
int	d9m_appev_select(const struct d9m_model *m, const struct d9m_window *w,
	    uint32_t name, const char *text, uint32_t **out, size_t *n);

/* The schemas of the application events ev[0 .. n) (indexes into
 * m->appev) and how many of each, in order of first appearance, into
 * *names and *counts (malloc'd, *k of them). -1 when out of memory. */
int	d9m_appev_schemas(const struct d9m_model *m, const uint32_t *ev,
	    size_t n, uint32_t **names, size_t **counts, size_t *k);

/* A place a text was found. */
enum d9m_match_kind { D9M_MATCH_EVENT, D9M_MATCH_SPAN };
struct d9m_match {
	uint64_t	 ts;
	uint32_t	 lane;		/* worker slot, D9_NONE */
	uint8_t		 kind;		/* enum d9m_match_kind */
	uint32_t	 row;		/* index in m->appev, or span life */
};

/* Spans (lives, m->spans) and application events with a field value
 * containing text, in time order, into *out (malloc'd). */
int	d9m_find_text(const struct d9m_model *m, const char *text,
	    struct d9m_match **out, size_t *n);

#endif
