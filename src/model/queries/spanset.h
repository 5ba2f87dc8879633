/*
 * spanset.h: the span instances of a window (those that start in it, see
 * spans.c: a legacy life from its first enter to its last exit, raw wall
 * time (ANALYSIS 6); a dial9 0.5 instance over its lifecycle, start to
 * close; a single-event span), grouped by name with exact percentiles of
 * their durations, optionally only those whose fields contain a text.
 * The spans view, the poll detail and the analysis's span figures all
 * come from here. A span without a name is named "unknown", as dial9
 * does.
 */
#ifndef D9M_SPANSET_H
#define D9M_SPANSET_H

#include <stddef.h>
#include <stdint.h>

#include "model/queries/select.h"
#include "model/queries/query.h"
#include "model/queries/window.h"

struct d9m_span {
	uint64_t	start, end;
	uint64_t	active;		/* of it, time entered (on CPU) */
	uint32_t	name, worker, fields;
	uint32_t	row;		/* in m->spans (its parent, slices) */
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

/* The spans of q's window (query.h), q's text a field filter ("": all).
 * NULL when out of memory. */
struct d9m_spanset *d9m_spanset_build(const struct d9m_model *m,
	    const struct d9m_query *q);
void	d9m_spanset_free(struct d9m_spanset **s);
/* The order of the names of a set: most instances first, then by the
 * name's text (no name last), not its id: ids are the order names were
 * first met, which a directory followed while it is written meets
 * otherwise than a fresh read (qsort's sign). */
int	d9m_spanset_order(const struct d9m_model *m, const struct d9m_pct *da,
	    uint32_t na, const struct d9m_pct *db, uint32_t nb);
/* The value id of key in a field list, D9_NONE when absent. */
uint32_t d9m_field(const struct d9m_model *m, uint32_t fields, uint32_t key);
/* "key=value key=value", escaped, into out. */
void	d9m_fields_text(const struct d9m_model *m, uint32_t fields, char *out,
	    size_t cap);

#endif
