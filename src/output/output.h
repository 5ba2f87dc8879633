/*
 * output.h: the non-interactive renderings of one analysis: JSON (keys of
 * DESIGN.md), the text report (ANALYSIS 12 sections plus red flags) and
 * folded stacks for flamegraph tools.
 */
#ifndef D9O_OUTPUT_H
#define D9O_OUTPUT_H

#include <stdio.h>

#include "base/err.h"
#include "model/figures/analysis.h"

struct d9o_out {
	const struct d9m_model		*m;
	const struct d9m_analysis	*a;
	const struct d9m_resolver	*r;
	FILE				*f;
	const char *const		*inputs;
	size_t				 ninputs;
	uint64_t			 chain;	/* --chain TASK, 0: none */
	int				 all_tasks;	/* --tasks all */
};

void	d9o_json(const struct d9o_out *o);
void	d9o_report(const struct d9o_out *o);
/* The report's TASK FIGURES section (report_tasks.c). */
void	d9o_report_tasks(const struct d9o_out *o);
/* A flame tree as it was built (window, filters, inverted or not) in
 * the folded format, root first: 0, or -1 when out of memory. */
struct d9m_flame;
D9_MUST_USE
int	d9o_folded_tree(FILE *f, const struct d9m_flame *t);
/* --folded: the window's whole tree of kind "cpu", "offcpu" or "alloc"
 * as folded stacks (flamegraph.pl / inferno input): 0, or -1 for
 * another kind or when out of memory. */
D9_MUST_USE
int	d9o_folded(const struct d9o_out *o, const char *kind,
	    const struct d9m_window *w);
/* --diff: two runs compared (model/figures/diff.h), as text or as --json. */
struct d9m_diff;
struct d9o_diff_out {
	FILE			*f;
	const struct d9m_diff	*d;
	const char		*old_name, *new_name;	/* how each run is
							 * named */
};
void	d9o_diff_text(const struct d9o_diff_out *o);
void	d9o_diff_json(const struct d9o_diff_out *o);
/* A --json output read back as one side of a comparison; -1 with a
 * message when it is not one (or out of memory). */
struct d9_jval;
struct d9m_side;
int	d9o_side_from_json(const struct d9_jval *root, struct d9m_side *s,
	    char *err, size_t errlen);
/* --chrome: Chrome trace event JSON of the polls, spans and wakes of
 * the window. */
void	d9o_chrome(const struct d9o_out *o, const struct d9m_window *w);
/* The name a location id is shown under. */
const char *d9o_loc(const struct d9m_model *m, uint32_t loc);

#endif
