/*
 * spans.h: span instances of a window (ANALYSIS 6: first enter to last
 * exit of a span id, raw wall time), grouped by name with exact
 * percentiles, optionally only those whose fields contain a text.
 */
#ifndef D9T_SPANS_H
#define D9T_SPANS_H

#include <stddef.h>
#include <stdint.h>

#include "model/analysis.h"

struct d9t_span {
	uint64_t	start, end;
	uint32_t	name, worker, fields;
};

struct d9t_span_name {
	uint32_t	name;
	struct d9m_pct	dur;
	size_t		first;		/* instances [first, first + dur.count) */
};

struct d9t_spans {
	struct d9t_span	*v;		/* by name, then longest first */
	size_t		 n;
	struct d9t_span_name *names;	/* most frequent first */
	size_t		 nnames;
	size_t		 unmatched;
};

struct d9t_spans *d9t_spans_build(const struct d9m_model *m, uint64_t lo,
	    uint64_t hi, const char *field_filter);
void	d9t_spans_free(struct d9t_spans **s);
/* "key=value key=value", escaped, into out. */
void	d9t_fields_text(const struct d9m_model *m, uint32_t fields, char *out,
	    size_t cap);

#endif
