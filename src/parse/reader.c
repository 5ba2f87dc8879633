/*
 * reader.c: paths into streams: stdin, files, directories walked in
 * version order (stream.c does the reading).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse/reader.h"
#include "parse/stream.h"

int
d9p_read_fd(int fd, const char *name, int in_dir, const struct d9p_sink *sink,
    const struct d9p_read_opts *o, struct d9p_read_stats *st)
{
	struct d9p_stream *s = d9p_stream_open(fd, name, in_dir, sink, st);
	int rc;

	if (s == NULL)
		return -1;
	rc = d9p_stream_pump(s, 0, o, st);
	d9p_stream_close(&s, st);
	return rc < 0 ? -1 : 0;
}

static int
path_cmp(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

struct walk {
	d9p_visit			 visit;
	void				*ctx;
	const struct d9p_read_opts	*o;
	struct d9p_read_stats		*st;
};

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
		if (n == cap) {
			size_t nc = cap ? cap * 2 : 64;
			char **q = realloc(names, nc * sizeof *q);

			if (q == NULL) {
				rc = -1;
				break;
			}
			names = q;
			cap = nc;
		}
		if ((names[n] = strdup(de->d_name)) == NULL) {
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
	int fd;

	if (strcmp(path, "-") == 0) {
		memset(&sb, 0, sizeof sb);
		return wk->visit(wk->ctx, "stdin", dup(0), &sb, 0);
	}
	if (depth > 32) {
		d9p_note(wk->o, "%s: directories nested too deep, skipped",
		    path);
		return 0;
	}
	/* opening a fifo would block until someone writes to it */
	if (in_dir && stat(path, &sb) == 0 && !S_ISREG(sb.st_mode) &&
	    !S_ISDIR(sb.st_mode))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &sb) < 0) {
		if (!(in_dir && errno == ENOENT)) {	/* gone meanwhile */
			d9p_note(wk->o, "%s: %s", path, strerror(errno));
			wk->st->failed++;
		}
		if (fd >= 0)
			close(fd);
		return 0;
	}
	if (S_ISDIR(sb.st_mode)) {
		close(fd);
		return walk_dir(wk, path, depth);
	}
	if (!S_ISREG(sb.st_mode) && in_dir) {
		close(fd);
		return 0;	/* sockets, fifos inside a directory */
	}
	return wk->visit(wk->ctx, path, fd, &sb, in_dir);
}

int
d9p_walk(const char *const *paths, size_t npaths, d9p_visit visit, void *ctx,
    const struct d9p_read_opts *o, struct d9p_read_stats *st)
{
	struct walk wk = { visit, ctx, o, st };

	for (size_t i = 0; i < npaths; i++)
		if (walk_path(&wk, paths[i], 0, 0) < 0)
			return -1;
	return 0;
}

struct read_ctx {
	const struct d9p_sink		*sink;
	const struct d9p_read_opts	*o;
	struct d9p_read_stats		*st;
};

static int
read_visit(void *ctx, const char *path, int fd, const struct stat *sb,
    int in_dir)
{
	struct read_ctx *rc = ctx;

	if (S_ISREG(sb->st_mode) && rc->o->progress)
		atomic_fetch_add(&rc->o->progress->bytes_total,
		    (uint64_t)sb->st_size);
	return d9p_read_fd(fd, path, in_dir, rc->sink, rc->o, rc->st);
}

int
d9p_read_paths(const char *const *paths, size_t npaths,
    const struct d9p_sink *sink, const struct d9p_read_opts *o,
    struct d9p_read_stats *st)
{
	struct read_ctx rc = { sink, o, st };

	memset(st, 0, sizeof *st);
	return d9p_walk(paths, npaths, read_visit, &rc, o, st);
}
