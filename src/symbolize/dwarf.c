/*
 * dwarf.c: building the index with libdwarf 20210528, in one pass over
 * the compile units. For each CU: its line table (lines.c), its address
 * spans (DW_AT_ranges or low/high of the CU DIE, else its line-table
 * sequences), then its DIE tree down through namespaces and types to
 * every DW_TAG_subprogram with a range: a function row per range and its
 * inline tree with the names of its frames (inltree.c, names.c). The
 * tables are then sorted and packed into one buffer (dwindex.h).
 *
 * d9s_dwarf_read() does all of this in a child process (isolate.h): the
 * child's libdwarf handle, its section copies and its DIEs never reach
 * d9top's process, only the packed buffer does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libdwarf/dwarf.h>
#include <libdwarf/libdwarf.h>

#include "symbolize/die.h"
#include "symbolize/dwcheck.h"
#include "symbolize/dwarf.h"
#include "symbolize/dwindex.h"
#include "symbolize/inltree.h"
#include "symbolize/isolate.h"
#include "symbolize/lines.h"
#include "symbolize/names.h"
#include "symbolize/ranges.h"

#define D9S_MAX_DEPTH	64	/* DIE nesting followed; deeper is ignored */

struct bld {
	Dwarf_Debug		 dbg;
	struct d9s_dwcheck	 chk;
	struct d9s_ixb		 b;
	struct d9s_names	 names;
	struct d9s_ranges	 scratch;
	struct d9s_dwarf_stats	 stats;
	struct d9s_inl_ctx	 cx;		/* of the CU being read */
	uint32_t		 cu;
};

static int
c_like(Dwarf_Unsigned lang)
{
	switch (lang) {
	case DW_LANG_C89: case DW_LANG_C: case DW_LANG_C99: case DW_LANG_C11:
	case DW_LANG_Cobol74: case DW_LANG_Cobol85: case DW_LANG_Fortran77:
	case DW_LANG_Pascal83: case DW_LANG_PLI: case DW_LANG_UPC:
	case DW_LANG_Mips_Assembler: case DW_LANG_Upc:
		return 1;
	default:
		return 0;
	}
}

/* A function row per range of die not at 0, then its inline tree (its
 * DIEs before end: die.h). */
static int
add_func(struct bld *d, Dwarf_Die die, Dwarf_Off end)
{
	uint32_t root = (uint32_t)d->b.n[D9S_IX_NODE], got;
	Dwarf_Error err = NULL;
	size_t i, kept = 0;
	int rc;

	rc = d9s_ranges_read(&d->scratch, &d->cx.cu, die, &err);
	if (rc == D9S_RANGES_NOMEM)
		return -1;
	if (rc != 1) {
		if (err != NULL)
			d->stats.errors++;
		d9s_die_forget(d->dbg, &err);
		return 0;
	}
	for (i = 0; i < d->scratch.n; i++) {
		struct d9s_ix_func *f;

		if (d->scratch.r[i].lo == 0)
			continue;	/* dropped by the linker */
		if ((f = d9s_ixb_add(&d->b, D9S_IX_FUNC, 1)) == NULL)
			return -1;
		f->lo = d->scratch.r[i].lo;
		f->hi = d->scratch.r[i].hi;
		f->cu = d->cu;
		f->node = root;
		kept++;
	}
	if (kept == 0)
		return 0;
	if (d9s_inltree_build(&d->cx, die, end, &got) != 0)
		return -1;
	return got == root ? 0 : -1;
}

/* The children of parent, which end before end (die.h). */
static int
walk(struct bld *d, Dwarf_Die parent, Dwarf_Off end, int depth)
{
	Dwarf_Error err = NULL;
	Dwarf_Die die, next = NULL;
	Dwarf_Half tag;
	Dwarf_Off bound;
	int rc, nrc, r;

	rc = d9s_die_child(d->dbg, parent, end, &die);
	while (rc == DW_DLV_OK) {
		d->stats.dies++;
		nrc = d9s_die_next(d->dbg, die, end, &next, &bound);
		if (dwarf_tag(die, &tag, &err) != DW_DLV_OK) {
			d9s_die_forget(d->dbg, &err);
			tag = 0;
		}
		switch (tag) {
		case DW_TAG_subprogram:
			r = add_func(d, die, bound);
			break;
		case DW_TAG_namespace:
		case DW_TAG_module:
		case DW_TAG_structure_type:
		case DW_TAG_class_type:
		case DW_TAG_union_type:
		case DW_TAG_interface_type:
			r = depth < D9S_MAX_DEPTH ?
			    walk(d, die, bound, depth + 1) : 0;
			break;
		default:
			r = 0;
		}
		dwarf_dealloc_die(die);
		if (r == -1) {
			if (nrc == DW_DLV_OK)
				dwarf_dealloc_die(next);
			return -1;
		}
		die = next;
		rc = nrc;
	}
	if (rc == DW_DLV_ERROR)
		d->stats.errors++;
	return 0;
}

static int
add_spans(struct bld *d, const struct d9s_ranges *r)
{
	for (size_t i = 0; i < r->n; i++) {
		struct d9s_ix_span *s;

		if (r->r[i].lo == 0)
			continue;	/* dropped by the linker */
		if ((s = d9s_ixb_add(&d->b, D9S_IX_SPAN, 1)) == NULL)
			return -1;
		s->lo = r->r[i].lo;
		s->hi = r->r[i].hi;
		s->cu = d->cu;
	}
	return 0;
}

/* The line table of the CU and where the CU lives: its DIE's ranges,
 * else its line sequences. */
static int
add_lines(struct bld *d, Dwarf_Die cudie, const char *comp_dir)
{
	struct d9s_ix_cu c = { 0, 0, 0, 0 };
	struct d9s_ranges seq = { NULL, 0, 0 };
	Dwarf_Error err = NULL;
	int rc;

	rc = d9s_lines_load(&d->b, &c, &seq, cudie, comp_dir, &err);
	if (rc == -1) {
		d->stats.errors++;
		d9s_die_forget(d->dbg, &err);
	}
	((struct d9s_ix_cu *)d->b.tab[D9S_IX_CU])[d->cu] = c;
	if (rc == D9S_LINES_NOMEM) {
		d9s_ranges_free(&seq);
		return -1;
	}
	rc = d9s_ranges_read(&d->scratch, &d->cx.cu, cudie, &err);
	d9s_die_forget(d->dbg, &err);
	if (rc == D9S_RANGES_NOMEM)
		rc = -1;
	else if (rc == 1 && d->scratch.n > 0)
		rc = add_spans(d, &d->scratch);
	else
		rc = add_spans(d, &seq);
	d9s_ranges_free(&seq);
	return rc;
}

static int
index_cu(struct bld *d, Dwarf_Die cudie, unsigned version)
{
	Dwarf_Error err = NULL;
	Dwarf_Unsigned lang;
	Dwarf_Addr base;

	d->cu = (uint32_t)d->b.n[D9S_IX_CU];
	if (d9s_ixb_add(&d->b, D9S_IX_CU, 1) == NULL)
		return -1;
	d->cx.cu.version = version;
	d->cx.cu.base = 0;
	d->cx.c_like = 0;
	if (dwarf_lowpc(cudie, &base, &err) == DW_DLV_OK)
		d->cx.cu.base = base;
	d9s_die_forget(d->dbg, &err);
	if (dwarf_srclang(cudie, &lang, &err) == DW_DLV_OK)
		d->cx.c_like = c_like(lang);
	d9s_die_forget(d->dbg, &err);
	if (add_lines(d, cudie, d9s_die_string(d->dbg, cudie,
	    DW_AT_comp_dir)) == -1)
		return -1;
	return walk(d, cudie, UINT64_MAX, 0);
}

static int
fn_cmp(const void *a, const void *b)
{
	const struct d9s_ix_func *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	if (x->hi != y->hi)
		return x->hi < y->hi ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

static int
span_cmp(const void *a, const void *b)
{
	const struct d9s_ix_span *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->cu < y->cu ? -1 : x->cu > y->cu;
}

/* Sort the address tables; the running maximum of function ends. */
static void
finish(struct bld *d)
{
	struct d9s_ix_func *fn = d->b.tab[D9S_IX_FUNC];
	size_t nfn = d->b.n[D9S_IX_FUNC], i;
	uint64_t maxhi = 0;

	if (nfn > 1)
		qsort(fn, nfn, sizeof *fn, fn_cmp);
	for (i = 0; i < nfn; i++) {
		if (fn[i].hi > maxhi)
			maxhi = fn[i].hi;
		fn[i].maxhi = maxhi;
	}
	if (d->b.n[D9S_IX_SPAN] > 1)
		qsort(d->b.tab[D9S_IX_SPAN], d->b.n[D9S_IX_SPAN],
		    sizeof(struct d9s_ix_span), span_cmp);
	d->stats.funcs = nfn;
	d->stats.rows = d->b.n[D9S_IX_ROW];
}

static int
build(struct bld *d, struct d9_err *e)
{
	Dwarf_Error err = NULL;
	int rc;

	for (;;) {
		Dwarf_Unsigned len, typeoff, next;
		Dwarf_Half version, asize, lsize, esize, cutype;
		Dwarf_Off abbrev;
		Dwarf_Sig8 sig;
		Dwarf_Die cudie;

		rc = dwarf_next_cu_header_d(d->dbg, 1, &len, &version, &abbrev,
		    &asize, &lsize, &esize, &sig, &typeoff, &next, &cutype,
		    &err);
		if (rc == DW_DLV_NO_ENTRY)
			break;
		if (rc == DW_DLV_ERROR) {
			/* the CU chain is broken: keep what was read */
			d->stats.errors++;
			d9s_die_forget(d->dbg, &err);
			break;
		}
		if (dwarf_siblingof_b(d->dbg, NULL, 1, &cudie, &err) !=
		    DW_DLV_OK) {
			d->stats.errors++;
			d9s_die_forget(d->dbg, &err);
			continue;
		}
		rc = index_cu(d, cudie, version);
		dwarf_dealloc_die(cudie);
		if (rc == -1)
			return d9_err_set(e, D9_ERR_NOMEM, 0, "DWARF index");
		d->stats.cus++;
	}
	finish(d);
	return 0;
}

int
d9s_dwarf_build(const char *path, void **buf, size_t *len, struct d9_err *e)
{
	struct bld d;
	Dwarf_Error err = NULL;
	int rc;

	*buf = NULL;
	*len = 0;
	memset(&d, 0, sizeof d);
	if ((rc = d9s_dwcheck_file(&d.chk, path, e)) != 0) {
		d9s_dwcheck_free(&d.chk);
		return rc;
	}
	rc = dwarf_init_path(path, NULL, 0, DW_DLC_READ, DW_GROUPNUMBER_ANY,
	    NULL, NULL, &d.dbg, NULL, 0, NULL, &err);
	if (rc != DW_DLV_OK) {
		if (rc == DW_DLV_ERROR) {
			rc = d9_err_set(e, D9_ERR_BAD_VALUE, 0,
			    "cannot read DWARF: %s", dwarf_errmsg(err));
			dwarf_dealloc_error(NULL, err);
		} else
			rc = d9_err_set(e, D9_ERR_BAD_VALUE, 0,
			    "no DWARF sections");
		d9s_dwcheck_free(&d.chk);
		return rc;
	}
	d9s_names_init(&d.names, d.dbg, &d.b);
	d.cx.cu.dbg = d.dbg;
	d.cx.cu.chk = &d.chk;
	d.cx.b = &d.b;
	d.cx.names = &d.names;
	d.cx.scratch = &d.scratch;
	rc = build(&d, e);
	if (dwarf_finish(d.dbg, &err) == DW_DLV_ERROR)
		dwarf_dealloc_error(NULL, err);
	if (rc == 0 && d9s_ixb_pack(&d.b, &d.stats, buf, len) != 0)
		rc = d9_err_set(e, D9_ERR_NOMEM, 0, "DWARF index");
	d9s_names_free(&d.names);
	d9s_ranges_free(&d.scratch);
	d9s_dwcheck_free(&d.chk);
	d9s_ixb_free(&d.b);
	return rc;
}

int
d9s_dwarf_open(struct d9s_dwarf **out, const char *path, struct d9_err *e)
{
	void *buf;
	size_t len;
	int rc;

	*out = NULL;
	if ((rc = d9s_dwarf_build(path, &buf, &len, e)) != 0)
		return rc;
	return d9s_dwindex_load(out, buf, len, e);
}

static int
build_in_child(void *arg, void **buf, size_t *len, struct d9_err *e)
{
	/*
	 * libdwarf records every block it hands out in a search tree so that
	 * dwarf_finish() can free what was not deallocated: 30% of the index
	 * time here. We deallocate as we go, and what libdwarf itself drops
	 * (some of its error records) ends with the child: switch it off (a
	 * process-wide setting, this process only).
	 */
	dwarf_set_de_alloc_flag(0);
	return d9s_dwarf_build(arg, buf, len, e);
}

int
d9s_dwarf_read(struct d9s_dwarf **out, const char *path, unsigned timeout_ms,
    struct d9_err *e)
{
	struct stat st;
	size_t budget = (size_t)1 << 30, len;
	void *buf;
	int rc;

	*out = NULL;
	/* libdwarf keeps the debug sections in memory, and we the tables */
	if (stat(path, &st) == 0 && st.st_size > 0 &&
	    (uint64_t)st.st_size < ((uint64_t)1 << 40))
		budget += (size_t)st.st_size * 32;
	rc = d9s_isolate(build_in_child, (void *)path, timeout_ms, budget,
	    &buf, &len, e);
	if (rc != 0)
		return rc;
	if ((rc = d9s_dwindex_load(out, buf, len, e)) == -D9_ERR_BAD_VALUE) {
		char why[D9_ERR_MSG_MAX];

		snprintf(why, sizeof why, "%s", e->msg);
		return d9_err_set(e, D9S_DWARF_LOST, 0, "the reader handed "
		    "back a broken index (%s)", why);
	}
	return rc;
}
