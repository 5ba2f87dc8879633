/*
 * reader.c: the window between input and decoder. Decoded bytes are
 * appended to a window; the decoder consumes whole frames from its front;
 * the unconsumed tail is moved to the front before the next read. A frame
 * larger than the window doubles it, up to MAX_WINDOW.
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

#include "parse/input.h"
#include "parse/reader.h"

#define READ_CHUNK	(256 * 1024)
#define MAX_WINDOW	(512u << 20)

static void
note(const struct d9p_read_opts *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
note(const struct d9p_read_opts *o, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (o && o->note)
		o->note(o->note_ctx, msg);
}

struct window {
	uint8_t	*p;
	size_t	 len, cap;
};

static int
window_room(struct window *w, size_t want)
{
	size_t nc = w->cap ? w->cap : 4 * READ_CHUNK;
	uint8_t *q;

	if (w->cap - w->len >= want)
		return 0;
	while (nc - w->len < want) {
		if (nc >= MAX_WINDOW)
			return -1;
		nc *= 2;
	}
	if ((q = realloc(w->p, nc)) == NULL)
		return -1;
	w->p = q;
	w->cap = nc;
	return 0;
}

static int
stream(struct d9p_input *in, struct d9p_decoder *dec, const char *name,
    int in_dir, const struct d9p_read_opts *o, struct d9p_read_stats *st)
{
	struct window w = { NULL, 0, 0 };
	uint64_t woff = 0;		/* decoded offset of w.p[0] */
	size_t used;
	int eof = 0, cut = 0, rc = 0, want_more = 1;
	struct d9_err e;
	uint64_t ev0 = d9p_decoder_events(dec), total = 0;
	uint64_t consumed = 0, events = ev0;

	for (;;) {
		if (o->progress && atomic_load(&o->progress->cancel))
			break;
		if (!eof && want_more) {
			ssize_t r;

			if (window_room(&w, READ_CHUNK) < 0) {
				note(o, "%s: byte %llu: frame larger than %u MiB",
				    name, (unsigned long long)woff,
				    MAX_WINDOW >> 20);
				st->failed++;
				break;
			}
			d9_err_clear(&e);
			r = d9p_input_read(in, w.p + w.len, READ_CHUNK, &cut, &e);
			if (o->progress) {
				uint64_t c = d9p_input_consumed(in);

				atomic_fetch_add(&o->progress->bytes_in,
				    c - consumed);
				consumed = c;
			}
			if (r < 0) {
				note(o, "%s: byte %llu: %s", name,
				    (unsigned long long)e.off, e.msg);
				st->failed++;
				/* decode what arrived before the bad data */
				eof = 2;
			} else if (r == 0)
				eof = 1;
			w.len += (size_t)(r > 0 ? r : 0);
			total += (uint64_t)(r > 0 ? r : 0);
		}
		d9_err_clear(&e);
		rc = d9p_decoder_feed(dec, w.p, w.len, woff, eof != 0,
		    d9p_input_raw_since(in), &used, &e);
		if (used > 0) {
			memmove(w.p, w.p + used, w.len - used);
			w.len -= used;
			woff += used;
		}
		if (o->progress) {
			uint64_t ev = d9p_decoder_events(dec);

			atomic_fetch_add(&o->progress->events, ev - events);
			events = ev;
		}
		if (rc == D9P_SWITCH) {
			if (d9p_input_pushback(in, w.p, w.len) < 0) {
				note(o, "%s: byte %llu: compressed data inside "
				    "compressed data", name,
				    (unsigned long long)woff);
				st->failed++;
				break;
			}
			total -= w.len;
			w.len = 0;
			eof = 0;
			want_more = 1;
			continue;
		}
		if (rc < 0) {
			if (e.code == D9_ERR_NOMEM) {
				free(w.p);
				return -1;
			}
			if (eof == 2)
				break;	/* a symptom of the damage noted above */
			if (e.code == D9_ERR_BAD_MAGIC && in_dir &&
			    d9p_decoder_events(dec) == ev0) {
				note(o, "%s: not a dial9 trace, skipped", name);
				st->skipped++;
			} else {
				note(o, "%s: byte %llu: %s%s", name,
				    (unsigned long long)e.off, e.msg,
				    d9p_decoder_events(dec) > ev0 ?
				    "; later frames skipped" : "");
				st->failed++;
			}
			break;
		}
		if (eof) {
			if (eof == 2)
				break;
			if (total == 0 && !cut) {
				note(o, "%s: empty input", name);
				st->failed++;
			} else if (rc == D9P_MORE) {
				note(o, "%s: truncated at byte %llu", name,
				    (unsigned long long)e.off);
			} else if (cut) {
				note(o, "%s: truncated at byte %llu "
				    "(compressed data ends early)", name,
				    (unsigned long long)woff);
			}
			break;
		}
		want_more = 1;
	}
	st->decoded += total;
	st->consumed += d9p_input_consumed(in);
	st->events += d9p_decoder_events(dec) - ev0;
	if (d9p_decoder_events(dec) > ev0)
		st->read_ok++;
	free(w.p);
	return 0;
}

int
d9p_read_fd(int fd, const char *name, int in_dir, const struct d9p_sink *sink,
    const struct d9p_read_opts *o, struct d9p_read_stats *st)
{
	struct d9p_input *in;
	struct d9p_decoder *dec;
	struct d9_err e;
	int rc;

	d9_err_clear(&e);
	if (d9p_input_open_fd(&in, fd, &e) < 0)
		return -1;
	if (d9p_decoder_new(&dec, sink) < 0) {
		d9p_input_close(&in);
		return -1;
	}
	st->inputs++;
	if (sink->input)
		sink->input(sink->ctx, name);
	rc = stream(in, dec, name, in_dir, o, st);
	d9p_decoder_free(&dec);
	d9p_input_close(&in);
	return rc;
}

static int
path_cmp(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

static int read_path(const char *path, int in_dir, const struct d9p_sink *,
    const struct d9p_read_opts *, struct d9p_read_stats *, int depth);

static int
read_dir(const char *path, const struct d9p_sink *sink,
    const struct d9p_read_opts *o, struct d9p_read_stats *st, int depth)
{
	DIR *dir = opendir(path);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;

	if (dir == NULL) {
		note(o, "%s: %s", path, strerror(errno));
		st->failed++;
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
	if (rc == 0)
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
				rc = read_path(full, 1, sink, o, st, depth + 1);
				free(full);
			}
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

static int
read_path(const char *path, int in_dir, const struct d9p_sink *sink,
    const struct d9p_read_opts *o, struct d9p_read_stats *st, int depth)
{
	struct stat sb;
	int fd;

	if (strcmp(path, "-") == 0)
		return d9p_read_fd(dup(0), "stdin", 0, sink, o, st);
	if (depth > 32) {
		note(o, "%s: directories nested too deep, skipped", path);
		return 0;
	}
	/* opening a fifo would block until someone writes to it */
	if (in_dir && stat(path, &sb) == 0 && !S_ISREG(sb.st_mode) &&
	    !S_ISDIR(sb.st_mode))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &sb) < 0) {
		note(o, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		st->failed++;
		return 0;
	}
	if (S_ISDIR(sb.st_mode)) {
		close(fd);
		return read_dir(path, sink, o, st, depth);
	}
	if (!S_ISREG(sb.st_mode) && in_dir) {
		close(fd);
		return 0;	/* sockets, fifos inside a directory */
	}
	if (S_ISREG(sb.st_mode) && o->progress)
		atomic_fetch_add(&o->progress->bytes_total,
		    (uint64_t)sb.st_size);
	return d9p_read_fd(fd, path, in_dir, sink, o, st);
}

int
d9p_read_paths(const char *const *paths, size_t npaths,
    const struct d9p_sink *sink, const struct d9p_read_opts *o,
    struct d9p_read_stats *st)
{
	memset(st, 0, sizeof *st);
	for (size_t i = 0; i < npaths; i++)
		if (read_path(paths[i], 0, sink, o, st, 0) < 0)
			return -1;
	return 0;
}
