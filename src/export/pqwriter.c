/*
 * pqwriter.c: see pqwriter.h. The file is "PAR1", the row groups (for
 * each, every leaf column's chunk: its dictionary page, then its data
 * pages), the footer (FileMetaData), the footer's length (4 bytes,
 * little-endian) and "PAR1". A row group's ColumnChunk and RowGroup
 * structures are encoded as soon as it is written; the footer only puts
 * them in a list. Field numbers are parquet.thrift's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "base/io.h"
#include "base/vec.h"
#include "export/pqcol.h"
#include "export/pqwriter.h"

#define CREATED_BY	"d9top (src/export)"

enum { R_REQUIRED = 0, R_OPTIONAL = 1, R_REPEATED = 2 };
enum { C_UTF8 = 0, C_MAP = 1, C_LIST = 3, C_UINT_8 = 11, C_UINT_32 = 13,
	C_UINT_64 = 14 };

struct d9x_pq {
	const struct d9x_field *f;
	size_t		 nf;
	size_t		*leaf0;		/* first leaf of each field */
	int		*open;		/* list/map fields: entries so far
					 * + 1 while begun, else 0 */
	struct d9x_col	*leaf;
	size_t		 nleaves;
	int		 fd;
	uint64_t	 off;		/* bytes written */
	ZSTD_CCtx	*cctx;
	size_t		 group_rows, in_group;
	uint64_t	 rows;
	struct d9x_bytes groups;	/* encoded RowGroup structs */
	size_t		 ngroups;
	struct d9_err	 e;
};

static int
fail(struct d9x_pq *w, int code, const char *what)
{
	if (w->e.code == 0)
		d9_err_set(&w->e, code, w->off, "%s", what);
	return -1;
}

static int
put(struct d9x_pq *w, const void *p, size_t n)
{
	if (n > 0 && d9_write_all(w->fd, p, n) < 0) {
		char why[160];

		snprintf(why, sizeof why, "cannot write: %s", strerror(errno));
		return fail(w, D9_ERR_IO, why);
	}
	w->off += n;
	return 0;
}

static size_t
leaves_of(const struct d9x_field *f)
{
	return f->shape == D9X_MAP ? 2 : 1;
}

static void
init_leaves(struct d9x_pq *w)
{
	for (size_t i = 0, l = 0; i < w->nf; i++) {
		const struct d9x_field *f = &w->f[i];
		struct d9x_col *c = &w->leaf[l];

		w->leaf0[i] = l;
		switch (f->shape) {
		case D9X_REQ:
		case D9X_OPT:
			d9x_col_init(c, f->kind, f->shape == D9X_OPT, 0);
			c->path[c->npath++] = f->name;
			break;
		case D9X_LIST:
			d9x_col_init(c, f->kind, 1, 1);
			c->path[0] = f->name;
			c->path[1] = "list";
			c->path[2] = "element";
			c->npath = 3;
			break;
		default:
			for (int k = 0; k < 2; k++) {
				d9x_col_init(&c[k], D9X_STRING, 1, 1);
				c[k].path[0] = f->name;
				c[k].path[1] = "key_value";
				c[k].path[2] = k ? "value" : "key";
				c[k].npath = 3;
			}
			break;
		}
		l += leaves_of(f);
	}
}

int
d9x_pq_open(struct d9x_pq **out, int fd, const struct d9x_field *f,
    size_t nf, size_t group_rows, struct d9_err *e)
{
	struct d9x_pq *w = calloc(1, sizeof *w);

	*out = NULL;
	if (w == NULL)
		return d9_err_set(e, D9_ERR_NOMEM, 0, "out of memory"), -1;
	w->f = f;
	w->nf = nf;
	w->fd = fd;
	w->group_rows = group_rows ? group_rows : D9X_GROUP_ROWS;
	for (size_t i = 0; i < nf; i++)
		w->nleaves += leaves_of(&f[i]);
	w->leaf0 = calloc(nf + 1, sizeof *w->leaf0);
	w->open = calloc(nf + 1, sizeof *w->open);
	w->leaf = calloc(w->nleaves + 1, sizeof *w->leaf);
	w->cctx = ZSTD_createCCtx();
	if (w->leaf0 == NULL || w->open == NULL || w->leaf == NULL ||
	    w->cctx == NULL) {
		d9x_pq_free(&w);
		return d9_err_set(e, D9_ERR_NOMEM, 0, "out of memory"), -1;
	}
	init_leaves(w);
	if (put(w, "PAR1", 4) < 0) {
		*e = w->e;
		d9x_pq_free(&w);
		return -1;
	}
	*out = w;
	return 0;
}

void
d9x_pq_free(struct d9x_pq **wp)
{
	struct d9x_pq *w = *wp;

	if (w == NULL)
		return;
	for (size_t i = 0; w->leaf != NULL && i < w->nleaves; i++)
		d9x_col_free(&w->leaf[i]);
	free(w->leaf);
	free(w->leaf0);
	free(w->open);
	ZSTD_freeCCtx(w->cctx);
	d9x_bytes_free(&w->groups);
	free(w);
	*wp = NULL;
}

static int
ok(struct d9x_pq *w, size_t f)
{
	return w->e.code == 0 && f < w->nf;
}

void
d9x_pq_const(struct d9x_pq *w, size_t f, const void *p, size_t n)
{
	if (ok(w, f) && w->f[f].shape == D9X_REQ && w->rows == 0)
		d9x_col_const(&w->leaf[w->leaf0[f]], p, n);
}

void
d9x_pq_null(struct d9x_pq *w, size_t f)
{
	struct d9x_col *c;

	if (!ok(w, f))
		return;
	if (w->f[f].shape != D9X_OPT) {
		fail(w, D9_ERR_USAGE, "a null in a column that takes none");
		return;
	}
	c = &w->leaf[w->leaf0[f]];
	d9x_col_levels(c, 0, 0);
	d9x_col_null(c);
}

/* The leaf of field f for the next value, its levels given (inline:
 * once a value, its call cost more than its work). */
static inline struct d9x_col *
next(struct d9x_pq *w, size_t f)
{
	struct d9x_col *c = &w->leaf[w->leaf0[f]];

	if (w->f[f].shape == D9X_LIST) {
		if (w->open[f] == 0)
			return NULL;		/* not begun: a bug */
		d9x_col_levels(c, w->open[f]++ > 1, 1);
	} else
		d9x_col_levels(c, 0, (uint32_t)c->max_def);
	return c;
}

void
d9x_pq_int(struct d9x_pq *w, size_t f, uint64_t v)
{
	struct d9x_col *c;

	if (ok(w, f) && (c = next(w, f)) != NULL)
		d9x_col_int(c, v);
}

void
d9x_pq_dbl(struct d9x_pq *w, size_t f, double v)
{
	struct d9x_col *c;

	if (ok(w, f) && (c = next(w, f)) != NULL)
		d9x_col_dbl(c, v);
}

void
d9x_pq_str(struct d9x_pq *w, size_t f, const void *p, size_t n)
{
	struct d9x_col *c;

	if (!ok(w, f) || (w->f[f].kind == D9X_ID16 && n != 16))
		return;
	if ((c = next(w, f)) != NULL)
		d9x_col_bytes(c, p, n);
}

void
d9x_pq_begin(struct d9x_pq *w, size_t f)
{
	if (ok(w, f))
		w->open[f] = 1;
}

void
d9x_pq_entry(struct d9x_pq *w, size_t f, const void *k, size_t kn,
    const void *v, size_t vn)
{
	struct d9x_col *c;
	uint32_t rep;

	if (!ok(w, f) || w->f[f].shape != D9X_MAP || w->open[f] == 0)
		return;
	c = &w->leaf[w->leaf0[f]];
	rep = w->open[f]++ > 1;
	d9x_col_levels(&c[0], rep, 1);
	d9x_col_bytes(&c[0], k, kn);
	d9x_col_levels(&c[1], rep, 1);
	d9x_col_bytes(&c[1], v, vn);
}

void
d9x_pq_end(struct d9x_pq *w, size_t f)
{
	if (!ok(w, f) || w->open[f] == 0)
		return;
	if (w->open[f] == 1)		/* empty: one entry of level 0 */
		for (size_t l = 0; l < leaves_of(&w->f[f]); l++)
			d9x_col_levels(&w->leaf[w->leaf0[f] + l], 0, 0);
	w->open[f] = 0;
}

/* Write the row group being filled and encode its RowGroup. */
static int
write_group(struct d9x_pq *w)
{
	struct d9x_bytes chunks = { 0 };
	uint64_t raw = 0, zipped = 0, first = w->off;
	struct d9x_thrift t;
	int rc = -1;

	for (size_t l = 0; l < w->nleaves; l++) {
		struct d9x_col *c = &w->leaf[l];
		int64_t dict_off = -1, data_off;

		if (d9x_col_finish(c, w->cctx) < 0) {
			fail(w, D9_ERR_NOMEM, "out of memory");
			goto out;
		}
		if (c->dict_page.n > 0) {
			dict_off = (int64_t)w->off;
			if (put(w, c->dict_page.p, c->dict_page.n) < 0)
				goto out;
		}
		data_off = (int64_t)w->off;
		if (put(w, c->pages.p, c->pages.n) < 0)
			goto out;
		/* a ColumnChunk: file_offset, meta_data */
		d9x_th_init(&t, &chunks);
		d9x_th_i64(&t, 2, dict_off >= 0 ? dict_off : data_off);
		d9x_th_struct(&t, 3);
		d9x_col_meta(c, &t, dict_off, data_off);
		d9x_th_end(&t);
		d9x_th_end(&t);
		raw += c->raw_size;
		zipped += c->pages.n + c->dict_page.n;
		d9x_col_reset(c);
	}
	/* a RowGroup: columns, total_byte_size, num_rows, file_offset,
	 * total_compressed_size */
	d9x_th_init(&t, &w->groups);
	d9x_th_list(&t, 1, D9X_TH_STRUCT, w->nleaves);
	d9x_bytes_put(&w->groups, chunks.p, chunks.n);
	d9x_th_i64(&t, 2, (int64_t)raw);
	d9x_th_i64(&t, 3, (int64_t)w->in_group);
	d9x_th_i64(&t, 5, (int64_t)first);
	d9x_th_i64(&t, 6, (int64_t)zipped);
	d9x_th_end(&t);
	if (chunks.oom || w->groups.oom) {
		fail(w, D9_ERR_NOMEM, "out of memory");
		goto out;
	}
	w->ngroups++;
	w->in_group = 0;
	rc = 0;
out:
	d9x_bytes_free(&chunks);
	return rc;
}

int
d9x_pq_row(struct d9x_pq *w)
{
	if (w->e.code != 0)
		return -1;
	w->rows++;
	w->in_group++;
	for (size_t l = 0; l < w->nleaves; l++) {
		struct d9x_col *c = &w->leaf[l];

		if (c->is_const) {
			d9x_col_const_row(c);
			continue;
		}
		if (c->vals.oom)
			return fail(w, D9_ERR_NOMEM, "out of memory");
		if (d9x_col_page_full(c) && d9x_col_page(c, w->cctx) < 0)
			return fail(w, D9_ERR_NOMEM, "cannot compress a page");
	}
	if (w->in_group >= w->group_rows)
		return write_group(w);
	return 0;
}

void
d9x_pq_expect(struct d9x_pq *w, uint64_t rows)
{
	size_t n = rows < w->group_rows ? (size_t)rows : w->group_rows;

	for (size_t l = 0; l < w->nleaves; l++)
		d9x_col_expect(&w->leaf[l], n);
}

uint64_t
d9x_pq_rows(const struct d9x_pq *w)
{
	return w->rows;
}

uint64_t
d9x_pq_bytes(const struct d9x_pq *w)
{
	return w->off;
}

/* The logical type of a leaf's kind (INTEGER(bits, unsigned), STRING),
 * as a converted type and a LogicalType union. */
static void
put_logical(struct d9x_thrift *t, enum d9x_kind k)
{
	int bits = k == D9X_U8 ? 8 : k == D9X_U32 ? 32 : 64;

	switch (k) {
	case D9X_U8:
	case D9X_U32:
	case D9X_U64:
		d9x_th_i32(t, 6, k == D9X_U8 ? C_UINT_8 : k == D9X_U32 ?
		    C_UINT_32 : C_UINT_64);
		d9x_th_struct(t, 10);
		d9x_th_struct(t, 10);		/* IntType */
		d9x_th_i8(t, 1, (int8_t)bits);
		d9x_th_bool(t, 2, 0);
		d9x_th_end(t);
		d9x_th_end(t);
		break;
	case D9X_STRING:
		d9x_th_i32(t, 6, C_UTF8);
		d9x_th_struct(t, 10);
		d9x_th_struct(t, 1);		/* StringType */
		d9x_th_end(t);
		d9x_th_end(t);
		break;
	default:
		break;
	}
}

static void
put_leaf(struct d9x_thrift *t, const char *name, enum d9x_kind k, int rep)
{
	d9x_th_elem_struct(t);
	d9x_th_i32(t, 1, d9x_kind_physical(k));
	if (k == D9X_ID16)
		d9x_th_i32(t, 2, 16);
	d9x_th_i32(t, 3, rep);
	d9x_th_str(t, 4, name);
	put_logical(t, k);
	d9x_th_end(t);
}

/* A group element: name, its children's count, its types (ct < 0:
 * none; lt: the LogicalType union's field, 0: none). */
static void
put_group(struct d9x_thrift *t, const char *name, int rep, int children,
    int ct, int lt)
{
	d9x_th_elem_struct(t);
	d9x_th_i32(t, 3, rep);
	d9x_th_str(t, 4, name);
	d9x_th_i32(t, 5, children);
	if (ct >= 0)
		d9x_th_i32(t, 6, ct);
	if (lt > 0) {
		d9x_th_struct(t, 10);
		d9x_th_struct(t, (int16_t)lt);	/* MapType, ListType */
		d9x_th_end(t);
		d9x_th_end(t);
	}
	d9x_th_end(t);
}

static size_t
schema_elements(const struct d9x_pq *w)
{
	size_t n = 1;

	for (size_t i = 0; i < w->nf; i++)
		n += w->f[i].shape == D9X_LIST ? 3 : w->f[i].shape ==
		    D9X_MAP ? 4 : 1;
	return n;
}

static void
put_schema(const struct d9x_pq *w, struct d9x_thrift *t)
{
	d9x_th_list(t, 2, D9X_TH_STRUCT, schema_elements(w));
	d9x_th_elem_struct(t);			/* the root */
	d9x_th_str(t, 4, "schema");
	d9x_th_i32(t, 5, (int32_t)w->nf);
	d9x_th_end(t);
	for (size_t i = 0; i < w->nf; i++) {
		const struct d9x_field *f = &w->f[i];

		switch (f->shape) {
		case D9X_REQ:
		case D9X_OPT:
			put_leaf(t, f->name, f->kind, f->shape == D9X_OPT ?
			    R_OPTIONAL : R_REQUIRED);
			break;
		case D9X_LIST:
			put_group(t, f->name, R_REQUIRED, 1, C_LIST, 3);
			put_group(t, "list", R_REPEATED, 1, -1, 0);
			put_leaf(t, "element", f->kind, R_REQUIRED);
			break;
		default:
			put_group(t, f->name, R_REQUIRED, 1, C_MAP, 2);
			put_group(t, "key_value", R_REPEATED, 2, -1, 0);
			put_leaf(t, "key", D9X_STRING, R_REQUIRED);
			put_leaf(t, "value", D9X_STRING, R_REQUIRED);
			break;
		}
	}
}

static int
put_footer(struct d9x_pq *w)
{
	struct d9x_bytes foot = { 0 };
	struct d9x_thrift t;
	int rc;

	d9x_th_init(&t, &foot);
	d9x_th_i32(&t, 1, 2);
	put_schema(w, &t);
	d9x_th_i64(&t, 3, (int64_t)w->rows);
	d9x_th_list(&t, 4, D9X_TH_STRUCT, w->ngroups);
	d9x_bytes_put(&foot, w->groups.p, w->groups.n);
	d9x_th_str(&t, 6, CREATED_BY);
	/* min and max are ordered by their logical types */
	d9x_th_list(&t, 7, D9X_TH_STRUCT, w->nleaves);
	for (size_t l = 0; l < w->nleaves; l++) {
		d9x_th_elem_struct(&t);
		d9x_th_struct(&t, 1);		/* TypeDefinedOrder */
		d9x_th_end(&t);
		d9x_th_end(&t);
	}
	d9x_th_end(&t);
	if (foot.oom || t.bad || foot.n > UINT32_MAX) {
		d9x_bytes_free(&foot);
		return fail(w, D9_ERR_NOMEM, "out of memory");
	}
	d9x_bytes_le32(&foot, (uint32_t)foot.n);
	d9x_bytes_put(&foot, "PAR1", 4);
	rc = foot.oom ? fail(w, D9_ERR_NOMEM, "out of memory") :
	    put(w, foot.p, foot.n);
	d9x_bytes_free(&foot);
	return rc;
}

int
d9x_pq_close(struct d9x_pq **wp, struct d9_err *e)
{
	struct d9x_pq *w = *wp;
	int rc;

	if (w == NULL)
		return 0;
	if (w->e.code == 0 && w->in_group > 0)
		write_group(w);
	rc = w->e.code == 0 ? put_footer(w) : -1;
	if (rc < 0 && e != NULL)
		*e = w->e;
	d9x_pq_free(wp);
	return rc;
}
