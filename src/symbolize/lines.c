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
 * is kept (as binutils does). Lookup is upper bound minus one.
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
#include "symbolize/search.h"

struct raw_row {
	struct d9s_line_row	r;
	size_t			idx;		/* decode order: stable sort */
};

static const char *
join_name(struct d9_arena *a, const char *comp_dir, const char *dir,
    const char *name)
{
	const char *d1 = NULL, *d2 = NULL;
	size_t len;
	char *out;

	if (name[0] == '/')
		return d9_arena_memdup(a, name, strlen(name) + 1);
	if (dir == NULL || dir[0] != '/')
		d1 = comp_dir;
	if (d1 != NULL)
		d2 = dir;
	else
		d1 = dir;
	len = strlen(name) + 1 + (d1 ? strlen(d1) + 1 : 0) +
	    (d2 ? strlen(d2) + 1 : 0);
	if ((out = d9_arena_alloc(a, len, 1)) == NULL)
		return NULL;
	if (d1 != NULL && d2 != NULL)
		snprintf(out, len, "%s/%s/%s", d1, d2, name);
	else if (d1 != NULL)
		snprintf(out, len, "%s/%s", d1, name);
	else
		snprintf(out, len, "%s", name);
	return out;
}

static int
load_files(struct d9s_lines *l, Dwarf_Line_Context ctx, const char *comp_dir,
    struct d9_arena *a, Dwarf_Error *err)
{
	Dwarf_Signed base, count, end, ndirs, i;

	if (dwarf_srclines_files_indexes(ctx, &base, &count, &end, err) !=
	    DW_DLV_OK)
		return -1;
	if (dwarf_srclines_include_dir_count(ctx, &ndirs, err) != DW_DLV_OK)
		return -1;
	if (base < 0 || end < base || end > 1 << 24)
		return 0;
	if ((l->file = calloc((size_t)end + 1, sizeof *l->file)) == NULL)
		return D9S_LINES_NOMEM;
	l->nfile = (size_t)end;
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
		if ((l->file[i] = join_name(a, comp_dir, dir, name)) == NULL)
			return D9S_LINES_NOMEM;
	}
	return 0;
}

static int
read_row(Dwarf_Line line, unsigned version, struct d9s_line_row *r,
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
load_rows(struct d9s_lines *l, Dwarf_Line *lines, Dwarf_Signed n,
    struct raw_row **rawp, size_t *nraw, Dwarf_Error *err)
{
	void **cols[] = { (void **)&l->seq_lo, (void **)&l->seq_hi };
	const size_t elems[] = { sizeof *l->seq_lo, sizeof *l->seq_hi };
	struct raw_row *raw;
	size_t seqcap = 0, start = 0, k = 0;
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
		if (d9_grow_cols(&seqcap, l->nseq + 1, 2, cols, elems) == -1)
			return D9S_LINES_NOMEM;
		l->seq_lo[l->nseq] = raw[start].r.addr;
		l->seq_hi[l->nseq] = r->r.addr;
		l->nseq++;
		start = k;
	}
	*nraw = start;
	return 0;
}

static int
sort_rows(struct d9s_lines *l, struct raw_row *raw, size_t n)
{
	size_t i, k = 0;

	qsort(raw, n, sizeof *raw, row_cmp);
	if ((l->row = malloc((n ? n : 1) * sizeof *l->row)) == NULL)
		return D9S_LINES_NOMEM;
	for (i = 0; i < n; i++) {
		/* a later non-end row at the same address replaces this one */
		if (i + 1 < n && !raw[i].r.end && !raw[i + 1].r.end &&
		    raw[i + 1].r.addr == raw[i].r.addr)
			continue;
		if (k > 0 && raw[i].r.end && l->row[k - 1].end &&
		    l->row[k - 1].addr == raw[i].r.addr)
			continue;
		l->row[k++] = raw[i].r;
	}
	l->nrow = k;
	return 0;
}

int
d9s_lines_load(struct d9s_lines *l, Dwarf_Debug dbg, Dwarf_Die cudie,
    const char *comp_dir, struct d9_arena *arena, Dwarf_Error *err)
{
	Dwarf_Line_Context ctx;
	Dwarf_Unsigned version;
	Dwarf_Small tables;
	Dwarf_Line *lines;
	Dwarf_Signed n;
	struct raw_row *raw = NULL;
	size_t nraw = 0;
	int rc;

	(void)dbg;
	memset(l, 0, sizeof *l);
	rc = dwarf_srclines_b(cudie, &version, &tables, &ctx, err);
	if (rc == DW_DLV_NO_ENTRY)
		return 0;
	if (rc != DW_DLV_OK)
		return -1;
	l->version = (unsigned)version;
	if ((rc = load_files(l, ctx, comp_dir, arena, err)) != 0)
		goto out;
	rc = -1;
	if (dwarf_srclines_from_linecontext(ctx, &lines, &n, err) != DW_DLV_OK)
		goto out;
	if (n > 0 && (rc = load_rows(l, lines, n, &raw, &nraw, err)) != 0)
		goto out;
	rc = sort_rows(l, raw, nraw);
out:
	free(raw);
	dwarf_srclines_dealloc_b(ctx);
	return rc;
}

void
d9s_lines_free(struct d9s_lines *l)
{
	free(l->row);
	free(l->file);
	free(l->seq_lo);
	free(l->seq_hi);
	memset(l, 0, sizeof *l);
}

const struct d9s_line_row *
d9s_lines_find(const struct d9s_lines *l, uint64_t addr)
{
	size_t i = d9s_upper_bound(l->row, l->nrow, sizeof *l->row, addr);

	if (i == 0 || l->row[i - 1].end)
		return NULL;
	return &l->row[i - 1];
}

const char *
d9s_lines_file(const struct d9s_lines *l, uint64_t fileno)
{
	if (fileno >= l->nfile)
		return NULL;
	return l->file[fileno];
}
