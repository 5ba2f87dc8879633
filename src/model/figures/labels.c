/* labels.c: see labels.h. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/figures/analysis.h"
#include "model/figures/framekind.h"
#include "model/figures/labels.h"

#define LABEL_FRAMES	512	/* innermost frames of a stack looked at */
#define LABEL_LEN	512

struct lrow {
	char	**name;		/* frame names, leaf first */
	size_t	  n, base;	/* the first frame that is not plumbing */
	size_t	 *app, napp;	/* its callers that are application code */
	char	  text[LABEL_LEN];
};

/* Ways to tell rows apart, in turn: by their callers in application
 * code, by any callers, by the frames toward the leaf. */
enum { BY_APP, BY_CALLER, BY_LEAF, NBY };

/* Allocator plumbing beside framekind.h's and frames.h's hooks: Rust's
 * deallocation shims and dial9's free hooks. */
static int
is_alloc(const struct d9m_frame *f)
{
	static const char *const parts[] = { "__rust_dealloc",
		"__rdl_dealloc", "__rg_dealloc", "memory_profiling::hook::",
		NULL };

	if (d9m_frame_kind(f) == D9M_FK_ALLOCATOR || d9m_is_alloc_hook(f->name))
		return 1;
	for (size_t i = 0; f->name != NULL && parts[i] != NULL; i++)
		if (strstr(f->name, parts[i]) != NULL)
			return 1;
	return 0;
}

/* The first frame outside kernel, libc, allocator and runtime code
 * (what an allocator calls is allocator plumbing too); else the first
 * runtime or allocator frame; else the leaf. */
static size_t
first_telling(const struct d9m_frame *f, size_t n)
{
	size_t from = 0;

	for (size_t i = 0; i < n; i++)
		if (is_alloc(&f[i]))
			from = i + 1;
	for (size_t i = from; i < n; i++)
		if (d9m_frame_kind(&f[i]) == D9M_FK_APP)
			return i;
	for (size_t i = 0; i < n; i++) {
		enum d9m_frame_kind k = d9m_frame_kind(&f[i]);

		if (k == D9M_FK_RUNTIME || k == D9M_FK_ALLOCATOR)
			return i;
	}
	return 0;
}

static int
load(const struct d9m_model *m, const struct d9m_resolver *r,
    struct d9m_fmemo *k, struct d9m_label_row row, int alloc,
    struct d9m_frame *f, struct lrow *out)
{
	size_t n = alloc ? d9m_alloc_frames_memo(m, r, k, row.seg, row.stack,
	    f, LABEL_FRAMES) : d9m_stack_frames_memo(m, r, k, row.seg,
	    row.stack, f, LABEL_FRAMES);

	if ((out->name = calloc(n + 1, sizeof *out->name)) == NULL)
		return -1;
	for (size_t i = 0; i < n; i++)
		if ((out->name[i] = strdup(d9m_frame_name(&f[i]))) == NULL)
			return -1;
	out->n = n;
	out->base = first_telling(f, n);
	if ((out->app = calloc(n + 1, sizeof *out->app)) == NULL)
		return -1;
	for (size_t i = out->base + 1; i < n; i++)
		if (d9m_frame_kind(&f[i]) == D9M_FK_APP && !is_alloc(&f[i]))
			out->app[out->napp++] = i;
	snprintf(out->text, sizeof out->text, "%s", n ? out->name[out->base] :
	    "(no frames)");
	return 0;
}

/* The t-th frame of row x's telling frame's callers (BY_APP: those in
 * application code), or toward its leaf (BY_LEAF); NULL past the end. */
static const char *
at(const struct lrow *x, size_t t, int by)
{
	if (by == BY_APP)
		return t >= 1 && t <= x->napp ? x->name[x->app[t - 1]] : NULL;
	if (by == BY_CALLER)
		return x->base + t < x->n ? x->name[x->base + t] : NULL;
	return t <= x->base ? x->name[x->base - t] : NULL;
}

static int
same(const char *a, const char *b)
{
	return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static void
append(struct lrow *x, const char *s)
{
	size_t len = strlen(x->text);

	snprintf(x->text + len, sizeof x->text - len, "%s", s);
}

/* The first offset from t at which rows s[0..k) do not all name the
 * same frame looked for that way (BY_*); 0 when none does. */
static size_t
differs(struct lrow *v, const size_t *s, size_t k, size_t t, int by)
{
	for (;; t++) {
		const char *first = at(&v[s[0]], t, by);
		int any = first != NULL;

		for (size_t j = 1; j < k; j++) {
			const char *x = at(&v[s[j]], t, by);

			if (!same(x, first))
				return t;
			any |= x != NULL;
		}
		if (!any)
			return 0;
	}
}

/* Tell rows s[0..k) apart, all named alike so far: by the first frame
 * that differs, looked for each way (BY_*) from from[by] on. */
static void
refine(struct lrow *v, size_t *s, size_t k, const size_t *from)
{
	static const char *const word[NBY] = { " from ", " from ", " at " };
	static const char *const none[NBY] = { " (no caller of ours)",
		" (the stack's top)", " (the leaf)" };
	size_t t = 0, next[NBY];
	int by;

	if (k < 2)
		return;
	for (by = 0; by < NBY && (t = differs(v, s, k, from[by], by)) == 0;
	    by++)
		;
	if (by == NBY) {	/* no name tells them apart: a number */
		for (size_t j = 1; j < k; j++) {
			char num[32];

			snprintf(num, sizeof num, " #%zu", j + 1);
			append(&v[s[j]], num);
		}
		return;
	}
	memcpy(next, from, sizeof next);
	next[by] = t + 1;
	/* rows that name one frame at t move to the front, in turn */
	for (size_t i = 0; i < k;) {
		const char *x = at(&v[s[i]], t, by);
		size_t e = i + 1;

		for (size_t j = i + 1; j < k; j++)
			if (same(at(&v[s[j]], t, by), x)) {
				size_t tmp = s[e];

				s[e++] = s[j];
				s[j] = tmp;
			}
		for (size_t j = i; j < e; j++) {
			append(&v[s[j]], x != NULL ? word[by] : none[by]);
			if (x != NULL)
				append(&v[s[j]], x);
		}
		refine(v, s + i, e - i, next);
		i = e;
	}
}

int
d9m_label_rows(const struct d9m_model *m, const struct d9m_resolver *r,
    const struct d9m_label_row *rows, size_t n, int alloc, char **out)
{
	struct lrow *v = calloc(n + 1, sizeof *v);
	size_t *s = calloc(n + 1, sizeof *s);
	struct d9m_frame *f = d9m_frames_alloc();
	struct d9m_fmemo fm;	/* the rows share most of their frames */
	int rc = v != NULL && s != NULL && f != NULL ? 0 : -1;

	d9m_fmemo_init(&fm);
	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = load(m, r, &fm, rows[i], alloc, f, &v[i]);
	d9m_fmemo_free(&fm);
	/* rows by their telling frame, then each set apart */
	for (size_t i = 0; rc == 0 && i < n; i++)
		s[i] = i;
	for (size_t i = 0; rc == 0 && i < n;) {
		size_t e = i + 1;

		for (size_t j = i + 1; j < n; j++)
			if (strcmp(v[s[j]].text, v[s[i]].text) == 0) {
				size_t tmp = s[e];

				s[e++] = s[j];
				s[j] = tmp;
			}
		static const size_t start[NBY] = { 1, 1, 1 };

		refine(v, s + i, e - i, start);
		i = e;
	}
	/* a text cut at LABEL_LEN may still meet another */
	for (size_t i = 0; rc == 0 && i < n; i++)
		for (size_t j = 0; j < i; j++)
			if (strcmp(v[i].text, v[j].text) == 0) {
				char num[32];

				snprintf(num, sizeof num, " #%zu", i + 1);
				v[i].text[LABEL_LEN - sizeof num] = '\0';
				append(&v[i], num);
				j = (size_t)-1;		/* again from the first */
			}
	for (size_t i = 0; i < n; i++) {
		out[i] = rc == 0 ? strdup(v[i].text) : NULL;
		if (rc == 0 && out[i] == NULL)
			rc = -1;
		for (size_t j = 0; v != NULL && v[i].name != NULL &&
		    j < v[i].n; j++)
			free(v[i].name[j]);
		if (v != NULL) {
			free(v[i].name);
			free(v[i].app);
		}
	}
	free(v);
	free(s);
	free(f);
	return rc;
}

/* Label the first D9M_LABELED rows of a list of structs of size sz with
 * the stack, segment and label at the given offsets. */
static int
label_list(const struct d9m_model *m, const struct d9m_resolver *r,
    void *list, size_t n, size_t sz, size_t stack, size_t seg, size_t label,
    int alloc)
{
	struct d9m_label_row rows[D9M_LABELED] = { { 0, 0 } };
	char *text[D9M_LABELED];
	char *p = list;

	if (n > D9M_LABELED)
		n = D9M_LABELED;
	for (size_t i = 0; i < n; i++) {
		memcpy(&rows[i].stack, p + i * sz + stack, sizeof rows[i].stack);
		memcpy(&rows[i].seg, p + i * sz + seg, sizeof rows[i].seg);
	}
	if (d9m_label_rows(m, r, rows, n, alloc, text) < 0) {
		for (size_t i = 0; i < n; i++)
			free(text[i]);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		memcpy(p + i * sz + label, &text[i], sizeof text[i]);
	return 0;
}

#define LABEL_GROUPS(g, n) label_list(m, r, (g), (n), sizeof *(g), \
	offsetof(struct d9m_stack_group, stack), \
	offsetof(struct d9m_stack_group, seg), \
	offsetof(struct d9m_stack_group, label), 0)

int
d9m_an_labels_cpu(const struct d9m_model *m,
    const struct d9m_analysis_opts *o, struct d9m_analysis *a)
{
	const struct d9m_resolver *r = o->resolver;
	int rc = LABEL_GROUPS(a->off_groups, a->noff_groups) |
	    LABEL_GROUPS(a->cpu_groups, a->ncpu_groups);

	for (size_t i = 0; i < a->nworst; i++)
		rc |= LABEL_GROUPS(a->worst[i].cpu, a->worst[i].ncpu) |
		    LABEL_GROUPS(a->worst[i].off, a->worst[i].noff);
	return rc < 0 ? -1 : 0;
}

int
d9m_an_labels_idle(const struct d9m_model *m,
    const struct d9m_analysis_opts *o, struct d9m_analysis *a)
{
	return label_list(m, o->resolver, a->idle, a->nidle, sizeof *a->idle,
	    offsetof(struct d9m_idle_group, stack),
	    offsetof(struct d9m_idle_group, seg),
	    offsetof(struct d9m_idle_group, label), 0);
}

int
d9m_an_labels_sites(const struct d9m_model *m,
    const struct d9m_analysis_opts *o, struct d9m_analysis *a)
{
	return label_list(m, o->resolver, a->mem.sites, a->mem.nsites,
	    sizeof *a->mem.sites, offsetof(struct d9m_site, stack),
	    offsetof(struct d9m_site, seg), offsetof(struct d9m_site, label),
	    1);
}

static void
free_groups(struct d9m_stack_group *g, size_t n)
{
	for (size_t i = 0; g != NULL && i < n && i < D9M_LABELED; i++)
		free(g[i].label);
}

void
d9m_labels_free(struct d9m_analysis *a)
{
	free_groups(a->off_groups, a->noff_groups);
	free_groups(a->cpu_groups, a->ncpu_groups);
	for (size_t i = 0; a->worst != NULL && i < a->nworst; i++) {
		free_groups(a->worst[i].cpu, a->worst[i].ncpu);
		free_groups(a->worst[i].off, a->worst[i].noff);
	}
	for (size_t i = 0; a->idle != NULL && i < a->nidle &&
	    i < D9M_LABELED; i++)
		free(a->idle[i].label);
	for (size_t i = 0; a->mem.sites != NULL && i < a->mem.nsites &&
	    i < D9M_LABELED; i++)
		free(a->mem.sites[i].label);
}
