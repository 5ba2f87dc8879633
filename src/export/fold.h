/*
 * fold.h: the folds of one source's rows (source.h) into its leaves of
 * FLEET.md's tables, each from the model's own tables and figures, so
 * that a leaf says what --json says of the same rows. Each fold writes
 * and renames its tables' leaves (leaf.h); on failure what it began is
 * dropped and out->e says why.
 */
#ifndef D9X_FOLD_H
#define D9X_FOLD_H

#include <stdint.h>

#include "export/leaf.h"
#include "export/source.h"
#include "export/stacks.h"

struct d9x_fold {
	struct d9x_out		*out;
	const struct d9x_source	*src;
	struct d9x_stacks	 stacks;	/* of samples and allocations */
	uint64_t		 events;	/* read from the input */
	int			 one_input_seg;	/* the input is one segment */
};

/* polls, wakes, parks, tasks */
int	d9x_fold_runtime(struct d9x_fold *x);
/* samples, allocations, then stacks (every id they named) */
int	d9x_fold_samples(struct d9x_fold *x);
/* spans, runtime_metrics, metrics */
int	d9x_fold_spans(struct d9x_fold *x);
int	d9x_fold_metrics(struct d9x_fold *x);
/* segments: the last leaf of a source (export.c: its presence says
 * the source was exported whole) */
int	d9x_fold_segments(struct d9x_fold *x);

/* Close every leaf of l[0 .. n) (rc: how the fold went): 0 or -1. */
int	d9x_leaves_end(struct d9x_leaf *l, size_t n, int rc);

#endif
