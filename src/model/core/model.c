/*
 * model.c: lifetime of the model and loading. Loading feeds the reader's
 * events through the builder sink; d9m_model_finish() (timeline.c) then
 * sorts and derives.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "base/text.h"
#include "base/vec.h"
#include "parse/follow.h"
#include "model/core/build.h"
#include "model/core/build_int.h"
#include "model/core/tables.h"
#include "model/core/timeline.h"

struct d9m_model *
d9m_model_new(void)
{
	struct d9m_model *m = calloc(1, sizeof *m);

	if (m == NULL)
		return NULL;
	if (getrandom(&m->serial, sizeof m->serial, GRND_NONBLOCK) !=
	    (ssize_t)sizeof m->serial) {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		m->serial = ((uint64_t)ts.tv_sec * 1000000000u +
		    (uint64_t)ts.tv_nsec) ^ (uint64_t)(uintptr_t)m;
	}
	d9_arena_init(&m->arena, 256 * 1024);
	d9_intern_init(&m->strs, &m->arena);
	d9_intern_init(&m->stacks, &m->arena);
	d9_intern_init(&m->lists, &m->arena);
	if (d9m_builder_new(m) < 0) {
		free(m);
		return NULL;
	}
	return m;
}

void
d9m_model_free(struct d9m_model **pm)
{
	struct d9m_model *m = *pm;
	struct d9m_tabref t[D9M_NTABLES];
	size_t n;

	if (m == NULL)
		return;
	if (!d9m_model_mapped(m)) {		/* else its columns are mapped */
		n = d9m_model_tables(m, t);
		for (size_t i = 0; i < n; i++)
			d9m_tab_free(t[i].tab, t[i].desc);
		d9m_timeline_free(m);
		free(m->tidmap_tid);
		free(m->tidmap_worker);
		free(m->tname_tid);
		free(m->tname_name);
	}
	if (m->backing.free != NULL)
		m->backing.free(m->backing.ctx);
	d9_hmap_free(&m->tasks.rows);
	for (size_t i = 0; i < m->nerrors; i++)
		free(m->errors[i]);
	free(m->errors);
	d9m_builder_free(m);
	d9_intern_free(&m->strs);
	d9_intern_free(&m->stacks);
	d9_intern_free(&m->lists);
	d9_arena_free(&m->arena);
	free(m);
	*pm = NULL;
}

static int
copy_tables(struct d9m_model *dst, const struct d9m_model *src)
{
	struct d9m_tabref td[D9M_NTABLES], ts[D9M_NTABLES];
	size_t n = d9m_model_tables(dst, td);

	d9m_model_tables((struct d9m_model *)src, ts);
	for (size_t i = 0; i < n; i++)
		if (d9m_tab_copy(td[i].tab, ts[i].tab, td[i].desc) < 0)
			return -1;
	dst->meta.legacy_wall = src->meta.legacy_wall;
	dst->segs.copies = src->segs.copies;
	dst->segs.damaged = src->segs.damaged;
	dst->segs.unread = src->segs.unread;
	dst->following = src->following;
	return 0;
}

static int
copy_maps(struct d9m_model *d, const struct d9m_model *s)
{
	if (d9_hmap_copy(&d->tasks.rows, &s->tasks.rows) < 0 ||
	    d9_dup(&d->tidmap_tid, s->tidmap_tid, s->tidmap_n,
	    sizeof *s->tidmap_tid) < 0 ||
	    d9_dup(&d->tidmap_worker, s->tidmap_worker, s->tidmap_n,
	    sizeof *s->tidmap_worker) < 0 ||
	    d9_dup(&d->tname_tid, s->tname_tid, s->tname_n,
	    sizeof *s->tname_tid) < 0 ||
	    d9_dup(&d->tname_name, s->tname_name, s->tname_n,
	    sizeof *s->tname_name) < 0)
		return -1;
	d->tidmap_n = d->tidmap_cap = s->tidmap_n;
	d->tname_n = d->tname_cap = s->tname_n;
	for (size_t i = 0; i < s->nerrors; i++)
		if (d9m_model_add_error(d, s->errors[i]) < 0)
			return -1;
	return 0;
}

struct d9m_model *
d9m_model_snapshot(const struct d9m_model *src)
{
	struct d9m_model *m = d9m_model_new();

	if (m == NULL)
		return NULL;
	d9m_builder_free(m);
	if (d9_intern_share(&m->strs, &src->strs) < 0 ||
	    d9_intern_share(&m->stacks, &src->stacks) < 0 ||
	    d9_intern_share(&m->lists, &src->lists) < 0 ||
	    copy_tables(m, src) < 0 || copy_maps(m, src) < 0)
		d9m_model_free(&m);
	return m;
}

void
d9m_model_release(const struct d9m_model *m, size_t keep)
{
	if (m->backing.release != NULL)
		m->backing.release(m->backing.ctx, keep);
}

/* Every message is escaped here too: whoever made it, the report, the
 * JSON, the browser and stderr show m->errors as they are. */
int
d9m_model_add_error(struct d9m_model *m, const char *msg)
{
	size_t cap = 4 * strlen(msg) + 1;
	char *copy;

	if (d9_grow(&m->errors, &m->caperrors, m->nerrors + 1,
	    sizeof *m->errors) < 0 || (copy = malloc(cap)) == NULL)
		return -1;
	d9_text_safe(copy, cap, msg, strlen(msg));
	m->errors[m->nerrors++] = copy;
	return 0;
}

struct load_note {
	struct d9m_model *m;
	void		(*note)(void *, const char *);
	void		*ctx;
};

static void
on_note(void *ctx, const char *msg)
{
	struct load_note *ln = ctx;

	d9m_model_add_error(ln->m, msg);
	if (ln->note)
		ln->note(ln->ctx, msg);
}

/* Read paths, or what is new in f when f is set, into m. */
static int
feed(struct d9m_model *m, const char *const *paths, size_t npaths,
    struct d9p_follow *f, struct d9p_progress *progress,
    struct load_note *ln, struct d9p_read_stats *stats)
{
	struct d9p_read_opts o = { .note = on_note, .note_ctx = ln,
	    .progress = progress, .stream_only = m->stream_only,
	    .mem_budget = m->mem_budget };
	struct d9p_sink sink;

	if (m->builder == NULL)
		return -1;
	d9m_builder_sink(m, &sink);
	m->finished = 0;
	return f ? d9p_follow_poll(f, &sink, &o, stats) :
	    d9p_read_paths(paths, npaths, &sink, &o, stats);
}

int
d9m_model_load(struct d9m_model *m, const char *const *paths, size_t npaths,
    struct d9p_progress *progress, void (*note)(void *, const char *),
    void *note_ctx, struct d9p_read_stats *stats)
{
	struct load_note ln = { m, note, note_ctx };
	int rc;

	if (m->builder != NULL)
		d9m_b_ahead_start(m->builder);
	rc = feed(m, paths, npaths, NULL, progress, &ln, stats);
	if (m->builder != NULL)
		d9m_b_ahead_stop(m->builder);
	return rc;
}

int
d9m_model_follow(struct d9m_model *m, struct d9p_follow *f,
    struct d9p_progress *progress, struct d9p_read_stats *stats)
{
	struct load_note ln = { m, NULL, NULL };

	m->following = 1;
	return feed(m, NULL, 0, f, progress, &ln, stats);
}
