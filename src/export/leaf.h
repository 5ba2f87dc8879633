/*
 * leaf.h: one leaf file of one table, OUTDIR/<table>/service=S/date=D/
 * host=H/<source key>.parquet (FLEET.md), written atomically: to
 * .<source key>.parquet.tmp beside it (a dot file, which DuckDB's *.parquet
 * globs, Spark and Athena all pass over), renamed into place once the
 * footer is written. A table without rows for the source gets no file:
 * the file is opened with the first row.
 *
 * A fold fills a row's own columns through d9x_leaf_pq, then ends it
 * with d9x_leaf_row; the common columns (tables.h) are the leaf's
 * constants (d9x_pq_const), given once.
 */
#ifndef D9X_LEAF_H
#define D9X_LEAF_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "export/pqwriter.h"
#include "export/source.h"
#include "export/tables.h"

/* Where leaves go, and what was written there (for the summary). */
struct d9x_out {
	const char	*dir;
	uint64_t	 files, bytes, rows;
	uint64_t	 table_bytes[D9X_T_COUNT], table_rows[D9X_T_COUNT];
	struct d9_err	 e;		/* the first failure */
	/* hold: the next segments leaf closed stays at its .tmp name until
	 * d9x_out_release (held: its two names), so that an input of many
	 * segments is marked exported (export.h) only once all are */
	int		 hold;
	char		*held_tmp, *held_fin;
};

struct d9x_leaf {
	struct d9x_out		*out;
	const struct d9x_source	*src;
	enum d9x_table		 t;
	struct d9x_pq		*pq;
	int			 fd;
	int			 failed;
	uint64_t		 expect;	/* rows to come (a hint) */
	char			*dir;		/* the partition's folder */
};

void	d9x_leaf_init(struct d9x_leaf *l, struct d9x_out *out,
	    const struct d9x_source *src, enum d9x_table t);
/* About rows rows to come, before the first (d9x_pq_expect). */
void	d9x_leaf_expect(struct d9x_leaf *l, uint64_t rows);
/* The writer of the row being filled (the file opened on first use);
 * NULL when it failed (out->e says why). */
struct d9x_pq *d9x_leaf_pq(struct d9x_leaf *l);
/* The end of the row: 0 or -1. */
int	d9x_leaf_row(struct d9x_leaf *l);
/* Finish and rename into place (nothing when no row came): 0 or -1. */
int	d9x_leaf_close(struct d9x_leaf *l);
/* Drop what was written (a failure elsewhere). */
void	d9x_leaf_abort(struct d9x_leaf *l);
/* The held leaf (if any) renamed into place (keep) or dropped: 0, or
 * -1 (out->e says why). */
int	d9x_out_release(struct d9x_out *out, int keep);
/* Whether the leaf of table t of src is in place. */
int	d9x_leaf_exists(const struct d9x_out *out,
	    const struct d9x_source *src, enum d9x_table t);
/* mkdir -p of p (changed while it runs, put back): 0 or -1 (errno). */
int	d9x_mkdirs(char *p);
/* A partition value as Hive writes it in a path: the characters Hive
 * escapes as %XX, "" as __HIVE_DEFAULT_PARTITION__. */
void	d9x_hive_escape(const char *v, char *out, size_t cap);

#endif
