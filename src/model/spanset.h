/*
 * spanset.h: the span instances of a window (ANALYSIS 6: each life of a
 * span id that first enters in the window, from that enter to its last
 * exit, raw wall time; see spans.c), grouped by name with exact
 * percentiles, optionally only those whose fields contain a text. The
 * spans view, the poll detail and the analysis's span figures all come
 * from here. A span without a name is named "unknown", as dial9 does.
 */
#ifndef D9M_SPANSET_H
#define D9M_SPANSET_H

#include <stddef.h>
#include <stdint.h>

#include "model/analysis.h"
#include "model/window.h"

struct d9m_span {
	uint64_t	start, end;
	uint32_t	name, worker, fields;
};

struct d9m_span_name {
	uint32_t	name;
	struct d9m_pct	dur;
	size_t		first;		/* instances [first, first + dur.count) */
};

struct d9m_spanset {
	struct d9m_span	*v;		/* by name, then longest first */
	size_t		 n;
	struct d9m_span_name *names;	/* most frequent first */
	size_t		 nnames;
	size_t		 unmatched;	/* lives entered in the window that
					 * never exited */
};

/* filter: NULL or "" for all. NULL when out of memory. */
struct d9m_spanset *d9m_spanset_build(const struct d9m_model *m,
	    const struct d9m_window *w, const char *field_filter);
void	d9m_spanset_free(struct d9m_spanset **s);
/* The value id of key in a field list, D9_NONE when absent. */
uint32_t d9m_field(const struct d9m_model *m, uint32_t fields, uint32_t key);
/* "key=value key=value", escaped, into out. */
void	d9m_fields_text(const struct d9m_model *m, uint32_t fields, char *out,
	    size_t cap);

#endif
