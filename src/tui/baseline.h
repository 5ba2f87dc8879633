/*
 * baseline.h: the baseline window (`b`): the window marked as what the
 * current one is compared with. The tasks, spans and flame views ask for
 * their figures of both windows (the jobs' baseline twins) and show each
 * row's change (model/figures/diff.h); `d` sorts their rows by it.
 */
#ifndef D9T_BASELINE_H
#define D9T_BASELINE_H

#include <stddef.h>

#include "model/figures/diff.h"
#include "tui/app.h"

/* Two windows' rows by name compared: the tasks' spawn locations or the
 * spans' names. row_of[i]: the row of the current window's i-th. */
struct d9t_cmp {
	struct d9m_side		 old, new;
	struct d9m_diff		 d;
	const struct d9m_dpct	*rows;
	size_t			 nrows;
	size_t			*row_of;
};

/* b: the current window becomes the baseline; on the baseline itself,
 * the baseline is cleared. */
void	d9t_baseline_toggle(struct d9t_app *app);
/* d: rows by change, or back (with a baseline). */
void	d9t_baseline_sort(struct d9t_app *app);
/* The result of job kind k for q over the baseline window instead of
 * q's; NULL without a baseline or while it is computed. */
void	*d9t_baseline_get(struct d9t_app *app, enum d9t_job k,
	    const struct d9t_req *q);
/* "0.000s..0.202s", the baseline window. */
void	d9t_baseline_text(const struct d9t_app *app, char *out, size_t cap);
/* The line over a compared table: what is compared with which window
 * (cmp 0: still computing), and how its rows (the word) are ordered. */
void	d9t_baseline_line(struct d9t_app *app, struct d9t_list *l, int cmp,
	    const char *what, const char *rows);
/* Compare the analyses' spawn locations (base NULL: no comparison), or
 * the spansets' names. -1 when there is nothing to compare. */
int	d9t_cmp_locs(struct d9t_cmp *c, const struct d9m_model *m,
	    const struct d9m_analysis *base, const struct d9m_analysis *cur);
int	d9t_cmp_spans(struct d9t_cmp *c, const struct d9m_model *m,
	    const struct d9m_spanset *base, const struct d9m_spanset *cur);
void	d9t_cmp_free(struct d9t_cmp *c);
/* A row's change as two columns, "+4.90ms  +12.0%" (p99, share), or
 * "new" / "gone". */
void	d9t_cmp_cols(const struct d9t_app *app, const struct d9m_dpct *r,
	    char *out, size_t cap);

#endif
