/*
 * pqcol.h: one leaf column of a Parquet file being written: the values
 * and levels of the page being filled, the finished pages of the row
 * group's column chunk (compressed, in memory until the row group is
 * written), its dictionary and its statistics. The writer (pqwriter.h)
 * owns one per leaf; nothing here touches a file.
 *
 * Values of byte-array kinds are dictionary-encoded (RLE_DICTIONARY)
 * while the chunk's dictionary stays small; past D9X_DICT_MAX_BYTES or
 * D9X_DICT_MAX_N the rest of the chunk is PLAIN. Other kinds are PLAIN.
 */
#ifndef D9X_PQCOL_H
#define D9X_PQCOL_H

#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/intern.h"
#include "export/bytes.h"
#include "export/pqwriter.h"
#include "export/thrift.h"

#define D9X_PAGE_BYTES		(1u << 20)	/* values of a page, raw */
#define D9X_DICT_MAX_BYTES	(1u << 20)
#define D9X_DICT_MAX_N		(1u << 16)

struct d9x_col {
	enum d9x_kind	 kind;
	int		 max_def, max_rep;
	const char	*path[3];	/* path_in_schema */
	int		 npath;
	size_t		 fixed;		/* FIXED_LEN_BYTE_ARRAY length */

	/* the page being filled */
	uint32_t	*def, *rep;	/* levels, when max_def, max_rep */
	size_t		 nlev, caplev;
	struct d9x_bytes vals;		/* PLAIN values (booleans: a byte
					 * each, packed at the page's end) */
	uint32_t	*idx;		/* dictionary indices */
	size_t		 nidx, capidx;
	size_t		 nvals;		/* non-null values */

	/* the chunk */
	int		 dict_on;	/* byte arrays: indices, not PLAIN */
	int		 dict_used;	/* some page holds indices */
	int		 plain_used;	/* some page holds PLAIN values */
	struct d9_arena	 arena;		/* the dictionary's bytes */
	struct d9_intern dict;
	size_t		 dict_bytes;
	uint32_t	 last;		/* index of the last value, D9_NONE:
					 * a run of one value skips hashing */
	struct d9x_bytes konst;		/* the value of every row, when
					 * is_const: not stored per row */
	int		 is_const;
	size_t		 nconst;	/* rows of the page */
	struct d9x_bytes pages;		/* data pages, headers and all */
	struct d9x_bytes dict_page;	/* made by d9x_col_finish */
	uint64_t	 num_values;	/* level entries of the chunk */
	uint64_t	 raw_size;	/* page sizes before compression,
					 * headers included */
	uint64_t	 null_count;
	int		 have_minmax;
	uint64_t	 min_u, max_u;	/* integers (signed ones as int64) */
	double		 min_d, max_d;
	struct d9x_bytes min_b, max_b;
};

void	d9x_col_init(struct d9x_col *c, enum d9x_kind kind, int max_def,
	    int max_rep);
void	d9x_col_free(struct d9x_col *c);
/* About n entries to come (a hint, 0: none): the page's buffers made
 * that large at once, up to a page, rather than grown by doubling. */
void	d9x_col_expect(struct d9x_col *c, size_t n);
/* Room for one more level entry: 0, or -1 (vals.oom set). */
int	d9x_col_levels_grow(struct d9x_col *c);
void	d9x_col_dbl(struct d9x_col *c, double v);
/* A value of a byte-array kind. */
void	d9x_col_bytes(struct d9x_col *c, const void *p, size_t n);
/* The value of every row (a required byte-array column): rows then
 * give none (d9x_col_const_row counts them). */
void	d9x_col_const(struct d9x_col *c, const void *p, size_t n);
/* Close the page: encode, compress (cctx: a ZSTD_CCtx) and append it
 * to the chunk. 0, or -1 when out of memory or compression failed. */
int	d9x_col_page(struct d9x_col *c, void *cctx);
/* Close the chunk's last page and make its dictionary page. */
int	d9x_col_finish(struct d9x_col *c, void *cctx);
/* The chunk's ColumnMetaData (the fields of that struct, at t's open
 * struct), its pages written at dict_off (-1: none) and data_off. */
void	d9x_col_meta(const struct d9x_col *c, struct d9x_thrift *t,
	    int64_t dict_off, int64_t data_off);
/* Forget the chunk (after it was written): ready for the next. */
void	d9x_col_reset(struct d9x_col *c);
/* Parquet's physical type of a kind. */
int	d9x_kind_physical(enum d9x_kind k);

/* The calls made for every value and row are inline: out of line, the
 * calls cost more than their work (a tenth of an export). */

/* Levels of the next entry (only kept when the column has them). */
static inline void
d9x_col_levels(struct d9x_col *c, uint32_t rep, uint32_t def)
{
	c->num_values++;
	if (c->max_def == 0 && c->max_rep == 0)
		return;
	if (c->nlev == c->caplev && d9x_col_levels_grow(c) < 0)
		return;
	c->def[c->nlev] = def;
	if (c->max_rep > 0)
		c->rep[c->nlev] = rep;
	c->nlev++;
}

/* A null at that entry (statistics count it). */
static inline void
d9x_col_null(struct d9x_col *c)
{
	c->null_count++;
}

/* A value: integers and booleans (doubles, byte arrays above). */
static inline void
d9x_col_int(struct d9x_col *c, uint64_t v)
{
	int sgn = c->kind == D9X_I64;

	c->nvals++;
	if (!c->have_minmax) {
		c->min_u = c->max_u = v;
		c->have_minmax = 1;
	} else {
		if (sgn ? (int64_t)v < (int64_t)c->min_u : v < c->min_u)
			c->min_u = v;
		if (sgn ? (int64_t)v > (int64_t)c->max_u : v > c->max_u)
			c->max_u = v;
	}
	switch (c->kind) {
	case D9X_BOOL:
		d9x_bytes_u8(&c->vals, v != 0);
		break;
	case D9X_U8:
	case D9X_U32:
		d9x_bytes_le32(&c->vals, (uint32_t)v);
		break;
	default:
		d9x_bytes_le64(&c->vals, v);
		break;
	}
}

/* A row of a column of one value (d9x_col_const). */
static inline void
d9x_col_const_row(struct d9x_col *c)
{
	c->num_values++;
	c->nconst++;
}

/* Whether the page being filled is due to be closed. */
static inline int
d9x_col_page_full(const struct d9x_col *c)
{
	return c->vals.n + c->nidx * 4 >= D9X_PAGE_BYTES ||
	    (c->dict_on && (c->dict_bytes >= D9X_DICT_MAX_BYTES ||
	    c->dict.n >= D9X_DICT_MAX_N));
}

#endif
