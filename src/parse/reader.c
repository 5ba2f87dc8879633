/*
 * reader.c: paths into streams: stdin, files, directories walked in
 * version order (stream.c does the reading).
 *
 * Three steps. The walk lists every input without opening a file (so a
 * fifo in a directory cannot block it); it keeps the device and inode of
 * every directory and file it reached in one set, so a symlink back to a
 * directory already walked (a -> ., sub/up -> ..) ends there and a file
 * reached twice is listed once. Then the copies of a segment are found
 * (segid.h); then the inputs are read in order. A file that vanished in
 * between (a recorder sealed or compressed it) is read under the name
 * its segment has now.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/intern.h"
#include "base/units.h"
#include "base/vec.h"
#include "parse/fit.h"
#include "parse/prefetch.h"
#include "parse/reader.h"
#include "parse/segid.h"
#include "parse/stream.h"

/* Whether the files of a read may be decompressed whole (whole.h). */
static int
whole_wanted(const struct d9p_read_opts *o)
{
	return !o->stream_only && d9p_whole_available();
}

/* Read fd as name: whole when pre says so (D9P_WHOLE_OK: *w holds it,
 * decompressed on another core; BIG: try, with o->whole_alone or on one
 * core, else stream it beside the decoding; STREAM: do not), else as a
 * stream. */
static int
read_input(int fd, const char *name, int in_dir, enum d9p_whole_rc pre,
    struct d9p_whole *w, const struct d9p_sink *sink,
    const struct d9p_read_opts *o, struct d9p_read_stats *st)
{
	_Atomic int *cancel = o->progress ? &o->progress->cancel : NULL;
	struct d9p_stream *s;
	int rc, written = 0;

	if (st->full) {		/* memory: no more inputs (stream.c) */
		if (pre == D9P_WHOLE_OK)
			d9p_whole_free(w);
		close(fd);
		return 0;
	}
	if (pre == D9P_WHOLE_OK)
		st->prefetched++;
	else if (pre == D9P_WHOLE_BIG && !d9p_is_active(name) &&
	    !(cancel && atomic_load(cancel)) && (o->whole_alone ||
	    sysconf(_SC_NPROCESSORS_ONLN) < 2))
		pre = d9p_whole_load(fd, 0, cancel, NULL, w);
	if (pre == D9P_WHOLE_OK) {
		st->whole++;
		close(fd);
		s = d9p_stream_open_whole(w, name, in_dir, sink, st);
	} else {
		struct stat sb;

		written = fstat(fd, &sb) == 0 &&
		    d9p_is_written(name, &sb, time(NULL));
		s = d9p_stream_open(fd, name, in_dir, sink, st);
	}
	if (s == NULL)
		return -1;
	if (written && sink->loss != NULL)
		sink->loss(sink->ctx, D9P_INPUT_WRITTEN);
	/* a segment being written is read as a tail: its last frame, cut
	 * where its writer is, is not told */
	rc = d9p_stream_pump(s, written ? D9P_TAIL_ONCE : 0, o, st);
	d9p_stream_close(&s, st);
	return rc < 0 ? -1 : 0;
}

int
d9p_read_fd(int fd, const char *name, int in_dir, const struct d9p_sink *sink,
    const struct d9p_read_opts *o, struct d9p_read_stats *st)
{
	struct d9p_whole w;

	memset(&w, 0, sizeof w);
	return read_input(fd, name, in_dir, whole_wanted(o) ? D9P_WHOLE_BIG :
	    D9P_WHOLE_STREAM, &w, sink, o, st);
}

static int
ends_with(const char *s, size_t n, const char *suf)
{
	size_t k = strlen(suf);

	return n >= k && memcmp(s + n - k, suf, k) == 0;
}

/* Whether path is a directory with nothing in it the walk reads. */
static int
dir_empty(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	int empty = d != NULL;

	while (empty && (de = readdir(d)) != NULL)
		empty = de->d_name[0] == '.';	/* as walk_dir skips them */
	if (d != NULL)
		closedir(d);
	return empty;
}

void
d9p_say_empty(const char *const *paths, size_t npaths,
    void (*note)(void *, const char *), void *ctx)
{
	char msg[4200];

	for (size_t i = 0; note != NULL && i < npaths; i++)
		if (dir_empty(paths[i])) {
			snprintf(msg, sizeof msg, "%s: no files in it",
			    paths[i]);
			note(ctx, msg);
		}
}

int
d9p_is_active(const char *path)
{
	return ends_with(path, strlen(path), ".active");
}

int
d9p_is_written(const char *path, const struct stat *sb, time_t now)
{
	return S_ISREG(sb->st_mode) && d9p_is_active(path) &&
	    now - sb->st_mtim.tv_sec < D9P_ACTIVE_QUIET;
}

char *
d9p_stem(const char *path)
{
	static const char *const suf[] = { ".active", ".gz", ".zst" };
	size_t n = strlen(path), k;
	char *s;

	do {
		for (k = 0; k < sizeof suf / sizeof suf[0]; k++)
			if (ends_with(path, n, suf[k])) {
				n -= strlen(suf[k]);
				break;
			}
	} while (k < sizeof suf / sizeof suf[0]);
	if ((s = malloc(n + 1)) != NULL) {
		memcpy(s, path, n);
		s[n] = '\0';
	}
	return s;
}

static int
path_cmp(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

/* One input found by the walk. */
struct entry {
	char		*path;		/* NULL: stdin */
	int		 in_dir;
	int		 regular;	/* a regular file (not a pipe: its
					 * bytes can be read twice) */
	int		 copy;		/* not read: a copy of another entry */
	int		 unread;	/* not read: older than what fits */
	uint64_t	 size;		/* a regular file's, when listed */
	int64_t		 mtime_ns;	/* a regular file's, when listed */
	int64_t		 wall_ns;	/* when its segment began, 0: not
					 * known (segid.h) */
};

struct walk {
	const struct d9p_read_opts	*o;
	struct d9p_read_stats		*st;
	struct entry			*v;
	size_t				 n, cap;
	struct d9_arena			 arena;
	struct d9_intern		 seen;	/* (dev, ino) reached */
};

static void
walk_init(struct walk *wk, const struct d9p_read_opts *o,
    struct d9p_read_stats *st)
{
	memset(wk, 0, sizeof *wk);
	wk->o = o;
	wk->st = st;
	d9_arena_init(&wk->arena, 16 * 1024);
	d9_intern_init(&wk->seen, &wk->arena);
}

static void
walk_free(struct walk *wk)
{
	for (size_t i = 0; i < wk->n; i++)
		free(wk->v[i].path);
	free(wk->v);
	d9_intern_free(&wk->seen);
	d9_arena_free(&wk->arena);
}

/* 1 when the walk reached this directory or file before (else it is
 * remembered now), -1 out of memory. */
static int
reached(struct walk *wk, const struct stat *sb)
{
	uint64_t key[2] = { (uint64_t)sb->st_dev, (uint64_t)sb->st_ino };
	size_t n = wk->seen.n;

	if (d9_intern(&wk->seen, key, sizeof key) == D9_NONE)
		return -1;
	return wk->seen.n == n;
}

static int
push(struct walk *wk, const char *path, int in_dir, const struct stat *sb)
{
	int regular = sb != NULL && S_ISREG(sb->st_mode);
	struct entry *e;

	if (d9_grow(&wk->v, &wk->cap, wk->n + 1, sizeof *wk->v) < 0)
		return -1;
	e = &wk->v[wk->n];
	memset(e, 0, sizeof *e);
	if (path != NULL && (e->path = strdup(path)) == NULL)
		return -1;
	e->in_dir = in_dir;
	e->regular = regular;
	if (regular) {
		e->size = (uint64_t)sb->st_size;
		e->mtime_ns = (int64_t)sb->st_mtim.tv_sec * 1000000000 +
		    sb->st_mtim.tv_nsec;
	}
	wk->n++;
	return 0;
}

static int walk_path(struct walk *wk, const char *path, int in_dir, int depth);

static int
walk_dir(struct walk *wk, const char *path, int depth)
{
	DIR *dir = opendir(path);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;

	if (dir == NULL) {
		d9p_note(wk->o, "%s: %s", path, strerror(errno));
		wk->st->failed++;
		return 0;
	}
	while ((de = readdir(dir)) != NULL) {
		if (de->d_name[0] == '.')
			continue;	/* ., .., .lock and other hidden files */
		if (d9_grow(&names, &cap, n + 1, sizeof *names) < 0 ||
		    (names[n] = strdup(de->d_name)) == NULL) {
			rc = -1;
			break;
		}
		n++;
	}
	closedir(dir);
	if (rc == 0 && n > 0)
		qsort(names, n, sizeof *names, path_cmp);
	for (size_t i = 0; i < n; i++) {
		if (rc == 0) {
			size_t len = strlen(path) + strlen(names[i]) + 2;
			char *full = malloc(len);

			if (full == NULL)
				rc = -1;
			else {
				snprintf(full, len, "%s%s%s", path,
				    path[strlen(path) - 1] == '/' ? "" : "/",
				    names[i]);
				rc = walk_path(wk, full, 1, depth + 1);
				free(full);
			}
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

static int
walk_path(struct walk *wk, const char *path, int in_dir, int depth)
{
	struct stat sb;
	int r;

	if (strcmp(path, "-") == 0)
		return push(wk, NULL, 0, NULL);
	if (depth > 32) {
		d9p_note(wk->o, "%s: directories nested too deep, skipped",
		    path);
		return 0;
	}
	if (stat(path, &sb) < 0) {
		if (!(in_dir && errno == ENOENT)) {	/* gone meanwhile */
			d9p_note(wk->o, "%s: %s", path, strerror(errno));
			wk->st->failed++;
		}
		return 0;
	}
	/* sockets, fifos inside a directory: opening a fifo would block
	 * until someone writes to it */
	if (in_dir && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode))
		return 0;
	if ((r = reached(wk, &sb)) != 0) {
		/* a directory again is a loop of links: nothing to count */
		if (r > 0 && !S_ISDIR(sb.st_mode))
			wk->st->copies++;
		return r < 0 ? -1 : 0;
	}
	if (S_ISDIR(sb.st_mode))
		return walk_dir(wk, path, depth);
	return push(wk, path, in_dir, &sb);
}

static int
list(struct walk *wk, const char *const *paths, size_t npaths)
{
	for (size_t i = 0; i < npaths; i++)
		if (walk_path(wk, paths[i], 0, 0) < 0)
			return -1;
	return 0;
}

/* Whether the entry of path (if the walk listed it) is to be read. */
static int
will_read(const struct walk *wk, const char *path)
{
	for (size_t i = 0; i < wk->n; i++)
		if (wk->v[i].path != NULL && strcmp(wk->v[i].path, path) == 0)
			return !wk->v[i].copy;
	return 0;
}

/* A file of a directory that vanished since the walk: the same segment
 * under the name it has now (sealed, compressed), unless that name is
 * read anyway. *name is malloc'd then. */
static int
open_moved(const struct walk *wk, const char *path, char **name)
{
	static const char *const sfx[] = { "", ".gz", ".zst" };
	char *stem = d9p_stem(path);
	int fd = -1;

	for (size_t i = 0; stem != NULL && fd < 0 && i < 3; i++) {
		size_t len = strlen(stem) + strlen(sfx[i]) + 1;

		if ((*name = malloc(len)) == NULL)
			break;
		snprintf(*name, len, "%s%s", stem, sfx[i]);
		if (strcmp(*name, path) == 0 || will_read(wk, *name) ||
		    (fd = open(*name, O_RDONLY | O_CLOEXEC)) < 0) {
			free(*name);
			*name = NULL;
		}
	}
	free(stem);
	return fd;
}

/* Open entry e: its fd, its status in *sb and the name it is read under
 * in *name (*alloc: a malloc'd one to free); -1 when it is skipped. */
static int
open_entry(struct walk *wk, const struct entry *e, struct stat *sb,
    const char **name, char **alloc)
{
	int fd;

	*alloc = NULL;
	*name = e->path != NULL ? e->path : "stdin";
	if (e->path == NULL) {
		memset(sb, 0, sizeof *sb);
		return dup(0);
	}
	fd = open(e->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 && e->in_dir && errno == ENOENT) {
		if ((fd = open_moved(wk, e->path, alloc)) < 0)
			return -1;	/* gone meanwhile */
		*name = *alloc;
	}
	if (fd < 0 || fstat(fd, sb) < 0) {
		d9p_note(wk->o, "%s: %s", e->path, strerror(errno));
		wk->st->failed++;
	} else if (!e->in_dir || S_ISREG(sb->st_mode))
		return fd;
	/* else it became something else since the walk */
	if (fd >= 0)
		close(fd);
	free(*alloc);
	*alloc = NULL;
	return -1;
}

int
d9p_walk(const char *const *paths, size_t npaths, d9p_visit visit, void *ctx,
    const struct d9p_read_opts *o, struct d9p_read_stats *st)
{
	struct walk wk;
	unsigned copies = st->copies;
	int rc;

	walk_init(&wk, o, st);
	rc = list(&wk, paths, npaths);
	st->copies = copies;	/* a follower sees the same files each poll */
	for (size_t i = 0; rc == 0 && i < wk.n; i++) {
		struct stat sb;
		const char *name;
		char *alloc;
		int fd = open_entry(&wk, &wk.v[i], &sb, &name, &alloc);

		if (fd >= 0)
			rc = visit(ctx, name, fd, &sb, wk.v[i].in_dir);
		free(alloc);
	}
	walk_free(&wk);
	return rc < 0 ? -1 : 0;
}

/*
 * Mark every file that holds a segment another file holds too, but for
 * the one with the most decoded bytes (the first of equals): a sealed
 * file holds all of its .active prefix, a processed .gz adds the symbol
 * table. Files that are not traces have no identity and are all read;
 * pipes and devices are not looked at before they are read.
 */
static int
find_copies(struct walk *wk)
{
	struct d9_arena a;
	struct d9_intern ids;
	size_t *kept = NULL, nkept = 0;
	int64_t *size = calloc(wk->n + 1, sizeof *size);
	int rc = size == NULL ? -1 : 0;

	d9_arena_init(&a, 16 * 1024);
	d9_intern_init(&ids, &a);
	for (size_t i = 0; rc == 0 && i < wk->n; i++) {
		struct entry *e = &wk->v[i];
		struct d9p_progress *pr = wk->o->progress;
		struct d9p_segid id;
		size_t n0 = ids.n, j, keep, drop;
		uint32_t k;

		if (pr != NULL && atomic_load(&pr->cancel))
			break;
		size[i] = -2;		/* not known yet */
		if (!e->regular || d9p_segid_of(e->path, &id) < 0)
			continue;
		e->wall_ns = id.wall_ns;
		k = d9_intern(&ids, &id, offsetof(struct d9p_segid, boot) +
		    strlen(id.boot));
		if (k == D9_NONE || d9_grow(&kept, &nkept, ids.n,
		    sizeof *kept) < 0) {
			rc = -1;
			break;
		}
		if (ids.n > n0) {
			kept[k] = i;
			continue;
		}
		j = kept[k];
		if (size[j] == -2)
			size[j] = d9p_decoded_size(wk->v[j].path);
		size[i] = d9p_decoded_size(e->path);
		keep = size[i] > size[j] ? i : j;
		drop = keep == i ? j : i;
		wk->v[drop].copy = 1;
		kept[k] = keep;
		wk->st->copies++;
		d9p_note(wk->o, "%s: the same segment as %s, read once",
		    wk->v[drop].path, wk->v[keep].path);
	}
	free(kept);
	free(size);
	d9_intern_free(&ids);
	d9_arena_free(&a);
	return rc;
}

/* Whether every file of wk fits in budget whatever it holds (each at
 * its largest guess; the prefetch holds D9P_PF_BUDGET at most), so that
 * none is opened. */
static int
fits_surely(const struct walk *wk, uint64_t budget)
{
	uint64_t sum = D9P_FIT_FIXED + D9P_PF_BUDGET;

	for (size_t i = 0; i < wk->n && sum <= budget; i++) {
		uint64_t most = d9p_fit_most(wk->v[i].size);

		sum = sum + most < sum ? UINT64_MAX : sum + most;
	}
	return sum <= budget;
}

/* Say which files fit leaves unread: the first and last of them. */
static void
tell_unread(const struct walk *wk, const struct d9p_read_opts *o,
    size_t first, size_t last, size_t nkept, uint64_t kept)
{
	char k[32], b[32];

	d9_fmt_ibytes(k, sizeof k, (double)kept);
	d9_fmt_ibytes(b, sizeof b, (double)o->mem_budget);
	if (kept > o->mem_budget)	/* the newest is read, as far as it fits */
		d9p_note(o, "%s%s%s: %u older file%s not read: the newest "
		    "alone needs about %s in memory, more than the %s d9top "
		    "may use (--memory SIZE, or all), and is read as far as "
		    "that goes", wk->v[first].path, first != last ? " .. " :
		    "", first != last ? wk->v[last].path : "", wk->st->unread,
		    wk->st->unread > 1 ? "s" : "", k, b);
	else {
		char newest[48] = "the newest";

		if (nkept > 1)
			snprintf(newest, sizeof newest, "the newest %zu", nkept);
		d9p_note(o, "%s%s%s: %u older file%s not read: %s, about %s "
		    "in memory, %s what fits in the %s d9top may use "
		    "(--memory SIZE, or all)", wk->v[first].path,
		    first != last ? " .. " : "", first != last ?
		    wk->v[last].path : "", wk->st->unread, wk->st->unread > 1 ?
		    "s" : "", newest, k, nkept > 1 ? "are" : "is", b);
	}
}

/* Leave the oldest files unread where the model of them all would not
 * fit in o->mem_budget (fit.h), told in o's note. */
static int
fit(struct walk *wk, const struct d9p_read_opts *o)
{
	uint64_t budget = o->mem_budget, kept;
	struct d9p_fit *f;
	size_t *at, n = 0, first = SIZE_MAX, last = 0;

	if (budget == 0 || fits_surely(wk, budget))
		return 0;
	f = calloc(wk->n, sizeof *f);
	at = calloc(wk->n, sizeof *at);
	for (size_t i = 0; f != NULL && at != NULL && i < wk->n; i++) {
		const struct entry *e = &wk->v[i];

		if (!e->regular || e->copy)
			continue;
		f[n].need = d9p_fit_need(e->path, e->size);
		f[n].began_ns = e->wall_ns > 0 ? e->wall_ns : e->mtime_ns;
		at[n++] = i;
	}
	if (f == NULL || at == NULL) {
		free(f);
		free(at);
		return -1;
	}
	wk->st->unread = (unsigned)d9p_fit_pick(f, n, budget, &kept);
	for (size_t k = 0; k < n; k++)
		if (f[k].drop) {
			wk->v[at[k]].unread = 1;
			first = first == SIZE_MAX ? at[k] : first;
			last = at[k];
		}
	if (wk->st->unread > 0)
		tell_unread(wk, o, first, last, n - wk->st->unread, kept);
	free(f);
	free(at);
	return 0;
}

/* What comes before reading: list paths, find the copies (told in wk's
 * note) and leave out what does not fit (told in o's). One file has no
 * copy, and is kept whatever its time: it is not opened for them. */
static int
plan(struct walk *wk, const char *const *paths, size_t npaths,
    const struct d9p_read_opts *o)
{
	int rc = list(wk, paths, npaths);

	if (rc == 0 && wk->n > 1)
		rc = find_copies(wk);
	return rc == 0 ? fit(wk, o) : rc;
}

/* The prefetch of the files of wk to read whole (NULL: none). */
static struct d9p_prefetch *
prefetch(const struct walk *wk, const struct d9p_read_opts *o)
{
	struct d9p_prefetch *pf;
	const char **paths;

	if ((paths = calloc(wk->n + 1, sizeof *paths)) == NULL)
		return NULL;
	for (size_t i = 0; i < wk->n; i++) {
		const struct entry *e = &wk->v[i];

		if (e->regular && !e->copy && !e->unread &&
		    !d9p_is_active(e->path))
			paths[i] = e->path;
	}
	pf = d9p_prefetch_start(paths, wk->n, o->progress ?
	    &o->progress->cancel : NULL);
	free(paths);
	return pf;
}

int
d9p_unread_of(const char *const *paths, size_t npaths,
    const struct d9p_read_opts *o, struct d9p_read_stats *st,
    int (*each)(void *ctx, const char *path), void *ctx)
{
	struct d9p_read_opts quiet = *o;
	unsigned copies = st->copies;
	struct walk wk;
	int rc;

	quiet.note = NULL;	/* the follower tells its own, but the pick */
	walk_init(&wk, &quiet, st);
	rc = plan(&wk, paths, npaths, o);
	st->copies = copies;
	for (size_t i = 0; rc == 0 && i < wk.n; i++)
		if (wk.v[i].unread)
			rc = each(ctx, wk.v[i].path);
	walk_free(&wk);
	return rc < 0 ? -1 : 0;
}

int
d9p_read_paths(const char *const *paths, size_t npaths,
    const struct d9p_sink *sink, const struct d9p_read_opts *o,
    struct d9p_read_stats *st)
{
	struct d9p_prefetch *pf = NULL;
	int whole;
	struct walk wk;
	int rc;

	memset(st, 0, sizeof *st);
	walk_init(&wk, o, st);
	rc = plan(&wk, paths, npaths, o);
	/* the bytes to read, known before the first is read */
	for (size_t i = 0; rc == 0 && o->progress != NULL && i < wk.n; i++)
		if (!wk.v[i].copy && !wk.v[i].unread)
			atomic_fetch_add(&o->progress->bytes_total,
			    wk.v[i].size);
	whole = whole_wanted(o);
	if (rc == 0 && whole)
		pf = prefetch(&wk, o);
	for (size_t i = 0; rc == 0 && i < wk.n; i++) {
		enum d9p_whole_rc pre = whole ? D9P_WHOLE_BIG :
		    D9P_WHOLE_STREAM;
		struct d9p_whole w;
		struct stat sb;
		const char *name;
		char *alloc;
		int fd;

		if (st->full) {		/* memory: told by stream.c */
			for (; i < wk.n; i++)
				st->unread += !wk.v[i].copy && !wk.v[i].unread;
			break;
		}
		if (wk.v[i].copy || wk.v[i].unread ||
		    (fd = open_entry(&wk, &wk.v[i], &sb, &name, &alloc)) < 0)
			continue;
		memset(&w, 0, sizeof w);
		if (pf != NULL)
			pre = d9p_prefetch_take(pf, i, fd, &w);
		rc = read_input(fd, name, wk.v[i].in_dir, pre, &w, sink, o,
		    st);
		free(alloc);
	}
	d9p_prefetch_free(&pf);
	d9p_note_skipped(o, st);
	for (unsigned i = 0; sink->loss != NULL && i < st->copies; i++)
		sink->loss(sink->ctx, D9P_LOSS_COPY);
	for (unsigned i = 0; sink->loss != NULL && i < st->unread; i++)
		sink->loss(sink->ctx, D9P_LOSS_UNREAD);
	walk_free(&wk);
	return rc;
}
