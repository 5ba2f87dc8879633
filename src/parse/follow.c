/*
 * follow.c: see follow.h. One entry per segment ever seen, found by
 * inode while it is open (a rename keeps the inode) and by stem (a
 * compressed copy gets a new inode but the same stem).
 *
 * A file under its final name that appears once following has begun
 * may still be being written by something other than a recorder (cp,
 * scp, dd): it is read as a tail and settles, read to its end and done,
 * once D9P_FOLLOW_QUIET polls in a row found it no bigger. Read
 * once as it was, its last member was cut, told lost, and the rest never
 * read. What is there when following begins is read as it is.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/vec.h"
#include "parse/follow.h"
#include "parse/stream.h"

struct entry {
	char			*stem;
	dev_t			 dev;
	ino_t			 ino;
	struct d9p_stream	*tail;	/* open while the file is written */
	off_t			 size;	/* settling: its size at the last poll */
	int			 settling;	/* a tail under a final name */
	int			 quiet;	/* settling: polls it did not grow */
	int			 seen;	/* in this poll's walk */
};

struct d9p_follow {
	const char *const	*paths;
	size_t			 npaths;
	struct entry		*v;
	size_t			 n, cap;
	int			 stdin_done;	/* read to its end */
	int			 polls;
	int			 full;		/* reading stopped for memory
						 * (st->full, kept here: a
						 * caller's stats may be new
						 * each poll) */
	/* the streams kept open between polls point at sink: each poll's
	 * is copied there (a caller's may be on its stack) */
	struct d9p_sink		 sink;
	/* this poll */
	const struct d9p_read_opts *o;
	struct d9p_read_stats	*st;
};

struct d9p_follow *
d9p_follow_new(const char *const *paths, size_t npaths)
{
	struct d9p_follow *f = calloc(1, sizeof *f);

	if (f != NULL) {
		f->paths = paths;
		f->npaths = npaths;
	}
	return f;
}

void
d9p_follow_free(struct d9p_follow **pf)
{
	struct d9p_follow *f = *pf;
	struct d9p_read_stats st;

	if (f == NULL)
		return;
	*pf = NULL;
	for (size_t i = 0; i < f->n; i++) {
		d9p_stream_close(&f->v[i].tail, &st);
		free(f->v[i].stem);
	}
	free(f->v);
	free(f);
}

/* The entry of this file: an open tail by inode (held open, its inode
 * cannot be reused), else any entry by stem. */
static struct entry *
find(struct d9p_follow *f, const struct stat *sb, const char *stem)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->v[i].tail != NULL && f->v[i].dev == sb->st_dev &&
		    f->v[i].ino == sb->st_ino)
			return &f->v[i];
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->v[i].stem, stem) == 0)
			return &f->v[i];
	return NULL;
}

/* Pump an open tail; the segment is done when sealed or at an error. */
static int
pump(struct d9p_follow *f, struct entry *e, int sealed)
{
	int rc = d9p_stream_pump(e->tail, !sealed, f->o, f->st);

	if (rc <= 0)
		d9p_stream_close(&e->tail, f->st);
	return rc < 0 ? -1 : 0;
}

static int
visit_new(struct d9p_follow *f, const char *path, int fd,
    const struct stat *sb, int in_dir, char *stem)
{
	struct entry *e;

	if (d9_grow(&f->v, &f->cap, f->n + 1, sizeof *f->v) < 0) {
		free(stem);
		close(fd);
		return -1;
	}
	e = &f->v[f->n++];
	memset(e, 0, sizeof *e);
	e->stem = stem;
	e->dev = sb->st_dev;
	e->ino = sb->st_ino;
	e->seen = 1;
	e->size = sb->st_size;
	/* during the first poll f->polls is 1: what is there is read */
	e->settling = f->polls > 1 && !d9p_is_active(path);
	if (!d9p_is_active(path) && !e->settling)
		return d9p_read_fd(fd, path, in_dir, &f->sink, f->o, f->st);
	if ((e->tail = d9p_stream_open(fd, path, in_dir, &f->sink, f->st)) ==
	    NULL)
		return -1;
	return pump(f, e, 0);
}

static int
visit(void *ctx, const char *path, int fd, const struct stat *sb, int in_dir)
{
	struct d9p_follow *f = ctx;
	struct entry *e;
	char *stem;

	if (sb->st_ino == 0 && strcmp(path, "stdin") == 0) {
		if (f->stdin_done) {
			close(fd);
			return 0;
		}
		f->stdin_done = 1;	/* the read below goes to its end */
		return d9p_read_fd(fd, path, 0, &f->sink, f->o, f->st);
	}
	if ((stem = d9p_stem(path)) == NULL) {
		close(fd);
		return -1;
	}
	e = find(f, sb, stem);
	if (e == NULL)
		return visit_new(f, path, fd, sb, in_dir, stem);
	close(fd);
	e->seen |= e->dev == sb->st_dev && e->ino == sb->st_ino;
	if (e->tail == NULL || !(e->dev == sb->st_dev && e->ino == sb->st_ino)) {
		free(stem);
		return 0;	/* done, or a copy of the segment being read */
	}
	if (e->settling && strcmp(e->stem, stem) == 0) {
		free(stem);	/* the same file: settled once it stops growing */
		if (sb->st_size != e->size) {
			e->size = sb->st_size;
			e->quiet = 0;
			return pump(f, e, 0);
		}
		return ++e->quiet < D9P_FOLLOW_QUIET ? 0 : pump(f, e, 1);
	}
	free(e->stem);
	e->stem = stem;		/* renamed when sealed */
	if (d9p_stream_rename(e->tail, path) < 0)
		return -1;
	/* a settling file renamed .active again is written on */
	e->settling = e->settling && !d9p_is_active(path);
	if (e->settling)
		e->size = sb->st_size;
	return pump(f, e, !e->settling && !d9p_is_active(path));
}

/* A segment never to be read: older than what fits (reader.h). */
static int
leave(void *ctx, const char *path)
{
	struct d9p_follow *f = ctx;
	struct entry *e;

	if (d9_grow(&f->v, &f->cap, f->n + 1, sizeof *f->v) < 0)
		return -1;
	e = &f->v[f->n];
	memset(e, 0, sizeof *e);
	if ((e->stem = d9p_stem(path)) == NULL)
		return -1;
	f->n++;
	if (f->sink.loss != NULL)
		f->sink.loss(f->sink.ctx, D9P_LOSS_UNREAD);
	return 0;
}

int
d9p_follow_poll(struct d9p_follow *f, const struct d9p_sink *sink,
    const struct d9p_read_opts *o, struct d9p_read_stats *st)
{
	/* a path that cannot be listed is told once, not at every poll
	 * (the visitor reads with o itself, so read errors still show) */
	struct d9p_read_opts quiet = *o;
	int rc;

	f->sink = *sink;
	f->o = o;
	f->st = st;
	st->full = f->full;
	if (f->polls++ > 0)
		quiet.note = NULL;
	else if (o->mem_budget != 0 &&
	    d9p_unread_of(f->paths, f->npaths, o, st, leave, f) < 0)
		return -1;
	for (size_t i = 0; i < f->n; i++)
		f->v[i].seen = 0;
	rc = d9p_walk(f->paths, f->npaths, visit, f, &quiet, st);
	if (f->polls == 1)
		d9p_note_skipped(o, st);
	/* a segment that vanished while open: what it still holds */
	for (size_t i = 0; rc == 0 && i < f->n; i++)
		if (f->v[i].tail != NULL && !f->v[i].seen)
			rc = pump(f, &f->v[i], 1);
	f->full = st->full;
	return rc;
}

int
d9p_follow_ended(const struct d9p_follow *f)
{
	for (size_t i = 0; i < f->npaths; i++)
		if (strcmp(f->paths[i], "-") != 0)
			return 0;
	return f->stdin_done;
}
