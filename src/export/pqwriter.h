/*
 * pqwriter.h: writing one Apache Parquet file (parquet-format 2.x) row
 * by row, in bounded memory: rows fill the pages of the current row
 * group (about D9X_GROUP_ROWS rows), which is written when full; the
 * footer (FileMetaData, Thrift compact) is written by d9x_pq_close.
 * Pages are data pages v1, zstd-compressed; byte arrays are dictionary
 * encoded (RLE_DICTIONARY) while their dictionary stays small, the rest
 * PLAIN; levels are RLE. Each column chunk carries its statistics (min,
 * max, null count) and the footer says they are ordered by type.
 *
 * A field is a column of one of the kinds below, of one shape: required,
 * optional (null allowed), a list of required elements of the kind
 * (LIST, three-level), or a map of required strings to required strings
 * (MAP, two leaf columns). A row gives every field in order:
 *
 *	d9x_pq_int(w, 0, ts);			required or optional
 *	d9x_pq_null(w, 1);			optional, absent
 *	d9x_pq_begin(w, 2);			a list or a map ...
 *	d9x_pq_str(w, 2, "main", 4);		... an element, or
 *	d9x_pq_entry(w, 2, k, kn, v, vn);	... a map's entry
 *	d9x_pq_end(w, 2);			... done (may be empty)
 *	d9x_pq_row(w);
 *
 * Errors (out of memory, a write that failed) stick: every later call
 * does nothing and d9x_pq_row / d9x_pq_close return -1 with the reason.
 */
#ifndef D9X_PQWRITER_H
#define D9X_PQWRITER_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

#define D9X_GROUP_ROWS	(128u * 1024)

enum d9x_kind {
	D9X_BOOL,	/* BOOLEAN */
	D9X_U8,		/* INT32, INTEGER(8, unsigned) */
	D9X_U32,	/* INT32, INTEGER(32, unsigned) */
	D9X_I64,	/* INT64 */
	D9X_U64,	/* INT64, INTEGER(64, unsigned) */
	D9X_DOUBLE,	/* DOUBLE */
	D9X_STRING,	/* BYTE_ARRAY, STRING */
	D9X_ID16	/* FIXED_LEN_BYTE_ARRAY(16) */
};

enum d9x_shape { D9X_REQ, D9X_OPT, D9X_LIST, D9X_MAP };

struct d9x_field {
	const char	*name;
	uint8_t		 kind;		/* enum d9x_kind; a map's: unused */
	uint8_t		 shape;		/* enum d9x_shape */
};

struct d9x_pq;

/* A writer of fields f[0 .. nf) (kept by reference) to fd, which it
 * does not close; group_rows: rows per row group (0: the default).
 * 0, or -1 with e set. */
int	d9x_pq_open(struct d9x_pq **w, int fd, const struct d9x_field *f,
	    size_t nf, size_t group_rows, struct d9_err *e);
/* Write the last row group and the footer, then free: 0, or -1 with e
 * set. */
int	d9x_pq_close(struct d9x_pq **w, struct d9_err *e);
/* Free without finishing (the file is left incomplete). */
void	d9x_pq_free(struct d9x_pq **w);

/* Field f (a required string) holds p for every row: rows give no
 * value for it. Before the first row. */
void	d9x_pq_const(struct d9x_pq *w, size_t f, const void *p, size_t n);
void	d9x_pq_null(struct d9x_pq *w, size_t f);
/* Integers of any integer kind, booleans (0, 1). */
void	d9x_pq_int(struct d9x_pq *w, size_t f, uint64_t v);
void	d9x_pq_dbl(struct d9x_pq *w, size_t f, double v);
/* Strings, and ids (n must be 16). */
void	d9x_pq_str(struct d9x_pq *w, size_t f, const void *p, size_t n);
void	d9x_pq_begin(struct d9x_pq *w, size_t f);
void	d9x_pq_entry(struct d9x_pq *w, size_t f, const void *k, size_t kn,
	    const void *v, size_t vn);
void	d9x_pq_end(struct d9x_pq *w, size_t f);
/* End the row: 0, or -1 with the error (d9x_pq_close says it too). */
int	d9x_pq_row(struct d9x_pq *w);
/* About rows rows to come (a hint): the columns' page buffers are made
 * that large at once (up to a page) instead of grown value by value.
 * The bytes written are the same with it or without. */
void	d9x_pq_expect(struct d9x_pq *w, uint64_t rows);
/* Rows written so far; bytes of the file so far. */
uint64_t d9x_pq_rows(const struct d9x_pq *w);
uint64_t d9x_pq_bytes(const struct d9x_pq *w);

#endif
