/*
 * resolver.c: the struct d9m_resolver behind --binary, --debug-dir,
 * --load-base and --kallsyms (resolver.h).
 *
 * Binding to a model sorts the usable ProcMapsEntry rows by (segment,
 * start) and gives each distinct (path, build id) one struct mapfile,
 * opened on first use; a mapping that cannot be used is remembered as
 * such, so its problem is told once. Binaries from --binary are opened
 * at once (a bad path is a usage error) and, when some segment has no
 * maps, their load bias is inferred at binding. Everything below the
 * public callback runs under r->mu.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/search.h"
#include "base/text.h"
#include "base/vec.h"
#include "model/core/frames.h"
#include "model/core/model.h"
#include "symbolize/bias.h"
#include "symbolize/elffile.h"
#include "symbolize/kallsyms.h"
#include "symbolize/resolver.h"
#include "symbolize/symbolizer.h"

#define BASE_MAX	40	/* module name in "0x... (name)" labels */

struct bin {
	const char		*path;
	uint32_t		 mod;
	struct d9s_module_info	 info;
	char			 base[BASE_MAX];
	struct d9s_bias		*seg;		/* per model segment */
	struct d9s_bias		 all;
	int			 fixed;		/* --load-base */
	uint64_t		 fixed_bias;
};

enum { MF_UNTRIED, MF_OK, MF_NONE };

struct mapfile {
	uint32_t	 path, bid;	/* model string ids; bid D9_NONE */
	int		 state;
	int		 debug_only;	/* found under --debug-dir */
	uint64_t	 exec_page;	/* its first executable page */
	uint32_t	 mod;
	char		 base[BASE_MAX];
};

struct res {
	struct d9m_resolver	 pub;
	pthread_mutex_t		 mu;
	struct d9s_symbolizer	*sym;
	struct d9s_kallsyms	*ks;
	struct bin		*bins;
	size_t			 nbins;
	char			*debug_dir;
	void			(*note)(void *, const char *);
	void			*note_ctx;
	const struct d9m_model	*m;		/* bound model, or NULL */
	uint64_t		 serial;	/* its serial (model.h) */
	int			 bind_failed;
	uint32_t		*maprow;	/* rows by (seg, start) */
	size_t			 nmaprow;
	uint32_t		*rowfile;	/* map row -> files index */
	struct mapfile		*files;
	size_t			 nfiles, filecap;
	uint8_t			*seg_maps;	/* segment has maps */
	size_t			 nseg;
	struct d9s_note		*notes;
	size_t			 nnotes, notecap;
	struct d9_arena		 arena;		/* note texts */
};

static void
say(struct res *r, int warning, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
say(struct res *r, int warning, const char *fmt, ...)
{
	char buf[512];
	const char *s;
	va_list ap;

	va_start(ap, fmt);
	d9_text_vformat(buf, sizeof buf, fmt, ap);	/* trace's paths */
	va_end(ap);
	for (size_t i = 0; i < r->nnotes; i++)	/* bound again: said */
		if (strcmp(r->notes[i].msg, buf) == 0)
			return;
	if (r->note != NULL)
		r->note(r->note_ctx, buf);
	if ((s = d9_arena_memdup(&r->arena, buf, strlen(buf) + 1)) == NULL ||
	    d9_grow(&r->notes, &r->notecap, r->nnotes + 1,
	    sizeof *r->notes) == -1)
		return;
	r->notes[r->nnotes].msg = s;
	r->notes[r->nnotes++].warning = warning;
}

/* A warning from the symbolizer (a binary whose DWARF was lost). */
static void
warn(void *ctx, const char *msg)
{
	say(ctx, 1, "%s", msg);
}

static void
set_base(char *out, const char *path)
{
	const char *slash = strrchr(path, '/');

	snprintf(out, BASE_MAX, "%s", slash != NULL ? slash + 1 : path);
}

/* Bytes of a lowercase or uppercase hex build id; 0 when not one. */
static size_t
parse_id(const char *s, uint8_t *out)
{
	size_t n = strlen(s);

	if (n == 0 || n % 2 != 0 || n / 2 > D9S_BUILD_ID_MAX ||
	    strspn(s, "0123456789abcdefABCDEF") != n)
		return 0;
	for (size_t i = 0; i < n / 2; i++) {
		unsigned v;

		sscanf(s + 2 * i, "%2x", &v);
		out[i] = (uint8_t)v;
	}
	return n / 2;
}

/* ---- binding to a model ---- */

static uint32_t
file_index(struct res *r, uint32_t path, uint32_t bid)
{
	for (size_t i = 0; i < r->nfiles; i++)
		if (r->files[i].path == path && r->files[i].bid == bid)
			return (uint32_t)i;
	if (d9_grow(&r->files, &r->filecap, r->nfiles + 1,
	    sizeof *r->files) == -1)
		return D9_NONE;
	memset(&r->files[r->nfiles], 0, sizeof r->files[0]);
	r->files[r->nfiles].path = path;
	r->files[r->nfiles].bid = bid;
	return (uint32_t)r->nfiles++;
}

static int
cmp_row(const void *a, const void *b, void *arg)
{
	const struct d9m_maps *t = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (t->seg[x] != t->seg[y])
		return t->seg[x] < t->seg[y] ? -1 : 1;
	return t->start[x] < t->start[y] ? -1 : t->start[x] > t->start[y];
}

static void
report_bias(struct res *r, const struct bin *b)
{
	size_t own = 0;

	if (b->fixed) {
		say(r, 0, "%s: load bias %#" PRIx64 " (from --load-base)",
		    b->path, b->fixed_bias);
		return;
	}
	for (size_t s = 0; s < r->nseg; s++)
		own += b->seg[s].ok && (!b->all.ok ||
		    b->seg[s].bias != b->all.bias);
	if (b->all.ok)
		say(r, 0, "%s: load bias %#" PRIx64 " inferred from %zu of "
		    "%zu named addresses", b->path, b->all.bias, b->all.agree,
		    b->all.matches);
	else if (b->all.matches == 0 && own == 0)
		say(r, 1, "%s: no address the trace names is a function of "
		    "it, so no load bias (give --load-base)", b->path);
	else if (own == 0)
		say(r, 1, "%s: no load bias: only %zu of %zu named addresses "
		    "agree (%d and 90 %% needed); give --load-base", b->path,
		    b->all.agree, b->all.matches, D9S_BIAS_MIN_AGREE);
	if (own > 0)
		say(r, 0, "%s: %zu segment%s a load bias of their own",
		    b->path, own, own == 1 ? " has" : "s have");
}

static int
infer_biases(struct res *r)
{
	struct d9_err e;
	size_t nomaps = 0;

	for (size_t s = 0; s < r->nseg; s++)
		nomaps += !r->seg_maps[s];
	for (size_t k = 0; k < r->nbins; k++) {
		struct bin *b = &r->bins[k];
		const struct d9s_elfsyms *syms;

		if ((b->seg = calloc(r->nseg + 1, sizeof *b->seg)) == NULL)
			return -1;
		if (nomaps == 0)
			continue;
		if (!b->fixed) {
			if (d9s_symbolizer_symbols(r->sym, b->mod, &syms,
			    &e) != 0 || d9s_bias_infer(r->m, syms, r->seg_maps,
			    b->seg, &b->all, &e) != 0)
				return -1;
		}
		report_bias(r, b);
	}
	return 0;
}

/* Whether a mapping of file f is binary b: the same build id, or, where
 * none was recorded, the same file name. */
static int
maps_binary(const struct res *r, const struct mapfile *f, const struct bin *b)
{
	uint8_t id[D9S_BUILD_ID_MAX];
	size_t len = f->bid != D9_NONE ? parse_id(d9m_str(r->m, f->bid), id) :
	    0;
	char base[BASE_MAX];

	if (len > 0)
		return b->info.build_id_len == len &&
		    memcmp(b->info.build_id, id, len) == 0;
	set_base(base, d9m_str(r->m, f->path));
	return strcmp(base, b->base) == 0;
}

/* Where every segment has maps, a --binary that none of them maps
 * names nothing: said (a wrong binary given, say), once. */
static void
unmatched_binaries(struct res *r)
{
	for (size_t s = 0; s < r->nseg; s++)
		if (!r->seg_maps[s])
			return;		/* a load bias may be inferred there */
	for (size_t k = 0; k < r->nbins; k++) {
		size_t i = 0;

		while (i < r->nfiles && !maps_binary(r, &r->files[i],
		    &r->bins[k]))
			i++;
		if (i == r->nfiles)
			say(r, 1, "%s: no memory map of the trace is of it (by "
			    "build id or name): it names nothing",
			    r->bins[k].path);
	}
}

static int
bind(struct res *r, const struct d9m_model *m)
{
	const struct d9m_maps *t = &m->maps;

	r->m = m;
	r->serial = m->serial;
	r->nseg = m->segs.n;
	r->seg_maps = calloc(r->nseg + 1, 1);
	r->maprow = malloc((t->n + 1) * sizeof *r->maprow);
	r->rowfile = malloc((t->n + 1) * sizeof *r->rowfile);
	if (r->seg_maps == NULL || r->maprow == NULL || r->rowfile == NULL)
		return -1;
	for (size_t i = 0; i < t->n; i++) {
		uint32_t bid = t->build_id[i];

		r->rowfile[i] = D9_NONE;
		if (t->start[i] >= t->end[i] || t->path[i] == D9_NONE ||
		    *d9m_str(m, t->path[i]) == '\0')
			continue;
		if (bid != D9_NONE && *d9m_str(m, bid) == '\0')
			bid = D9_NONE;
		if ((r->rowfile[i] = file_index(r, t->path[i], bid)) == D9_NONE)
			return -1;
		r->maprow[r->nmaprow++] = (uint32_t)i;
		if (t->seg[i] < r->nseg)
			r->seg_maps[t->seg[i]] = 1;
	}
	qsort_r(r->maprow, r->nmaprow, sizeof *r->maprow, cmp_row,
	    (void *)t);
	unmatched_binaries(r);
	return infer_biases(r);
}

static void
unbind(struct res *r)
{
	for (size_t k = 0; k < r->nbins; k++) {
		free(r->bins[k].seg);
		r->bins[k].seg = NULL;
	}
	free(r->seg_maps);
	free(r->maprow);
	free(r->rowfile);
	free(r->files);
	r->seg_maps = NULL;
	r->maprow = r->rowfile = NULL;
	r->files = NULL;
	r->nfiles = r->filecap = r->nmaprow = r->nseg = 0;
	r->m = NULL;
}

/* ---- finding the file of a mapping ---- */

static int
by_debug_dir(struct res *r, const uint8_t *id, size_t len, uint32_t *mod)
{
	char hex[2 * D9S_BUILD_ID_MAX + 1], path[4096];
	struct d9_err e;

	if (r->debug_dir == NULL || len < 2)
		return -1;
	d9s_build_id_hex(id, len, hex);
	for (int dbg = 0; dbg < 2; dbg++) {
		snprintf(path, sizeof path, "%s/.build-id/%.2s/%s%s",
		    r->debug_dir, hex, hex + 2, dbg ? ".debug" : "");
		if (d9s_symbolizer_add(r->sym, path, id, len, mod, &e) == 0)
			return 0;
	}
	return -1;
}

static void
open_file(struct res *r, struct mapfile *f)
{
	const char *path = d9m_str(r->m, f->path);
	const char *want = f->bid != D9_NONE ? d9m_str(r->m, f->bid) : "";
	uint8_t id[D9S_BUILD_ID_MAX];
	size_t len = parse_id(want, id);
	struct d9s_module_info info;
	struct d9_err e;
	char why[D9_ERR_MSG_MAX + 16] = "";

	memset(&info, 0, sizeof info);
	f->state = MF_NONE;
	set_base(f->base, path);
	/* a --binary with the recorded build id (the file is open already)
	 * or, when none was recorded, the same name */
	for (size_t k = 0; k < r->nbins; k++)
		if (maps_binary(r, f, &r->bins[k])) {
			f->mod = r->bins[k].mod;
			f->state = MF_OK;
			return;
		}
	if (d9s_symbolizer_add(r->sym, path, NULL, 0, &f->mod, &e) != 0)
		snprintf(why, sizeof why, "%s", e.msg);
	else if (len == 0 || (d9s_symbolizer_info(r->sym, f->mod, &info,
	    &e) == 0 && info.build_id_len == len &&
	    memcmp(info.build_id, id, len) == 0)) {
		f->state = MF_OK;
		return;
	} else {
		char have[2 * D9S_BUILD_ID_MAX + 1] = "none";

		if (info.build_id_len > 0)
			d9s_build_id_hex(info.build_id, info.build_id_len,
			    have);
		say(r, 1, "%s: build id differs from the trace's (%s vs %s), "
		    "not used", path, have, want);
	}
	if (len > 0 && by_debug_dir(r, id, len, &f->mod) == 0) {
		f->state = MF_OK;
		f->debug_only = 1;
		if (d9s_symbolizer_info(r->sym, f->mod, &info, &e) == 0)
			f->exec_page = info.exec_lo & ~(uint64_t)0xfff;
		return;
	}
	if (why[0] != '\0')
		say(r, 1, "%s: %s; its addresses stay unnamed (--binary or "
		    "--debug-dir can supply it)", path, why);
}

/* ---- frames ---- */

static size_t
label(struct d9m_frame *out, uint64_t addr, const char *base)
{
	memset(out, 0, sizeof *out);
	if (base != NULL && *base != '\0')
		snprintf(out->hex, sizeof out->hex, "0x%" PRIx64 " (%s)", addr,
		    base);
	else
		snprintf(out->hex, sizeof out->hex, "0x%" PRIx64, addr);
	return 1;
}

static size_t
frames(struct res *r, uint32_t mod, uint64_t link, int is_return,
    uint64_t addr, const char *base, struct d9m_frame *out, size_t max)
{
	const struct d9s_frame *fr;
	size_t n, i;
	struct d9_err e;

	if (d9s_symbolizer_lookup(r->sym, mod, link, is_return, &fr, &n,
	    &e) != 0)
		n = 0;
	/* A return address whose previous byte is in no function (the
	 * padding before one) cannot follow a call: it is a stale word the
	 * frame walk took for a frame. Name it as the recorder's own table
	 * does, by the address itself, so both give one answer. */
	if (is_return && (n == 0 || fr[0].function == NULL) &&
	    d9s_symbolizer_lookup(r->sym, mod, link, 0, &fr, &n, &e) != 0)
		n = 0;
	if (n == 0)
		return label(out, addr, base);
	label(&out[0], addr, base);
	for (i = 0; i < n && i < max; i++) {
		if (i > 0)
			memcpy(out[i].hex, out[0].hex, sizeof out[0].hex);
		out[i].name = fr[i].function;
		out[i].file = fr[i].file;
		out[i].line = fr[i].line;
		out[i].inlined = (fr[i].flags & D9S_FRAME_INLINED) != 0;
		out[i].kernel = 0;
	}
	return i;
}

static size_t
kernel(struct res *r, uint64_t addr, int is_return, struct d9m_frame *out)
{
	const char *name = r->ks == NULL ? NULL :
	    d9s_kallsyms_find(r->ks, addr - (is_return != 0));

	memset(out, 0, sizeof *out);
	out->kernel = 1;
	out->name = name;
	snprintf(out->hex, sizeof out->hex, "%s0x%" PRIx64,
	    name != NULL ? "" : "[kernel] ", addr);
	return 1;
}

struct map_at {
	const struct res	*r;
	uint32_t		 seg;
	uint64_t		 addr;
};

/* Mapping row i (in r->maprow order) sorts at or before (seg, addr). */
static int
map_not_after(const void *ctx, size_t i)
{
	const struct map_at *q = ctx;
	const struct d9m_maps *t = &q->r->m->maps;
	uint32_t x = q->r->maprow[i];

	return t->seg[x] < q->seg || (t->seg[x] == q->seg &&
	    t->start[x] <= q->addr);
}

static size_t
by_maps(struct res *r, uint32_t seg, uint64_t addr, int is_return,
    struct d9m_frame *out, size_t max)
{
	const struct d9m_maps *t = &r->m->maps;
	const struct map_at q = { r, seg, addr };
	/* the last mapping starting at or below addr in seg */
	size_t lo = d9_partition(0, r->nmaprow, &q, map_not_after);
	struct mapfile *f;
	uint64_t link;
	uint32_t row;
	struct d9_err e;

	if (lo == 0)
		return 0;
	row = r->maprow[lo - 1];
	if (t->seg[row] != seg || addr >= t->end[row])
		return 0;
	f = &r->files[r->rowfile[row]];
	if (f->state == MF_UNTRIED)
		open_file(r, f);
	if (f->state != MF_OK)
		return label(out, addr, f->base);
	if (d9s_symbolizer_file_addr(r->sym, f->mod,
	    addr - t->start[row] + t->off[row], &link, &e) != 0) {
		/* A separate debug file keeps p_vaddr but not p_offset:
		 * the executable mapping starts at the first page of the
		 * executable segment (the maps hold only those). */
		if (!f->debug_only)
			return label(out, addr, f->base);
		link = addr - t->start[row] + f->exec_page;
	}
	return frames(r, f->mod, link, is_return, addr, f->base, out, max);
}

static int
bias_of(const struct res *r, const struct bin *b, uint32_t seg,
    uint64_t *bias)
{
	if (b->fixed)
		*bias = b->fixed_bias;
	else if (b->seg != NULL && seg < r->nseg && b->seg[seg].ok)
		*bias = b->seg[seg].bias;
	else if (b->all.ok)
		*bias = b->all.bias;
	else
		return -1;
	return 0;
}

static size_t
by_binaries(struct res *r, uint32_t seg, uint64_t addr, int is_return,
    struct d9m_frame *out, size_t max)
{
	for (size_t k = 0; k < r->nbins; k++) {
		const struct bin *b = &r->bins[k];
		uint64_t bias, link;

		if (bias_of(r, b, seg, &bias) != 0 || addr < bias)
			continue;
		link = addr - bias;
		if (link >= b->info.exec_lo && link < b->info.exec_hi)
			return frames(r, b->mod, link, is_return, addr, b->base,
			    out, max);
	}
	return 0;
}

static size_t
resolve(void *ctx, const struct d9m_model *m, uint32_t seg, uint64_t addr,
    int is_return, struct d9m_frame *out, size_t max)
{
	struct res *r = ctx;
	size_t n = 0;

	if (max == 0)
		return 0;
	pthread_mutex_lock(&r->mu);
	if (addr >> 63)
		n = kernel(r, addr, is_return, out);
	else {
		/* another model (the browser's, once the index replaced the
		 * one read from the traces): bound to it instead */
		if (r->m != NULL && (r->m != m || r->serial != m->serial)) {
			unbind(r);
			r->bind_failed = 0;
		}
		if (r->m == NULL && !r->bind_failed && bind(r, m) != 0) {
			unbind(r);
			r->bind_failed = 1;
			say(r, 1, "out of memory: addresses stay unnamed");
		}
		if (r->m == m && seg < r->nseg && r->seg_maps[seg])
			n = by_maps(r, seg, addr, is_return, out, max);
		else if (r->m == m)
			n = by_binaries(r, seg, addr, is_return, out, max);
	}
	pthread_mutex_unlock(&r->mu);
	return n;
}

/* ---- life ---- */

static int
add_binary(struct res *r, struct bin *b, const char *path,
    const struct d9s_resolver_opts *o, struct d9_err *e)
{
	struct d9_err e2;

	b->path = path;
	set_base(b->base, path);
	if (d9s_symbolizer_add(r->sym, path, NULL, 0, &b->mod, &e2) != 0)
		return d9_err_set(e, e2.code, 0, "--binary %s: %s", path,
		    e2.msg);
	if (d9s_symbolizer_info(r->sym, b->mod, &b->info, e) != 0)
		return -e->code;
	if (b != &r->bins[0] || !o->have_load_base)
		return 0;
	if (o->load_base < b->info.vaddr_lo)
		return d9_err_set(e, D9_ERR_USAGE, 0, "--load-base %#" PRIx64
		    " is below the first segment of %s (%#" PRIx64 ")",
		    o->load_base, path, b->info.vaddr_lo);
	b->fixed = 1;
	b->fixed_bias = o->load_base - b->info.vaddr_lo;
	return 0;
}

int
d9s_resolver_new(const struct d9m_model *m,
    const struct d9s_resolver_opts *o, struct d9m_resolver **out,
    struct d9_err *e)
{
	struct res *r;
	struct d9m_resolver *pub;
	int rc;

	*out = NULL;
	if ((r = calloc(1, sizeof *r)) == NULL)
		return d9_err_set(e, D9_ERR_NOMEM, 0, "resolver");
	pthread_mutex_init(&r->mu, NULL);
	d9_arena_init(&r->arena, 0);
	r->pub.ctx = r;
	r->pub.resolve = resolve;
	r->pub.prefer = o->prefer_dwarf;
	r->note = o->note;
	r->note_ctx = o->note_ctx;
	pub = &r->pub;
	if ((rc = d9s_symbolizer_new(&r->sym, e)) != 0)
		goto fail;
	d9s_symbolizer_on_note(r->sym, warn, r);
	if (o->debug_dir != NULL && ((r->debug_dir = strdup(o->debug_dir)) ==
	    NULL || (rc = d9s_symbolizer_add_debug_dir(r->sym, o->debug_dir,
	    e)) != 0)) {
		rc = rc ? rc : d9_err_set(e, D9_ERR_NOMEM, 0, "resolver");
		goto fail;
	}
	if (o->nbinaries > 0 &&
	    (r->bins = calloc(o->nbinaries, sizeof *r->bins)) == NULL) {
		rc = d9_err_set(e, D9_ERR_NOMEM, 0, "resolver");
		goto fail;
	}
	for (; r->nbins < o->nbinaries; r->nbins++)
		if ((rc = add_binary(r, &r->bins[r->nbins],
		    o->binaries[r->nbins], o, e)) != 0)
			goto fail;
	if (o->kallsyms != NULL) {
		size_t nbad, first;

		if ((rc = d9s_kallsyms_load(&r->ks, o->kallsyms, e)) != 0)
			goto fail;
		if ((nbad = d9s_kallsyms_bad(r->ks, &first)) > 0)
			say(r, 1, "%s: %zu line%s not \"ADDRESS TYPE NAME\" "
			    "(line %zu first), skipped", o->kallsyms, nbad,
			    nbad == 1 ? " is" : "s are", first);
	}
	if (m != NULL && bind(r, m) != 0) {
		rc = d9_err_set(e, D9_ERR_NOMEM, 0, "resolver");
		goto fail;
	}
	*out = pub;
	return 0;
fail:
	d9s_resolver_free(&pub);
	return rc;
}

void
d9s_resolver_free(struct d9m_resolver **rp)
{
	struct res *r;

	if (*rp == NULL)
		return;
	r = (*rp)->ctx;
	unbind(r);
	free(r->bins);
	free(r->debug_dir);
	free(r->notes);
	d9s_symbolizer_free(&r->sym);
	d9s_kallsyms_free(&r->ks);
	d9_arena_free(&r->arena);
	pthread_mutex_destroy(&r->mu);
	free(r);
	*rp = NULL;
}

const struct d9s_note *
d9s_resolver_notes(struct d9m_resolver *rp, size_t *n)
{
	struct res *r = rp->ctx;
	const struct d9s_note *p;

	pthread_mutex_lock(&r->mu);
	p = r->notes;
	*n = r->nnotes;
	pthread_mutex_unlock(&r->mu);
	return p;
}
