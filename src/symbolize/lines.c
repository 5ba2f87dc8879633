/*
 * lines.c: line rows from libdwarf 20210528, with the two workarounds of
 * DEPENDENCIES 4.3:
 *  1. rows with epilogue_begin come back flagged end_sequence; a row ends
 *     a sequence only when dwarf_prologue_end_etc() says eb == 0;
 *  2. in DWARF 5 tables the file register starts at 0 instead of 1, so
 *     file 0 is read as 1 (LLVM never sets file 0; gcc lists its primary
 *     file as both 0 and 1).
 * Rows are sorted by address, end-of-sequence rows before a row starting
 * at the same address, and only the last of several rows at one address
 * is kept (as binutils does); they go to the index with the CU's file
 * names (dwindex.h), where a lookup is upper bound minus one.
 *
 * File names follow binutils' concat_filename(): an absolute name stands
 * alone; otherwise the entry's directory (DWARF 2-4: index k > 0 is
 * include_directories[k]; DWARF 5: any index below the count) is used,
 * prefixed by DW_AT_comp_dir unless it is absolute; no normalisation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "symbolize/lines.h"

struct raw_row {
	struct d9s_ix_row	r;
	size_t			idx;		/* decode order: stable sort */
};

struct lines {
	struct d9s_ixb		*b;
	struct d9s_ix_cu	*cu;
	struct d9s_ranges	*seq;
	unsigned		 version;	/* of the line table */
};

/* The joined name into the index: its offset, NONE when out of memory. */
static uint32_t
join_name(struct d9s_ixb *b, const char *comp_dir, const char *dir,
    const char *name)
{
	const char *d1 = NULL, *d2 = NULL;
	size_t len;
	uint32_t off;
	char *out;

	if (name[0] == '/')
		return d9s_ixb_str(b, name, strlen(name));
	if (dir == NULL || dir[0] != '/')
		d1 = comp_dir;
	if (d1 != NULL)
		d2 = dir;
	else
		d1 = dir;
	len = strlen(name) + 1 + (d1 ? strlen(d1) + 1 : 0) +
	    (d2 ? strlen(d2) + 1 : 0);
	if ((out = malloc(len)) == NULL)
		return D9S_IX_NONE;
	if (d1 != NULL && d2 != NULL)
		snprintf(out, len, "%s/%s/%s", d1, d2, name);
	else if (d1 != NULL)
		snprintf(out, len, "%s/%s", d1, name);
	else
		snprintf(out, len, "%s", name);
	off = d9s_ixb_str(b, out, strlen(out));
	free(out);
	return off;
}

static int
load_files(struct lines *l, Dwarf_Line_Context ctx, const char *comp_dir,
    Dwarf_Error *err)
{
	Dwarf_Signed base, count, end, ndirs, i;
	uint32_t *file;

	if (dwarf_srclines_files_indexes(ctx, &base, &count, &end, err) !=
	    DW_DLV_OK)
		return -1;
	if (dwarf_srclines_include_dir_count(ctx, &ndirs, err) != DW_DLV_OK)
		return -1;
	if (base < 0 || end < base || end > 1 << 24)
		return 0;
	l->cu->file = (uint32_t)l->b->n[D9S_IX_FILE];
	if ((file = d9s_ixb_add(l->b, D9S_IX_FILE, (size_t)end)) == NULL)
		return D9S_LINES_NOMEM;
	l->cu->nfile = (uint32_t)end;
	for (i = 0; i < end; i++)
		file[i] = D9S_IX_NONE;
	for (i = base; i < end; i++) {
		Dwarf_Unsigned dirno, mtime, flen;
		Dwarf_Form_Data16 *md5;
		const char *name = NULL, *dir = NULL;
		int ok_dir;

		if (dwarf_srclines_files_data_b(ctx, i, &name, &dirno, &mtime,
		    &flen, &md5, err) != DW_DLV_OK)
			return -1;
		if (name == NULL)
			continue;
		ok_dir = l->version >= 5 ? dirno < (Dwarf_Unsigned)ndirs :
		    dirno > 0 && dirno <= (Dwarf_Unsigned)ndirs;
		if (ok_dir && dwarf_srclines_include_dir_data(ctx,
		    (Dwarf_Signed)dirno, &dir, err) != DW_DLV_OK)
			return -1;
		/* only the string table grows: file stays put */
		if ((file[i] = join_name(l->b, comp_dir, dir, name)) ==
		    D9S_IX_NONE)
			return D9S_LINES_NOMEM;
	}
	return 0;
}

static int
read_row(Dwarf_Line line, unsigned version, struct d9s_ix_row *r,
    Dwarf_Error *err)
{
	Dwarf_Addr addr;
	Dwarf_Unsigned lineno, fileno, isa, disc;
	Dwarf_Bool end, pe, eb;

	if (dwarf_lineaddr(line, &addr, err) != DW_DLV_OK ||
	    dwarf_lineno(line, &lineno, err) != DW_DLV_OK ||
	    dwarf_line_srcfileno(line, &fileno, err) != DW_DLV_OK ||
	    dwarf_lineendsequence(line, &end, err) != DW_DLV_OK ||
	    dwarf_prologue_end_etc(line, &pe, &eb, &isa, &disc, err) !=
	    DW_DLV_OK)
		return -1;
	if (end && eb)			/* workaround 1 */
		end = 0;
	if (version >= 5 && fileno == 0)	/* workaround 2 */
		fileno = 1;
	r->addr = addr;
	r->line = lineno > UINT32_MAX ? 0 : (uint32_t)lineno;
	r->file = fileno > UINT32_MAX ? UINT32_MAX : (uint32_t)fileno;
	r->disc = disc > UINT32_MAX ? 0 : (uint32_t)disc;
	r->end = end != 0;
	return 0;
}

static int
row_cmp(const void *a, const void *b)
{
	const struct raw_row *x = a, *y = b;

	if (x->r.addr != y->r.addr)
		return x->r.addr < y->r.addr ? -1 : 1;
	if (x->r.end != y->r.end)
		return x->r.end ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Decode rows, drop sequences starting at 0 and unterminated tails,
 * record the sequences kept. */
static int
load_rows(struct lines *l, Dwarf_Line *lines, Dwarf_Signed n,
    struct raw_row **rawp, size_t *nraw, Dwarf_Error *err)
{
	struct raw_row *raw;
	size_t start = 0, k = 0;
	Dwarf_Signed i;

	if ((raw = calloc((size_t)n, sizeof *raw)) == NULL)
		return D9S_LINES_NOMEM;
	*rawp = raw;
	for (i = 0; i < n; i++) {
		struct raw_row *r = &raw[k];

		if (read_row(lines[i], l->version, &r->r, err) != 0)
			return -1;
		r->idx = k++;
		if (!r->r.end)
			continue;
		if (raw[start].r.addr == 0 || r->r.addr <= raw[start].r.addr) {
			k = start;		/* dropped code, or empty */
			continue;
		}
		if (d9s_ranges_add(l->seq, raw[start].r.addr, r->r.addr) != 0)
			return D9S_LINES_NOMEM;
		start = k;
	}
	*nraw = start;
	return 0;
}

/* Sort, keep one row per address, append to the index. */
static int
sort_rows(struct lines *l, struct raw_row *raw, size_t n)
{
	struct d9s_ix_row *row;
	size_t i, k = 0;

	if (n == 0)
		return 0;
	qsort(raw, n, sizeof *raw, row_cmp);
	for (i = 0; i < n; i++) {
		/* a later non-end row at the same address replaces this one */
		if (i + 1 < n && !raw[i].r.end && !raw[i + 1].r.end &&
		    raw[i + 1].r.addr == raw[i].r.addr)
			continue;
		if (k > 0 && raw[i].r.end && raw[k - 1].r.end &&
		    raw[k - 1].r.addr == raw[i].r.addr)
			continue;
		raw[k++].r = raw[i].r;
	}
	l->cu->row = (uint32_t)l->b->n[D9S_IX_ROW];
	if ((row = d9s_ixb_add(l->b, D9S_IX_ROW, k)) == NULL)
		return D9S_LINES_NOMEM;
	for (i = 0; i < k; i++)
		row[i] = raw[i].r;
	l->cu->nrow = (uint32_t)k;
	return 0;
}

int
d9s_lines_load(struct d9s_ixb *b, struct d9s_ix_cu *cu,
    struct d9s_ranges *seq, Dwarf_Die cudie, const char *comp_dir,
    Dwarf_Error *err)
{
	struct lines l = { .b = b, .cu = cu, .seq = seq };
	size_t nfile = b->n[D9S_IX_FILE], nstr = b->n[D9S_IX_STR];
	Dwarf_Line_Context ctx;
	Dwarf_Unsigned version;
	Dwarf_Small tables;
	Dwarf_Line *lines;
	Dwarf_Signed n;
	struct raw_row *raw = NULL;
	size_t nraw = 0;
	int rc;

	seq->n = 0;
	rc = dwarf_srclines_b(cudie, &version, &tables, &ctx, err);
	if (rc == DW_DLV_NO_ENTRY)
		return 0;
	if (rc != DW_DLV_OK)
		return -1;
	l.version = (unsigned)version;
	if ((rc = load_files(&l, ctx, comp_dir, err)) != 0)
		goto out;
	if (dwarf_srclines_from_linecontext(ctx, &lines, &n, err) !=
	    DW_DLV_OK) {
		rc = -1;
		goto out;
	}
	if (n > 0 && (rc = load_rows(&l, lines, n, &raw, &nraw, err)) != 0)
		goto out;
	rc = sort_rows(&l, raw, nraw);
out:
	free(raw);
	dwarf_srclines_dealloc_b(ctx);
	if (rc != 0) {
		/* nothing of a table that cannot be read */
		b->n[D9S_IX_FILE] = nfile;
		b->n[D9S_IX_STR] = nstr;
		memset(cu, 0, sizeof *cu);
		seq->n = 0;
	}
	return rc;
}
