/*
 * export.c: see export.h. Three steps: list the inputs and name each
 * file by its segment (inputs.h), then export them one by one. The keys
 * already exported are the names of the leaves under OUTDIR/segments,
 * the files exported whole are marked (marks.h).
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/intern.h"
#include "base/vec.h"
#include "export/export.h"
#include "export/fold.h"
#include "export/hash128.h"
#include "export/inputs.h"
#include "export/loader.h"
#include "export/marks.h"
#include "export/outlock.h"
#include "export/redo.h"
#include "export/split.h"
#include "parse/reader.h"
#include "parse/segid.h"

#define SCAN_DEPTH	4	/* segments/service=/date=/host=/leaf */

struct run {
	const struct d9x_opts	*o;
	struct d9x_progress	*p;
	struct d9x_inputs	 in;
	struct d9_arena		 arena;
	struct d9_intern	 done;	/* keys whose segments leaf exists */
	struct d9_intern	 redo;	/* keys marked cut (redo.h) */
	struct d9_intern	 whole;	/* files marked exported whole */
	/* OUTDIR written by a d9top that marked no file whole: a file
	 * whose first segment is exported counts as exported (and is
	 * marked so) */
	int			 old_outdir;
	unsigned char		*want;	/* which inputs to read */
	/* with workers (threads set): mu guards done, p, next and stop */
	int			 threads;
	pthread_mutex_t		 mu;
	size_t			 next;	/* the input to take next */
	int			 stop;	/* a worker failed: the others stop */
	struct d9_err		 e;	/* the first failure */
};

/* What exports inputs: the caller's thread, or one of the workers. */
struct worker {
	struct run		*r;
	struct d9x_out		 out;
	struct d9x_out		 told;	/* of out, added to r->p already */
	struct cur		*cur;	/* the input being exported */
	struct d9x_split_hint	 hint;	/* the tables of its last model */
	pthread_t		 thread;
};

static void
lock(struct run *r)
{
	if (r->threads)
		pthread_mutex_lock(&r->mu);
}

static void
unlock(struct run *r)
{
	if (r->threads)
		pthread_mutex_unlock(&r->mu);
}

static int
is_leaf_name(const char *s)
{
	size_t n = strlen(s);

	return n == 32 + 8 && strcmp(s + 32, ".parquet") == 0 &&
	    d9x_is_key(s);
}

/* The keys of the leaves under dir (depth levels below). */
static int
scan(struct run *r, const char *dir, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;

	if (d == NULL)
		return 0;		/* nothing exported yet */
	while (rc == 0 && (e = readdir(d)) != NULL) {
		char sub[4096];

		if (e->d_name[0] == '.')
			continue;
		if (is_leaf_name(e->d_name)) {
			if (d9_intern_find(&r->redo, e->d_name, 32) ==
			    D9_NONE && d9_intern(&r->done, e->d_name, 32) ==
			    D9_NONE)
				rc = -1;	/* a marked one is not done */
			continue;
		}
		if (depth > 0 && snprintf(sub, sizeof sub, "%s/%s", dir,
		    e->d_name) < (int)sizeof sub)
			rc = scan(r, sub, depth - 1);
	}
	closedir(d);
	return rc;
}

/* A segment's identity from what it holds, where its first bytes name
 * none (damaged, a value cut in them; every segment of a stream, for
 * earlier d9tops): its first source's boot and first clock sync and
 * the time of its first event. */
static void
content_base(const struct d9m_model *m, uint8_t base[16])
{
	struct d9x_bytes b = { 0 };
	const char *boot = m->groups.n > 0 && m->groups.boot[0] != D9_NONE ?
	    d9m_str(m, m->groups.boot[0]) : "";

	d9x_bytes_put(&b, "stdin", 6);
	d9x_bytes_put(&b, boot, strlen(boot) + 1);
	if (m->clock.n > 0) {
		d9x_bytes_le64(&b, m->clock.mono[0]);
		d9x_bytes_le64(&b, m->clock.real[0]);
	}
	if (m->groups.n > 0)
		d9x_bytes_le64(&b, m->groups.first[0]);
	d9x_hash128(b.p, b.n, base);
	d9x_bytes_free(&b);
}

static int
known(const struct run *r, const uint8_t base[16])
{
	char key[33];

	d9x_source_key(base, 0, key);
	return d9_intern_find(&r->done, key, 32) != D9_NONE;
}

/* The segment named by base is to be exported now, unless it is
 * exported already or by another worker (a copy later in the run, on
 * stdin say, is not written again): 1 (taken), 0, or -1. */
static int
claim(struct run *r, const uint8_t base[16])
{
	char key[33];
	int rc = 1;

	d9x_source_key(base, 0, key);
	lock(r);
	if (d9_intern_find(&r->done, key, 32) != D9_NONE)
		rc = 0;
	else if (d9_intern(&r->done, key, 32) == D9_NONE)
		rc = -1;
	unlock(r);
	return rc;
}

/* Every source of m, the first one last (its segments leaf says the
 * input was exported whole). */
static int
fold_model(struct worker *w, const struct d9m_model *m,
    const uint8_t base[16], uint64_t events, int hold)
{
	struct run *r = w->r;
	const struct d9x_opts *o = r->o;
	struct d9m_resolver *own = o->resolver_new != NULL ?
	    o->resolver_new(o->ctx) : NULL;
	const struct d9m_resolver *res = o->resolver_new != NULL ? own :
	    o->resolver;
	int rc = 0;

	for (size_t g = m->groups.n; rc == 0 && g-- > 0; ) {
		struct d9x_source src;
		struct d9x_fold x;

		d9x_source_make(&src, m, res, (uint32_t)g, base);
		memset(&x, 0, sizeof x);
		x.out = &w->out;
		x.src = &src;
		x.events = events;
		x.one_input_seg = m->segs.n == 1;
		w->out.hold = hold && g == 0;
		rc = d9x_stacks_init(&x.stacks) < 0 ||
		    d9x_fold_runtime(&x) < 0 || d9x_fold_samples(&x) < 0 ||
		    d9x_fold_spans(&x) < 0 || d9x_fold_metrics(&x) < 0 ||
		    d9x_fold_segments(&x) < 0 ? -1 : 0;
		d9x_stacks_free(&x.stacks);
	}
	if (own != NULL)
		o->resolver_free(o->ctx, own);
	return rc;
}

/* What w wrote since it last said, into the run's progress (locked). */
static void
tell(struct worker *w)
{
	struct d9x_progress *p = w->r->p;
	struct d9x_out *o = &w->out, *t = &w->told;

	p->files += o->files - t->files;
	p->bytes += o->bytes - t->bytes;
	p->rows += o->rows - t->rows;
	for (size_t i = 0; i < D9X_T_COUNT; i++) {
		p->table_bytes[i] += o->table_bytes[i] - t->table_bytes[i];
		p->table_rows[i] += o->table_rows[i] - t->table_rows[i];
	}
	t->files = o->files;
	t->bytes = o->bytes;
	t->rows = o->rows;
	memcpy(t->table_bytes, o->table_bytes, sizeof t->table_bytes);
	memcpy(t->table_rows, o->table_rows, sizeof t->table_rows);
}

/* An input is done (locked). */
static void
said(struct run *r, const char *current)
{
	r->p->done++;
	r->p->current = current;
	if (r->o->progress != NULL)
		r->o->progress(r->o->ctx, r->p);
}

/* An input w read is done (locked). */
static void
report(struct worker *w, const char *current)
{
	tell(w);
	said(w->r, current);
}

/* The whole mark of file x (marks.h). */
static void
whole_name(const struct d9x_input *x, char name[D9X_MARK_MAX])
{
	char key[33];

	d9x_source_key(x->base, 0, key);
	d9x_whole_name(key, (unsigned long long)x->size, name);
}

/* Whether file x was exported whole, every one of its segments: its
 * mark, not its first segment's leaf alone (another input may have
 * written that one: the same segment alone, or a stream cut after it);
 * and that leaf still there (leaves removed to be exported again). */
static int
exported_whole(struct run *r, const struct d9x_input *x)
{
	char name[D9X_MARK_MAX];

	if (!x->have_id || !known(r, x->base))
		return 0;
	whole_name(x, name);
	if (d9_intern_find(&r->whole, name, strlen(name)) != D9_NONE)
		return 1;
	if (!r->old_outdir)
		return 0;
	(void)d9x_mark(r->o->outdir, D9X_MARKS_WHOLE, name);
	return 1;
}

/* Whether input x is to be read: not a segment still written, not a
 * copy of one read from another file, not exported already. */
static int
wanted(struct run *r, const struct d9x_input *x)
{
	if (x->path != NULL && d9p_is_active(x->path))
		r->p->active++;
	else if (x->copy)
		r->p->copies++;
	else if (exported_whole(r, x))
		r->p->present++;
	else
		return 1;
	return 0;
}

/* What is known of the input being exported. */
struct cur {
	struct d9x_input	*x;
	size_t		 segs;		/* segments with a source read */
	size_t		 written;	/* of them, exported now */
	int		 cut;		/* a segment of it was cut */
	char		(*keys)[33];	/* of the sources exported now */
	size_t		 nkeys, capkeys;
};

/* The leaves of source key, when it was exported cut, are removed: 0,
 * or -1 (w->out.e says why). */
static int
clear_cut(struct worker *w, const char *key)
{
	struct run *r = w->r;

	if (d9_intern_find(&r->redo, key, 32) == D9_NONE ||
	    d9x_redo_clear(r->o->outdir, key) == 0)
		return 0;
	d9_err_set(&w->out.e, D9_ERR_IO, 0, "%s: cannot remove the leaves "
	    "of %s, exported cut: %s", r->o->outdir, key, strerror(errno));
	return -1;
}

/* The sources of m (its segment's identity base) are to be exported:
 * the leaves of those marked cut go first, and their keys are kept in
 * c. 0, or -1 (w->out.e says why). */
static int
redo_first(struct worker *w, struct cur *c, const struct d9m_model *m,
    const uint8_t base[16])
{
	for (uint32_t g = 0; g < m->groups.n; g++) {
		if (d9_grow(&c->keys, &c->capkeys, c->nkeys + 1,
		    sizeof *c->keys) < 0)
			return -1;
		d9x_source_key(base, g, c->keys[c->nkeys]);
		if (clear_cut(w, c->keys[c->nkeys]) < 0)
			return -1;
		c->nkeys++;
	}
	return 0;
}

/* The input's keys marked cut (before its segments leaf is in place), or
 * their marks dropped (after): 0, or -1 (w->out.e says why). */
static int
redo_end(struct worker *w, struct cur *c, int mark)
{
	const char *dir = w->r->o->outdir;

	for (size_t i = 0; i < c->nkeys; i++)
		if (!mark)
			d9x_unmark(dir, D9X_MARKS_CUT, c->keys[i]);
		else if (d9x_mark(dir, D9X_MARKS_CUT, c->keys[i]) < 0) {
			d9_err_set(&w->out.e, D9_ERR_IO, 0, "%s/%s: cannot "
			    "write: %s", dir, D9X_MARKS_CUT, strerror(errno));
			return -1;
		}
	return 0;
}

/* A segment of a stream, now named as the file holding it would be
 * (id), was named by its content (content_base) by earlier d9tops:
 * 0 when exported so already (nothing is written again), -1 when its
 * cut leaves cannot be removed, else 1. */
static int
legacy(struct worker *w, const struct d9m_model *m,
    const struct d9p_segid *id)
{
	struct run *r = w->r;
	uint8_t old[16];
	char key[33];

	if (id == NULL)
		return 1;
	content_base(m, old);
	if (known(r, old))
		return 0;
	for (uint32_t g = 0; g < m->groups.n; g++) {
		d9x_source_key(old, g, key);
		if (clear_cut(w, key) < 0)
			return -1;
	}
	return 1;
}

/* Whether the caller stopped the export (d9x_opts.cancel). */
static int
interrupted(const struct d9x_opts *o)
{
	return o->cancel != NULL && atomic_load(o->cancel) != 0;
}

/* One segment of the input: exported unless it is already. Its first
 * segment's segments leaf is held until the input's end (leaf.h): a
 * file's first segment named by the file marks the file exported. */
static int
segment(void *ctx, struct d9m_model *m, uint64_t events,
    const struct d9p_segid *id)
{
	struct worker *w = ctx;
	struct run *r = w->r;
	struct cur *c = w->cur;
	const char *name = c->x->path ? c->x->path : "stdin";
	int first = c->segs == 0, rc = 0, stop;
	uint8_t base[16];

	lock(r);
	stop = r->stop;
	unlock(r);
	if (!stop && interrupted(r->o)) {
		d9_err_set(&w->out.e, D9_ERR_IO, 0, "interrupted");
		stop = 1;
	}
	if (stop) {	/* another worker failed, or the export is stopped */
		d9m_model_free(&m);
		return -1;
	}
	if (m == NULL) {
		d9_err_set(&w->out.e, D9_ERR_NOMEM, 0, "%s: out of memory",
		    name);
		return -1;
	}
	for (size_t i = 0; i < m->segs.n; i++)
		c->cut |= m->segs.cut[i] == D9M_SEG_CUT;
	if (m->groups.n > 0) {
		c->segs++;
		if (first && c->x->have_id)
			memcpy(base, c->x->base, 16);
		else if (id != NULL)
			d9x_segid_base(id, base);
		else
			content_base(m, base);
		if ((rc = legacy(w, m, id)) > 0 && (rc = claim(r, base)) > 0 &&
		    (rc = redo_first(w, c, m, base)) == 0) {
			rc = fold_model(w, m, base, events, first &&
			    c->x->have_id);
			c->written++;
		}
		if (rc < 0 && w->out.e.code == 0)
			d9_err_set(&w->out.e, D9_ERR_NOMEM, 0, "%s: out of "
			    "memory", name);
	}
	d9m_model_free(&m);
	return rc < 0 ? -1 : 0;
}

/* The end of the input being exported: rc says how reading went.
 * Its progress is said (locked) unless it failed. */
static int
input_end(struct worker *w, int rc, const struct d9p_read_stats *st,
    const char *path)
{
	struct run *r = w->r;
	struct cur *c = w->cur;

	if (rc == 0 && c->cut && redo_end(w, c, 1) < 0)
		rc = -1;
	if (d9x_out_release(&w->out, rc == 0) < 0)
		rc = -1;
	if (rc == 0 && !c->cut) {
		char name[D9X_MARK_MAX];

		redo_end(w, c, 0);
		/* failing costs the next run a read of it, no more */
		if (c->x->have_id && c->segs > 0) {
			whole_name(c->x, name);
			(void)d9x_mark(r->o->outdir, D9X_MARKS_WHOLE, name);
		}
	}
	free(c->keys);
	c->keys = NULL;
	c->nkeys = c->capkeys = 0;
	if (rc < 0) {
		if (w->out.e.code == 0)
			d9_err_set(&w->out.e, D9_ERR_NOMEM, 0, "%s: out of "
			    "memory", c->x->path ? c->x->path : "stdin");
		return -1;
	}
	lock(r);
	r->p->in_bytes += st->consumed;
	if (st->read_ok == 0 || c->segs == 0)
		r->p->failed++;
	else if (c->written > 0) {
		r->p->exported++;
		r->p->cut += c->cut != 0;
	}
	else
		r->p->present++;
	report(w, path);
	unlock(r);
	return 0;
}

/* How the inputs are read: o's note and stream_only. */
static struct d9p_read_opts
read_opts(const struct d9x_opts *o)
{
	return (struct d9p_read_opts){ .note = o->note, .note_ctx = o->ctx,
	    .stream_only = o->stream_only };
}

/* Input i read on this thread. */
static int
export_here(struct worker *w, const char *path)
{
	struct d9p_read_stats st;
	struct d9p_read_opts ro = read_opts(w->r->o);
	int rc = d9x_split_read(path, w->cur->x->fd, segment, w, &ro,
	    &w->hint, &st);

	return input_end(w, rc, &st, path);
}

/* Input i from the loader's threads. */
static int
export_taken(struct worker *w, struct d9x_loader *ld, size_t i,
    const char *path)
{
	struct d9x_loaded in;
	int rc = 0;

	for (;;) {
		d9x_loader_take(ld, i, &in);
		if (in.end)
			break;
		if (rc == 0)
			rc = segment(w, in.m, in.events, in.have_id ?
			    &in.id : NULL);
		else
			d9m_model_free(&in.m);
		if (rc < 0 && interrupted(w->r->o))
			break;	/* the rest is not read: the loader
				 * stops */
	}
	return input_end(w, rc < 0 ? -1 : in.rc, &in.st, path);
}

/* Threads reading models: one per core but the one the caller's
 * thread folds and writes on (a second reader on 2 cores gained
 * nothing: 10 inputs, 1.3 s either way). */
static unsigned
readers(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN) - 1;

	return n < 1 ? 1 : n > D9X_LOADERS ? D9X_LOADERS : (unsigned)n;
}

static const char *
path_of(const struct run *r, size_t i)
{
	return r->in.v[i].path ? r->in.v[i].path : "-";
}

/* One worker: read the wanted inputs not taken yet, each whole, and
 * fold them; a worker's failure stops the others at their next
 * segment. */
static void *
work(void *arg)
{
	struct worker *w = arg;
	struct run *r = w->r;

	for (;;) {
		struct cur c = { .x = NULL };
		size_t i;
		int rc;

		lock(r);
		for (; r->next < r->in.n && !r->want[r->next]; r->next++)
			said(r, path_of(r, r->next));	/* see wanted() */
		i = r->next++;
		if (r->stop || i >= r->in.n) {
			unlock(r);
			break;
		}
		unlock(r);
		c.x = &r->in.v[i];
		w->cur = &c;
		rc = export_here(w, path_of(r, i));
		w->cur = NULL;
		if (rc < 0) {
			lock(r);
			if (!r->stop) {	/* the first failure */
				r->stop = 1;
				r->e = w->out.e;
			}
			unlock(r);
			break;
		}
	}
	return NULL;
}

/* Inputs exported by n workers at once, each with its own leaves and
 * model; 0, or -1 when none could be started (nothing read yet). */
static int
export_workers(struct run *r, struct worker *w, unsigned n)
{
	unsigned started = 0;

	pthread_mutex_init(&r->mu, NULL);
	r->threads = 1;
	for (unsigned k = 0; k < n; k++) {
		w[k].r = r;
		if (pthread_create(&w[k].thread, NULL, work, &w[k]) != 0)
			break;
		started++;
	}
	if (started == 0)
		work(&w[0]);		/* no thread: this one */
	for (unsigned k = 0; k < started; k++)
		pthread_join(w[k].thread, NULL);
	r->threads = 0;
	pthread_mutex_destroy(&r->mu);
	return r->stop ? -1 : 0;
}

/* Read the wanted inputs (threads ahead) and fold each on this
 * thread. */
static int
export_piped(struct run *r, const char **paths, struct worker *w)
{
	struct d9x_loader ld;
	struct d9p_read_opts ro;
	int rc = 0, threads, *fds = malloc((r->in.n + 1) * sizeof *fds);

	if (fds == NULL) {
		d9_err_set(&r->e, D9_ERR_NOMEM, 0, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < r->in.n; i++)
		fds[i] = r->in.v[i].fd;
	w->r = r;
	ro = read_opts(r->o);
	threads = d9x_loader_start(&ld, paths, fds, r->want, r->in.n, readers(),
	    &ro) == 0;
	for (size_t i = 0; rc == 0 && i < r->in.n; i++) {
		struct cur c = { .x = &r->in.v[i] };

		w->cur = &c;
		if (r->want[i])
			rc = threads ? export_taken(w, &ld, i, paths[i]) :
			    export_here(w, paths[i]);
		else
			said(r, paths[i]);
		w->cur = NULL;
	}
	d9x_loader_stop(&ld);
	free(fds);
	if (rc < 0)
		r->e = w->out.e;
	return rc;
}

/* Workers: o->workers, or one per core, at most D9X_WORKERS. */
static unsigned
workers(const struct d9x_opts *o, size_t wanted)
{
	long n = o->workers > 0 ? (long)o->workers :
	    sysconf(_SC_NPROCESSORS_ONLN);

	n = n < 1 ? 1 : n > D9X_WORKERS ? D9X_WORKERS : n;
	return (size_t)n > wanted ? (unsigned)(wanted > 0 ? wanted : 1) :
	    (unsigned)n;
}

/* Export the wanted inputs: with one worker (or one input to read) its
 * reading runs ahead on other threads (export_piped), else the workers
 * take the inputs in turn, each reading and folding its own. */
static int
export_all(struct run *r)
{
	const char **paths = calloc(r->in.n + 1, sizeof *paths);
	struct worker w[D9X_WORKERS];
	size_t nwant = 0;
	unsigned n;
	int rc;

	r->want = calloc(r->in.n + 1, 1);
	if (paths == NULL || r->want == NULL) {
		free(paths);
		d9_err_set(&r->e, D9_ERR_NOMEM, 0, "out of memory");
		return -1;
	}
	memset(w, 0, sizeof w);
	for (size_t k = 0; k < D9X_WORKERS; k++)
		w[k].out.dir = r->o->outdir;
	for (size_t i = 0; i < r->in.n; i++) {
		paths[i] = path_of(r, i);
		r->want[i] = (unsigned char)wanted(r, &r->in.v[i]);
		nwant += r->want[i];
	}
	n = workers(r->o, nwant);
	rc = n > 1 ? export_workers(r, w, n) : export_piped(r, paths, &w[0]);
	free(paths);
	return rc;
}

int
d9x_export(const struct d9x_opts *o, struct d9x_progress *p, char *err,
    size_t errlen)
{
	struct run r;
	char seg[4096];
	int rc = -1, lock = -1, whole = 0;

	memset(&r, 0, sizeof r);
	memset(p, 0, sizeof *p);
	r.o = o;
	r.p = p;
	d9_arena_init(&r.arena, 16 << 10);
	d9_intern_init(&r.done, &r.arena);
	d9_intern_init(&r.redo, &r.arena);
	d9_intern_init(&r.whole, &r.arena);
	if ((lock = d9x_outlock(o->outdir, o->note, o->ctx, o->cancel, err,
	    errlen)) < 0)
		goto out;
	snprintf(seg, sizeof seg, "%s/%s", o->outdir,
	    d9x_tables[D9X_T_SEGMENTS].name);
	if (d9x_marks_scan(o->outdir, D9X_MARKS_CUT, &r.redo) < 0 ||
	    (whole = d9x_marks_scan(o->outdir, D9X_MARKS_WHOLE,
	    &r.whole)) < 0 || scan(&r, seg, SCAN_DEPTH) < 0 ||
	    d9x_inputs_list(&r.in, o->paths, o->npaths, o->note, o->ctx) < 0 ||
	    d9x_inputs_identify(&r.in) < 0) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	/* from now on every file exported whole is marked so, even when
	 * none is in this run: a later one is not taken for a d9top's that
	 * marked none */
	r.old_outdir = whole == 0 && r.done.n > 0;
	if (whole == 0)
		(void)d9x_marks_folder(o->outdir, D9X_MARKS_WHOLE);
	else
		d9x_marks_prune(o->outdir, &r.done);
	p->inputs = r.in.n;
	if (export_all(&r) < 0) {
		snprintf(err, errlen, "%s", r.e.msg);
		goto out;
	}
	rc = 0;
out:
	d9x_inputs_free(&r.in);
	free(r.want);
	d9_intern_free(&r.done);
	d9_intern_free(&r.redo);
	d9_intern_free(&r.whole);
	d9_arena_free(&r.arena);
	d9x_outlock_free(lock);
	return rc;
}
