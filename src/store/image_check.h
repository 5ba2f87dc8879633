/*
 * image_check.h: what opening an image (image.h) checks of the values
 * in its columns, beyond their sizes. An entry of the index is untrusted
 * input (DESIGN.md), and its checksum is no secret: every row index,
 * string, stack or list id and offset that points into another table
 * must be below that table's row count (or be the column's "none" where
 * it may have one), and what the code searches by value must be in
 * order. An image that fails is refused, and the traces are read again.
 *
 * The walk (image_walk.h) declares a check per column as it maps it;
 * the checks run over the file's bytes in the pass that sums them, block
 * by block, so that each byte is read once (d9i_icheck_run). What joins
 * several columns, and the field lists' contents, is checked once the
 * whole model is mapped (d9i_icheck_model).
 */
#ifndef D9I_IMAGE_CHECK_H
#define D9I_IMAGE_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "model/core/model.h"
#include "model/core/table.h"

/* What a column's values index: a count of the model's. */
enum d9i_ick_to {
	D9I_TO_NOTHING,		/* only the order is checked */
	D9I_TO_STR, D9I_TO_STACK, D9I_TO_LIST, D9I_TO_TASK, D9I_TO_SEG,
	D9I_TO_GROUP, D9I_TO_POLL, D9I_TO_CUSTOM, D9I_TO_METRIC,
	D9I_TO_SLOT,		/* worker slot: < nworkers */
	D9I_TO_WID,		/* worker row: < wids.n */
	D9I_TO_RTGROUP,		/* runtime group: < nruntimes */
	D9I_TO_SPAN, D9I_TO_WAKE, D9I_TO_SYMBOL,
	D9I_TO_STACK_SEG,	/* u64 stack << 32 | segment (D9I_ICK_PAIR) */
	D9I_TO_SPANTAG,
	/* with D9I_ICK_RUNS: ascending within each worker's rows */
	D9I_TO_POLL_RUNS, D9I_TO_PARK_RUNS, D9I_TO_ACT_RUNS,
	D9I_TO_POLLS_ALL,	/* an offset: <= polls.n */
	D9I_TO_WAKES_ALL,	/* <= wakes.n */
	D9I_TO_SYMBOLS_ALL	/* <= symbols.n */
};

#define D9I_ICK_NONE	1	/* may be D9_NONE */
#define D9I_ICK_ASC	2	/* ascending */
#define D9I_ICK_PAIR	4	/* u64 of two u32, each below its half of
				 * the bound (D9I_TO_STACK_SEG) */
#define D9I_ICK_RUNS	8	/* ascending within each worker's rows of
				 * its table (D9I_TO_*_RUNS): windows of
				 * one worker are searched by time */

/* One column's check: its elements in the file and what they must be. */
struct d9i_icheck {
	uint64_t	 off;		/* of the column in the file */
	uint64_t	 n;		/* elements */
	uint64_t	 bound;		/* each below it (UINT64_MAX: any) */
	uint8_t		 elem;		/* 1, 4 or 8 bytes */
	uint8_t		 flags;		/* D9I_ICK_* */
	uint8_t		 runs;		/* D9I_ICK_RUNS: whose rows */
};

/* What column col of table t (of m) indexes (D9I_TO_NOTHING: nothing,
 * or the runs of D9I_ICK_RUNS) and its flags; the column a table is
 * sorted by is D9I_ICK_ASC. */
struct d9m_tabref;
unsigned d9i_icheck_col(struct d9m_model *m, const struct d9m_tabref *t,
	    size_t col, enum d9i_ick_to *to);
/* The bound of to in m (its scalars read): values must be below it. */
uint64_t d9i_icheck_bound(const struct d9m_model *m, enum d9i_ick_to to);
/* Run the checks c[0 .. n) (in file order, apart) over the elements
 * whose first byte is in [a, e) of the file, its bytes held at p: p - 64
 * .. p + (e - a) + 64 hold the file's bytes around them too, where the
 * file has them (an element before, for the order checks; the end of
 * the last), and p is as aligned as a is modulo 64. m's workers mapped
 * and their rows checked: 0, or -1 when a value there fails. */
int	 d9i_icheck_run(const struct d9m_model *m, const struct d9i_icheck *c,
	    size_t n, const uint8_t *p, uint64_t a, uint64_t e);
/* What joins columns (the workers' rows, the field lists): 0, or -1
 * with *why. */
int	 d9i_icheck_model(const struct d9m_model *m, const char **why);

#endif
