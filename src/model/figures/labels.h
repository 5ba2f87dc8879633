/*
 * labels.h: the name of each row of a list of stacks (a report
 * section's rows: blocking calls, hotspots, a poll's stacks, task dumps,
 * allocation sites), one text the report, --json ("label") and the
 * browser all show. A row is named by the first frame that tells it
 * apart: its first frame outside kernel, libc, allocator and runtime
 * plumbing (framekind.h), then, where rows share that frame, the first
 * caller that differs ("X from Y"), then the first frame toward the
 * leaf that differs ("X at Z"), and last a number ("X #2"): no two rows
 * of one list read the same.
 */
#ifndef D9M_LABELS_H
#define D9M_LABELS_H

#include <stddef.h>
#include <stdint.h>

#include "model/core/frames.h"

struct d9m_analysis;
struct d9m_analysis_opts;

#define D9M_LABELED	10	/* rows of a list that are named */

/* One row to name: its stack and the segment its symbols come from. */
struct d9m_label_row {
	uint32_t	 seg, stack;
};

/* Labels of rows[0..n) into out[0..n), each malloc'd (NULL when out of
 * memory); alloc: the stacks of allocations (hooks stripped). -1 when
 * out of memory. */
int	d9m_label_rows(const struct d9m_model *m,
	    const struct d9m_resolver *r, const struct d9m_label_row *rows,
	    size_t n, int alloc, char **out);
/* Labels of the first D9M_LABELED rows of the lists of *a, as sections
 * of the analysis (analysis.h), each after the section that makes its
 * lists: the stack groups of the samples and of the worst polls (after
 * d9m_an_cpu), the idle groups (d9m_an_dumps), the allocation sites
 * (d9m_an_memory). */
int	d9m_an_labels_cpu(const struct d9m_model *m,
	    const struct d9m_analysis_opts *o, struct d9m_analysis *a);
int	d9m_an_labels_idle(const struct d9m_model *m,
	    const struct d9m_analysis_opts *o, struct d9m_analysis *a);
int	d9m_an_labels_sites(const struct d9m_model *m,
	    const struct d9m_analysis_opts *o, struct d9m_analysis *a);
/* Free what the three set. */
void	d9m_labels_free(struct d9m_analysis *a);

#endif
