/*
 * dwarf.c: index building and lookups. Layout of the index:
 *
 *	cu[]	one per compile unit: CU DIE offset, DWARF version, base
 *		address, comp_dir, whether DW_AT_name is a linkage name
 *		(C-like languages, as binutils' mangle_style() == 0), and
 *		its line table, decoded on the CU's first lookup (a third of
 *		the index time otherwise)
 *	fn[]	one row per function address range, sorted by lo; maxhi is
 *		the running maximum of hi, so a backwards scan can stop as
 *		soon as no earlier range can reach the address
 *	span[]	address ranges of the CUs (DW_AT_ranges or low/high of the
 *		CU DIE; the line-table sequences of a CU without them),
 *		sorted: which CU's line table to ask about an address that
 *		no function covers
 *	names	DIE offset -> resolved, demangled name (strings in arena)
 *
 * Like binutils, the function picked for an address is the smallest range
 * containing it (nested functions), ties going to the later DIE. Strings
 * from dwarf_formstring() point into libdwarf's section copies and stay
 * valid until dwarf_finish(), which d9s_dwarf_free() calls.
 */
#include <stdlib.h>
#include <string.h>

#include <libdwarf/dwarf.h>
#include <libdwarf/libdwarf.h>

#include "base/arena.h"
#include "base/hmap.h"
#include "base/vec.h"
#include "symbolize/demangle.h"
#include "symbolize/die.h"
#include "symbolize/dwcheck.h"
#include "symbolize/dwarf.h"
#include "symbolize/inltree.h"
#include "symbolize/lines.h"
#include "symbolize/ranges.h"
#include "symbolize/search.h"

#define D9S_MAX_DEPTH	64	/* DIE nesting followed; deeper is ignored */
#define D9S_MAX_HOPS	8	/* abstract_origin/specification hops */

struct dcu {
	Dwarf_Off		 off;
	uint64_t		 base;
	const char		*comp_dir;
	unsigned		 version;
	int			 c_like;
	int			 lines_state;	/* 0 not read, 1 read, -1 bad */
	struct d9s_lines	 lines;
};

struct dfunc {
	uint64_t	lo, hi, maxhi;
	Dwarf_Off	off;
	uint32_t	cu;
};

struct dspan {
	uint64_t	lo, hi;
	uint32_t	cu;
};

struct dname {
	const char	*name;
	uint32_t	 flags;
};

struct d9s_dwarf {
	Dwarf_Debug		 dbg;
	struct d9_arena		 arena;
	struct dcu		*cu;
	size_t			 ncu, cucap;
	struct dfunc		*fn;
	size_t			 nfn, fncap;
	struct dspan		*span;
	size_t			 nspan, spancap;
	struct d9_hmap		 name_of;
	struct d9_hmap		 tree_of;	/* function DIE -> trees[] */
	struct d9s_inltree	*trees;
	size_t			 ntrees, treecap;
	struct dname		*names;
	size_t			 nnames, namescap;
	struct d9s_ranges	 scratch;
	struct d9s_dwarf_stats	 stats;
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

/* ---- index building ---- */

static int
add_func(struct d9s_dwarf *d, Dwarf_Die die, uint32_t cu)
{
	const struct dcu *c = &d->cu[cu];
	Dwarf_Error err = NULL;
	Dwarf_Off off;
	size_t i;
	int rc;

	rc = d9s_ranges_read(&d->scratch, d->dbg, die, c->version, c->base,
	    &err);
	if (rc == D9S_RANGES_NOMEM)
		return -1;
	if (rc != 1) {
		if (err != NULL)
			d->stats.errors++;
		d9s_die_forget(d->dbg, &err);
		return 0;
	}
	if (dwarf_dieoffset(die, &off, &err) != DW_DLV_OK) {
		d9s_die_forget(d->dbg, &err);
		d->stats.errors++;
		return 0;
	}
	for (i = 0; i < d->scratch.n; i++) {
		struct dfunc *f;

		if (d->scratch.r[i].lo == 0)
			continue;
		if (d9_grow(&d->fn, &d->fncap, d->nfn + 1, sizeof *d->fn) == -1)
			return -1;
		f = &d->fn[d->nfn++];
		f->lo = d->scratch.r[i].lo;
		f->hi = d->scratch.r[i].hi;
		f->off = off;
		f->cu = cu;
	}
	return 0;
}

static int
walk(struct d9s_dwarf *d, Dwarf_Die parent, uint32_t cu, int depth)
{
	Dwarf_Error err = NULL;
	Dwarf_Die die, next;
	Dwarf_Half tag;
	int rc;

	rc = dwarf_child(parent, &die, &err);
	while (rc == DW_DLV_OK) {
		d->stats.dies++;
		if (dwarf_tag(die, &tag, &err) != DW_DLV_OK) {
			d9s_die_forget(d->dbg, &err);
			tag = 0;
		}
		switch (tag) {
		case DW_TAG_subprogram:
			rc = add_func(d, die, cu);
			break;
		case DW_TAG_namespace:
		case DW_TAG_module:
		case DW_TAG_structure_type:
		case DW_TAG_class_type:
		case DW_TAG_union_type:
		case DW_TAG_interface_type:
			rc = depth < D9S_MAX_DEPTH ?
			    walk(d, die, cu, depth + 1) : 0;
			break;
		default:
			rc = 0;
		}
		if (rc == -1) {
			dwarf_dealloc_die(die);
			return -1;
		}
		rc = dwarf_siblingof_b(d->dbg, die, 1, &next, &err);
		dwarf_dealloc_die(die);
		die = next;
	}
	if (rc == DW_DLV_ERROR) {
		d->stats.errors++;
		d9s_die_forget(d->dbg, &err);
	}
	return 0;
}

static int
add_span(struct d9s_dwarf *d, uint32_t cu, uint64_t lo, uint64_t hi)
{
	if (lo == 0)
		return 0;		/* dropped by the linker */
	if (d9_grow(&d->span, &d->spancap, d->nspan + 1, sizeof *d->span) ==
	    -1)
		return -1;
	d->span[d->nspan].lo = lo;
	d->span[d->nspan].hi = hi;
	d->span[d->nspan].cu = cu;
	d->nspan++;
	return 0;
}

/* Decode the line table of c once; cudie may be NULL (looked up). -1 only
 * when out of memory: a broken table costs the CU its lines only. */
static int
load_lines(struct d9s_dwarf *d, struct dcu *c, Dwarf_Die cudie)
{
	Dwarf_Error err = NULL;
	Dwarf_Die own = NULL;
	int rc;

	if (c->lines_state != 0)
		return 0;
	c->lines_state = -1;
	if (cudie == NULL && (cudie = own = d9s_die_at(d->dbg, c->off)) == NULL)
		return 0;
	rc = d9s_lines_load(&c->lines, d->dbg, cudie, c->comp_dir, &d->arena,
	    &err);
	if (own != NULL)
		dwarf_dealloc_die(own);
	if (rc != 0) {
		d9s_die_forget(d->dbg, &err);
		d9s_lines_free(&c->lines);
		d->stats.errors++;
		return rc == D9S_LINES_NOMEM ? -1 : 0;
	}
	c->lines_state = 1;
	d->stats.rows += c->lines.nrow;
	return 0;
}

/* Where CU cu lives: its DIE's ranges, else its line sequences. */
static int
add_cu_spans(struct d9s_dwarf *d, uint32_t cu, Dwarf_Die cudie)
{
	struct dcu *c = &d->cu[cu];
	Dwarf_Error err = NULL;
	size_t i;
	int rc;

	rc = d9s_ranges_read(&d->scratch, d->dbg, cudie, c->version, c->base,
	    &err);
	d9s_die_forget(d->dbg, &err);
	if (rc == D9S_RANGES_NOMEM)
		return -1;
	if (rc == 1 && d->scratch.n > 0) {
		for (i = 0; i < d->scratch.n; i++)
			if (add_span(d, cu, d->scratch.r[i].lo,
			    d->scratch.r[i].hi) == -1)
				return -1;
		return 0;
	}
	if (load_lines(d, c, cudie) == -1)
		return -1;
	for (i = 0; i < c->lines.nseq; i++)
		if (add_span(d, cu, c->lines.seq_lo[i],
		    c->lines.seq_hi[i]) == -1)
			return -1;
	return 0;
}

static int
index_cu(struct d9s_dwarf *d, Dwarf_Die cudie, unsigned version)
{
	Dwarf_Error err = NULL;
	Dwarf_Unsigned lang;
	Dwarf_Addr base;
	struct dcu *c;
	uint32_t cu;

	if (d->ncu >= UINT32_MAX ||
	    d9_grow(&d->cu, &d->cucap, d->ncu + 1, sizeof *d->cu) == -1)
		return -1;
	cu = (uint32_t)d->ncu++;
	c = &d->cu[cu];
	memset(c, 0, sizeof *c);
	c->version = version;
	if (dwarf_dieoffset(cudie, &c->off, &err) != DW_DLV_OK)
		d9s_die_forget(d->dbg, &err);
	if (dwarf_lowpc(cudie, &base, &err) == DW_DLV_OK)
		c->base = base;
	d9s_die_forget(d->dbg, &err);
	if (dwarf_srclang(cudie, &lang, &err) == DW_DLV_OK)
		c->c_like = c_like(lang);
	d9s_die_forget(d->dbg, &err);
	c->comp_dir = d9s_die_string(d->dbg, cudie, DW_AT_comp_dir);
	if (add_cu_spans(d, cu, cudie) == -1)
		return -1;
	return walk(d, cudie, cu, 0);
}

static int
fn_cmp(const void *a, const void *b)
{
	const struct dfunc *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	if (x->hi != y->hi)
		return x->hi < y->hi ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static int
span_cmp(const void *a, const void *b)
{
	const struct dspan *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->cu < y->cu ? -1 : x->cu > y->cu;
}

static int
build(struct d9s_dwarf *d, struct d9_err *e)
{
	Dwarf_Error err = NULL;
	uint64_t maxhi = 0;
	size_t i;
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
	qsort(d->fn, d->nfn, sizeof *d->fn, fn_cmp);
	for (i = 0; i < d->nfn; i++) {
		if (d->fn[i].hi > maxhi)
			maxhi = d->fn[i].hi;
		d->fn[i].maxhi = maxhi;
	}
	qsort(d->span, d->nspan, sizeof *d->span, span_cmp);
	d->stats.funcs = d->nfn;
	return 0;
}

int
d9s_dwarf_open(struct d9s_dwarf **out, const char *path, struct d9_err *e)
{
	struct d9s_dwarf *d;
	Dwarf_Error err = NULL;
	int rc;

	*out = NULL;
	if ((d = calloc(1, sizeof *d)) == NULL)
		return d9_err_set(e, D9_ERR_NOMEM, 0, "DWARF index");
	d9_arena_init(&d->arena, 0);
	d9_hmap_init(&d->name_of);
	/*
	 * libdwarf records every block it hands out in a search tree so that
	 * dwarf_finish() can free what callers forgot: 30% of the index time
	 * here. Everything is deallocated as we go, so switch it off (a
	 * process-wide libdwarf setting; d9top has no other libdwarf user).
	 */
	dwarf_set_de_alloc_flag(0);
	d9_hmap_init(&d->tree_of);
	if ((rc = d9s_dwcheck_lists(path, e)) != 0) {
		d9s_dwarf_free(&d);
		return rc;
	}
	rc = dwarf_init_path(path, NULL, 0, DW_DLC_READ, DW_GROUPNUMBER_ANY,
	    NULL, NULL, &d->dbg, NULL, 0, NULL, &err);
	if (rc != DW_DLV_OK) {
		if (rc == DW_DLV_ERROR) {
			rc = d9_err_set(e, D9_ERR_BAD_VALUE, 0,
			    "cannot read DWARF: %s", dwarf_errmsg(err));
			dwarf_dealloc_error(NULL, err);
		} else
			rc = d9_err_set(e, D9_ERR_BAD_VALUE, 0,
			    "no DWARF sections");
		d->dbg = NULL;
		d9s_dwarf_free(&d);
		return rc;
	}
	if ((rc = build(d, e)) != 0) {
		d9s_dwarf_free(&d);
		return rc;
	}
	*out = d;
	return 0;
}

void
d9s_dwarf_free(struct d9s_dwarf **dp)
{
	struct d9s_dwarf *d = *dp;
	Dwarf_Error err = NULL;
	size_t i;

	if (d == NULL)
		return;
	for (i = 0; i < d->ncu; i++)
		d9s_lines_free(&d->cu[i].lines);
	if (d->dbg != NULL && dwarf_finish(d->dbg, &err) == DW_DLV_ERROR)
		dwarf_dealloc_error(NULL, err);
	free(d->cu);
	free(d->fn);
	free(d->span);
	free(d->names);
	d9_hmap_free(&d->name_of);
	for (i = 0; i < d->ntrees; i++)
		d9s_inltree_free(&d->trees[i]);
	free(d->trees);
	d9_hmap_free(&d->tree_of);
	d9s_ranges_free(&d->scratch);
	d9_arena_free(&d->arena);
	free(d);
	*dp = NULL;
}

void
d9s_dwarf_stats(const struct d9s_dwarf *d, struct d9s_dwarf_stats *st)
{
	*st = d->stats;
}

/* ---- lookups ---- */

/* Index of the smallest function range holding addr, or -1. */
static ssize_t
find_func(const struct d9s_dwarf *d, uint64_t addr)
{
	size_t i = d9s_upper_bound(d->fn, d->nfn, sizeof *d->fn, addr);
	ssize_t best = -1;

	for (; i > 0 && d->fn[i - 1].maxhi > addr; i--) {
		const struct dfunc *f = &d->fn[i - 1], *b;

		if (addr >= f->hi)
			continue;
		b = best >= 0 ? &d->fn[best] : NULL;
		if (b == NULL || f->hi - f->lo < b->hi - b->lo ||
		    (f->hi - f->lo == b->hi - b->lo && f->off > b->off))
			best = (ssize_t)(i - 1);
	}
	return best;
}

/* CU holding addr (no function does), or -1. */
static ssize_t
find_span_cu(const struct d9s_dwarf *d, uint64_t addr)
{
	size_t end = d9s_upper_bound(d->span, d->nspan, sizeof *d->span, addr);
	size_t i;

	/* spans of one binary rarely overlap; look back a little */
	for (i = end; i > 0 && end - i < 16; i--)
		if (addr < d->span[i - 1].hi)
			return d->span[i - 1].cu;
	return -1;
}

/* Resolve the name of the DIE at off; -1 only when out of memory. */
static int
resolve_name(struct d9s_dwarf *d, const struct dcu *c, Dwarf_Off off,
    struct dname *out)
{
	const char *raw = NULL;
	char *dem;
	int hop;

	out->name = NULL;
	out->flags = 0;
	for (hop = 0; hop < D9S_MAX_HOPS && raw == NULL; hop++) {
		Dwarf_Die die = d9s_die_at(d->dbg, off);
		Dwarf_Off ref;

		if (die == NULL)
			break;
		if ((raw = d9s_die_string(d->dbg, die,
		    DW_AT_linkage_name)) != NULL ||
		    (raw = d9s_die_string(d->dbg, die,
		    DW_AT_MIPS_linkage_name)) != NULL)
			out->flags = D9S_FRAME_LINKAGE;
		else if ((raw = d9s_die_string(d->dbg, die, DW_AT_name)) !=
		    NULL)
			out->flags = c->c_like ? D9S_FRAME_LINKAGE : 0;
		else if (d9s_die_ref(d->dbg, die, DW_AT_abstract_origin,
		    &ref) == 0 ||
		    d9s_die_ref(d->dbg, die, DW_AT_specification, &ref) == 0)
			off = ref;
		else
			hop = D9S_MAX_HOPS;
		dwarf_dealloc_die(die);
	}
	if (raw == NULL)
		return 0;
	if ((dem = d9s_demangle(raw)) != NULL) {
		out->name = d9_arena_memdup(&d->arena, dem, strlen(dem) + 1);
		free(dem);
	} else
		out->name = raw;	/* lives in libdwarf's section copy */
	return out->name == NULL ? -1 : 0;
}

static int
name_of(struct d9s_dwarf *d, const struct dcu *c, Dwarf_Off off,
    struct d9s_frame *f)
{
	struct dname nm;
	uint32_t idx;

	if ((idx = d9_hmap_get(&d->name_of, off)) == D9_NONE) {
		if (resolve_name(d, c, off, &nm) == -1 ||
		    d9_grow(&d->names, &d->namescap, d->nnames + 1,
		    sizeof *d->names) == -1)
			return -1;
		idx = (uint32_t)d->nnames;
		d->names[d->nnames++] = nm;
		if (d9_hmap_put(&d->name_of, off, idx) < 0)
			return -1;
	}
	f->function = d->names[idx].name;
	f->flags |= d->names[idx].flags;
	return 0;
}

/* The inline tree of function row fi, built on first use; NULL when
 * out of memory. */
static const struct d9s_inltree *
tree_of(struct d9s_dwarf *d, const struct dfunc *f)
{
	const struct dcu *c = &d->cu[f->cu];
	uint32_t idx;

	if ((idx = d9_hmap_get(&d->tree_of, f->off)) != D9_NONE)
		return &d->trees[idx];
	if (d->ntrees >= UINT32_MAX ||
	    d9_grow(&d->trees, &d->treecap, d->ntrees + 1,
	    sizeof *d->trees) == -1 ||
	    d9s_inltree_build(&d->trees[d->ntrees], d->dbg, f->off, c->version,
	    c->base, &d->scratch) == -1)
		return NULL;
	if (d9_hmap_put(&d->tree_of, f->off, (uint32_t)d->ntrees) < 0) {
		d9s_inltree_free(&d->trees[d->ntrees]);
		return NULL;
	}
	return &d->trees[d->ntrees++];
}

int
d9s_dwarf_lookup(struct d9s_dwarf *d, uint64_t addr, struct d9s_frame *frames,
    size_t cap, struct d9_err *e)
{
	uint32_t chain[D9S_MAX_FRAMES];
	const struct d9s_inltree *t;
	const struct d9s_line_row *row;
	struct dcu *c;
	ssize_t fi, cu;
	size_t n, i;

	if (cap == 0)
		return 0;
	fi = find_func(d, addr);
	cu = fi >= 0 ? (ssize_t)d->fn[fi].cu : find_span_cu(d, addr);
	if (cu < 0)
		return 0;
	c = &d->cu[cu];
	if (load_lines(d, c, NULL) == -1)
		return d9_err_set(e, D9_ERR_NOMEM, 0, "DWARF lines");
	row = d9s_lines_find(&c->lines, addr);
	memset(&frames[0], 0, sizeof frames[0]);
	if (row != NULL) {
		frames[0].file = d9s_lines_file(&c->lines, row->file);
		frames[0].line = row->line;
		frames[0].discriminator = row->disc;
	}
	frames[0].flags = fi < 0 ? D9S_FRAME_NOFUNC : 0;
	if (fi < 0)
		return row != NULL;
	if ((t = tree_of(d, &d->fn[fi])) == NULL)
		return d9_err_set(e, D9_ERR_NOMEM, 0, "DWARF inline tree");
	n = d9s_inltree_chain(t, addr, chain, cap < D9S_MAX_FRAMES ? cap :
	    D9S_MAX_FRAMES);
	for (i = 0; i < n; i++) {
		const struct d9s_inl_node *nd = &t->node[chain[i]];

		if (i > 0) {
			const struct d9s_inl_node *in = &t->node[chain[i - 1]];

			memset(&frames[i], 0, sizeof frames[i]);
			frames[i].file = d9s_lines_file(&c->lines,
			    in->call_file);
			frames[i].line = in->call_line;
		}
		if (chain[i] != 0)
			frames[i].flags |= D9S_FRAME_INLINED;
		if (name_of(d, c, nd->off, &frames[i]) == -1)
			return d9_err_set(e, D9_ERR_NOMEM, 0, "DWARF names");
	}
	return (int)n;
}
