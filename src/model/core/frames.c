/*
 * frames.c: the symbol table is sorted once by (segment, address, depth,
 * arrival), so one address's inline levels are adjacent; a repeated
 * (address, depth) keeps the latest definition.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/search.h"
#include "base/stackcap.h"
#include "base/vec.h"
#include "model/core/frames.h"
#include "model/core/model.h"
#include "model/core/tables.h"
#include "model/core/twins.h"

struct symkey {
	uint32_t	seg, depth, row;
	uint64_t	addr;
};

static int
cmp_sym(const void *a, const void *b)
{
	const struct symkey *x = a, *y = b;

	if (x->seg != y->seg)
		return x->seg < y->seg ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->depth != y->depth)
		return x->depth < y->depth ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

/* m->sym_seg_off: the first symbol row of each segment (rows sorted by
 * segment), segs.n + 1 entries. */
static int
seg_offsets(struct d9m_model *m)
{
	size_t ns = m->segs.n, r = 0;
	uint32_t *off = malloc((ns + 1) * sizeof *off);

	if (off == NULL)
		return -1;
	for (size_t s = 0; s <= ns; s++) {
		while (r < m->symbols.n && m->symbols.seg[r] < s)
			r++;
		off[s] = (uint32_t)r;
	}
	free(m->sym_seg_off);
	m->sym_seg_off = off;
	return 0;
}

int
d9m_symbols_index(struct d9m_model *m)
{
	size_t n = m->symbols.n;
	struct symkey *k;
	uint32_t *perm;
	int rc;

	if (n < 2)
		return seg_offsets(m);
	k = malloc(n * sizeof *k);
	perm = malloc(n * sizeof *perm);
	if (k == NULL || perm == NULL) {
		free(k);
		free(perm);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		k[i].seg = m->symbols.seg[i];
		k[i].addr = m->symbols.addr[i];
		k[i].depth = m->symbols.depth[i];
		k[i].row = (uint32_t)i;
	}
	qsort(k, n, sizeof *k, cmp_sym);
	for (size_t i = 0; i < n; i++)
		perm[i] = k[i].row;
	rc = d9m_tab_permute(&m->symbols, &d9m_desc_symbols, perm, n);
	free(k);
	free(perm);
	return rc < 0 ? rc : seg_offsets(m);
}

/* First row of (seg, addr), or n: a binary search inside the segment's
 * rows (a directory of many segments has many rows in all). */
static size_t
sym_first(const struct d9m_model *m, uint32_t seg, uint64_t addr)
{
	size_t lo, hi;

	if (m->sym_seg_off == NULL || seg >= m->segs.n)
		return m->symbols.n;
	lo = m->sym_seg_off[seg];
	hi = m->sym_seg_off[seg + 1];
	lo = d9_bisect_u64(m->symbols.addr, lo, hi, addr);
	if (lo < m->sym_seg_off[seg + 1] && m->symbols.addr[lo] == addr)
		return lo;
	return m->symbols.n;
}

int
d9m_sym_placeholder(const struct d9m_model *m, size_t r)
{
	const char *name;

	if (m->symbols.name[r] == D9_NONE)
		return 0;
	name = d9m_str(m, m->symbols.name[r]);

	if (name[0] != '[')
		return 0;
	if (strncmp(name, "[unknown]", 9) == 0 ||
	    strncmp(name, "[symbolize-failed]", 18) == 0)
		return 1;
	return strncmp(name, "[kernel]", 8) == 0 ? 2 : 0;
}

/* Every frame starts as the bare address (no snprintf: this runs for
 * each frame of each stack shown). */
static void
hex_frame(struct d9m_frame *f, uint64_t addr)
{
	static const char digits[] = "0123456789abcdef";
	size_t n = (size_t)(67 - __builtin_clzll(addr | 1)) / 4;

	memset(f, 0, offsetof(struct d9m_frame, hex));
	f->kernel = addr >> 63;
	f->hex[0] = '0';
	f->hex[1] = 'x';
	f->hex[2 + n] = '\0';
	for (size_t i = n + 1; i >= 2; i--, addr >>= 4)
		f->hex[i] = digits[addr & 15];
}

/* The frame that stands for cut frames where a stack was cut. */
static void
cut_frame(struct d9m_frame *f, uint64_t cut)
{
	memset(f, 0, sizeof *f);
	snprintf(f->hex, sizeof f->hex, "[... %" PRIu64 " frame%s cut]", cut,
	    cut == 1 ? "" : "s");
}

struct d9m_frame *
d9m_frames_alloc(void)
{
	return malloc(D9_STACK_MAX * sizeof(struct d9m_frame));
}

size_t
d9m_frames_of(const struct d9m_model *m, const struct d9m_resolver *r,
    uint32_t seg, uint64_t addr, int is_return, struct d9m_frame *out,
    size_t max)
{
	size_t first, last, n = 0;
	int named;
	struct d9m_frame bare;
	uint64_t cut;

	if (max == 0)
		return 0;
	if (d9_stack_is_cut(addr, &cut)) {	/* the reader's marker */
		cut_frame(&out[0], cut);
		return 1;
	}
	first = sym_first(m, seg, addr);
	named = first != m->symbols.n && d9m_sym_placeholder(m, first) == 0;
	if (r != NULL && r->resolve != NULL && (!named || r->prefer)) {
		n = r->resolve(r->ctx, m, seg, addr, is_return, out, max);
		for (size_t i = 0; i < n; i++)
			if (d9m_is_mapping_symbol(out[i].name))
				out[i].name = NULL;
		if (n > 0 && (!named || out[0].name != NULL))
			return n;
		n = 0;
	}
	if (first == m->symbols.n) {
		hex_frame(&out[0], addr);
		return 1;
	}
	for (last = first; last + 1 < m->symbols.n &&
	    m->symbols.seg[last + 1] == seg &&
	    m->symbols.addr[last + 1] == addr; last++)
		;
	/* innermost (highest depth) first; of equal depths the latest,
	 * which is the highest row of its run */
	hex_frame(&bare, addr);
	for (size_t i = last + 1, prev = SIZE_MAX; i-- > first && n < max; ) {
		struct d9m_frame *f;

		if (m->symbols.depth[i] == prev)
			continue;
		prev = m->symbols.depth[i];
		f = &out[n++];
		*f = bare;
		f->name = m->symbols.name[i] != D9_NONE ?
		    d9m_str(m, m->symbols.name[i]) : NULL;
		if (d9m_is_mapping_symbol(f->name))
			f->name = NULL;	/* the address says more */
		f->file = m->symbols.file[i] != D9_NONE ?
		    d9m_str(m, m->symbols.file[i]) : NULL;
		f->line = m->symbols.line[i];
		f->inlined = m->symbols.depth[i] > 0;
	}
	if (n == 0)
		hex_frame(&out[n++], addr);
	return n;
}

/* ---- the memo (frames.h): an entry says which (segment, address)
 * it holds the frames of and where they are in one array of frames.
 * A directory's segments each name the same addresses in their own
 * rows: the segment is part of the key. ---- */

static uint64_t
fmemo_key(uint32_t seg, uint64_t addr)
{
	return addr ^ (uint64_t)seg * 0x9e3779b97f4a7c15u;
}

void
d9m_fmemo_init(struct d9m_fmemo *k)
{
	memset(k, 0, sizeof *k);
	d9_hmap_init(&k->map[0]);
	d9_hmap_init(&k->map[1]);
}

void
d9m_fmemo_free(struct d9m_fmemo *k)
{
	d9_hmap_free(&k->map[0]);
	d9_hmap_free(&k->map[1]);
	free(k->ent);
	free(k->f);
	memset(k, 0, sizeof *k);
}

/* The frames kept for addr of segment seg (is_return: as a return
 * address), *n of them; NULL when none are. */
static const struct d9m_frame *
fmemo_get(const struct d9m_fmemo *k, uint32_t seg, uint64_t addr,
    int is_return, size_t *n)
{
	uint32_t e = d9_hmap_get(&k->map[is_return != 0],
	    fmemo_key(seg, addr));

	if (e == D9_NONE || k->ent[e].seg != seg || k->ent[e].addr != addr)
		return NULL;
	*n = k->ent[e].n;
	return k->f + k->ent[e].at;
}

/* Keep f[0, n) as the frames of (seg, addr, is_return). Nothing when
 * out of memory, or when another pair has the same key (it is then
 * looked up each time). */
static void
fmemo_put(struct d9m_fmemo *k, uint32_t seg, uint64_t addr,
    int is_return, const struct d9m_frame *f, size_t n)
{
	struct d9_hmap *map = &k->map[is_return != 0];
	struct d9m_fmemo_ent *e;

	if (n == 0 || n > UINT32_MAX || k->nent >= D9_NONE ||
	    d9_hmap_get(map, fmemo_key(seg, addr)) != D9_NONE ||
	    d9_grow(&k->ent, &k->capent, k->nent + 1, sizeof *k->ent) < 0 ||
	    d9_grow(&k->f, &k->capf, k->nf + n, sizeof *k->f) < 0 ||
	    d9_hmap_put(map, fmemo_key(seg, addr), (uint32_t)k->nent) < 0)
		return;
	e = &k->ent[k->nent++];
	e->addr = addr;
	e->seg = seg;
	e->n = (uint32_t)n;
	e->at = k->nf;
	memcpy(k->f + k->nf, f, n * sizeof *f);
	k->nf += n;
}

/* d9m_frames_of through the memo k (NULL: none). An answer is kept
 * only whole (fewer frames than there was room for), and given from
 * the memo only where it fits: the same frames either way. Twin
 * segments share their entries. */
static size_t
frames_of(const struct d9m_model *m, const struct d9m_resolver *r,
    struct d9m_fmemo *k, uint32_t seg, uint64_t addr, int is_return,
    struct d9m_frame *out, size_t max)
{
	const struct d9m_frame *kept;
	size_t n;

	if (k != NULL)
		seg = d9m_twin_of(m, seg);
	if (k != NULL && (kept = fmemo_get(k, seg, addr, is_return,
	    &n)) != NULL && n <= max) {
		memcpy(out, kept, n * sizeof *out);
		return n;
	}
	n = d9m_frames_of(m, r, seg, addr, is_return, out, max);
	if (k != NULL && n < max)
		fmemo_put(k, seg, addr, is_return, out, n);
	return n;
}

/* The frames of addresses i .. nf of p into out (see d9m_stack_frames
 * for max). */
static size_t
frames_from(const struct d9m_model *m, const struct d9m_resolver *r,
    struct d9m_fmemo *k, uint32_t seg, const uint8_t *p, size_t i,
    size_t nf, struct d9m_frame *out, size_t max)
{
	size_t n = 0;
	uint64_t cut;

	for (; i < nf && n < max; i++) {
		n += frames_of(m, r, k, seg, d9p_le64(p + 8 * i), i > 0,
		    out + n, max - n);
		if (n < max || i + 1 == nf || max < D9_STACK_MAX)
			continue;
		/* the whole stack asked, and no room for the rest: the
		 * last frame says what is not shown (the last address, the
		 * reader's marker, may stand for more) */
		cut = nf - i;
		if (d9_stack_is_cut(d9p_le64(p + 8 * (nf - 1)), &cut))
			cut += nf - i - 1;
		cut_frame(&out[max - 1], cut);
	}
	return n;
}

size_t
d9m_stack_frames_memo(const struct d9m_model *m,
    const struct d9m_resolver *r, struct d9m_fmemo *k, uint32_t seg,
    uint32_t stack, struct d9m_frame *out, size_t max)
{
	size_t nf;
	const uint8_t *p = d9m_stack(m, stack, &nf);

	return frames_from(m, r, k, seg, p, 0, nf, out, max);
}

size_t
d9m_stack_frames(const struct d9m_model *m, const struct d9m_resolver *r,
    uint32_t seg, uint32_t stack, struct d9m_frame *out, size_t max)
{
	return d9m_stack_frames_memo(m, r, NULL, seg, stack, out, max);
}

/* The first of out[0 .. n) outside the kernel with user, else the first
 * (SIZE_MAX: none). */
static size_t
leaf_of(const struct d9m_frame *out, size_t n, int user)
{
	for (size_t j = 0; user && j < n; j++)
		if (!out[j].kernel)
			return j;
	return n ? 0 : SIZE_MAX;
}

size_t
d9m_stack_leaf(const struct d9m_model *m, const struct d9m_resolver *r,
    uint32_t seg, uint32_t stack, int user, struct d9m_frame *out)
{
	size_t nf, n = 0;
	const uint8_t *p = d9m_stack(m, stack, &nf);

	/* address by address while the frames cannot reach the last slot,
	 * which a whole stack's cut may name otherwise */
	for (size_t i = 0; i < nf && n < D9_STACK_MAX - 1; i++) {
		size_t k = frames_of(m, r, NULL, seg, d9p_le64(p + 8 * i),
		    i > 0, out + n, D9_STACK_MAX - n);

		for (size_t j = n; j < n + k && j < D9_STACK_MAX - 1; j++)
			if (!user || !out[j].kernel)
				return j;
		n += k;
		if (i + 1 == nf)
			return 0;	/* all in the kernel: the innermost */
	}
	if (nf == 0)
		return SIZE_MAX;
	return leaf_of(out, frames_from(m, r, NULL, seg, p, 0, nf, out,
	    D9_STACK_MAX), user);
}

int
d9m_is_mapping_symbol(const char *name)
{
	return name != NULL && name[0] == '$' && name[1] != '\0' &&
	    strchr("adtx", name[1]) != NULL && (name[2] == '\0' ||
	    name[2] == '.');
}

int
d9m_is_alloc_hook(const char *name)
{
	/* dial9's hooks (ANALYSIS 7), Rust's allocator shims, libd9rec's
	 * wrappers and hook; in a name */
	static const char *const parts[] = {
		"memory_profiling::hook::on_alloc",
		"memory_profiling::allocator::Dial9Allocator",
		"__rust_alloc", "__rust_realloc", "__rdl_alloc", "__rdl_realloc",
		"__rg_alloc", "__rg_realloc",
		"d9rec_alloc_hook", "d9rec_malloc", "d9rec_calloc",
		"d9rec_realloc",
	};
	/* libd9rec-malloc.so's entry points: the whole name */
	static const char *const whole[] = { "malloc", "calloc", "realloc",
		"memalign", "aligned_alloc", "posix_memalign" };

	if (name == NULL)
		return 0;
	/* every part and whole name has "alloc" in it but the two
	 * memaligns: most names are let go after one search */
	if (strstr(name, "alloc") == NULL)
		return strcmp(name, "memalign") == 0 ||
		    strcmp(name, "posix_memalign") == 0;
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
		if (strstr(name, parts[i]) != NULL)
			return 1;
	for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++)
		if (strcmp(name, whole[i]) == 0)
			return 1;
	return 0;
}

size_t
d9m_alloc_frames_memo(const struct d9m_model *m,
    const struct d9m_resolver *r, struct d9m_fmemo *k, uint32_t seg,
    uint32_t stack, struct d9m_frame *out, size_t max)
{
	size_t nf, i = 0;
	const uint8_t *p = d9m_stack(m, stack, &nf);

	/* drop leading addresses any of whose inline names is a hook */
	for (; i < nf; i++) {
		size_t n = frames_of(m, r, k, seg, d9p_le64(p + 8 * i), i > 0,
		    out, max), hook = 0;

		for (size_t j = 0; j < n; j++)
			hook |= (size_t)d9m_is_alloc_hook(out[j].name);
		if (!hook)
			break;
	}
	return frames_from(m, r, k, seg, p, i, nf, out, max);
}

size_t
d9m_alloc_frames(const struct d9m_model *m, const struct d9m_resolver *r,
    uint32_t seg, uint32_t stack, struct d9m_frame *out, size_t max)
{
	return d9m_alloc_frames_memo(m, r, NULL, seg, stack, out, max);
}
