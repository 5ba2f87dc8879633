/*
 * fuzz_ways.c: the same bytes give the same answer whichever way they
 * arrive (DESIGN.md): the input is one segment file, read
 *
 *	as a file		(d9m_model_load on its path)
 *	through a pipe		(the path "-", stdin being a pipe that
 *				holds the bytes: streamed, never whole)
 *	from the index		(the file's model written as an entry,
 *				d9i_image_write, and mapped back)
 *
 * and the --json of each must equal the file's, byte for byte (the pipe's
 * messages name "stdin" where the file's name the path). --export names
 * the first segment the same way too, split from the file and from the
 * pipe, and as the file is named (parse/segid.h) whenever it names it.
 * A difference aborts, with where they part; so does a crash, an access
 * out of bounds or a hang. fuzz_follow.c checks the fourth way, --follow.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export/split.h"
#include "model/core/model.h"
#include "model/queries/lanes.h"
#include "render.h"
#include "store/image.h"
#include "put.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define D9F_KEY	0x5eed		/* the entry's key: any, the same both ways */

/* The bytes in a pipe on fd 0 (the whole input fits: written before it
 * is read, on one thread); the fd 0 it replaced, for stdin_back. */
static int
stdin_from(const uint8_t *p, size_t n)
{
	int fds[2], in = dup(0);

	if (in < 0 || pipe(fds) != 0)
		abort();
	if (fcntl(fds[1], F_SETPIPE_SZ, (int)(n + 4096)) < (int)n ||
	    write(fds[1], p, n) != (ssize_t)n)
		abort();
	close(fds[1]);
	if (dup2(fds[0], 0) < 0)
		abort();
	close(fds[0]);
	return in;
}

static void
stdin_back(int in)
{
	if (dup2(in, 0) < 0)
		abort();
	close(in);
}

/* The bytes read as "-" from a pipe. */
static struct d9m_model *
load_pipe(const uint8_t *p, size_t n)
{
	int in = stdin_from(p, n);
	struct d9m_model *m = t_read("-");

	stdin_back(in);
	return m;
}

/* m written as an index entry into a file and mapped back (*lanes its
 * lanes, freed first). */
static struct d9m_model *
load_entry(const struct d9m_model *m, struct d9m_lanes **lanes)
{
	char path[] = "/tmp/fuzz_ways-entry-XXXXXX", why[256];
	struct d9m_lanes *x = d9m_lanes_build(m);
	struct d9m_model *b;
	int fd = mkstemp(path);

	if (fd < 0 || x == NULL)
		abort();
	unlink(path);
	if (d9i_image_write(m, x, fd, D9F_KEY, NULL) != 0 ||
	    lseek(fd, 0, SEEK_SET) != 0)
		abort();
	d9m_lanes_free(&x);
	if (d9i_image_open(fd, D9F_KEY, &b, lanes, why, sizeof why) != 0) {
		fprintf(stderr, "fuzz_ways: the entry is refused: %s\n", why);
		abort();
	}
	close(fd);
	return b;
}

/* The first segment's identity as --export names it. */
struct first {
	int			 n;	/* segments handed over */
	int			 have;	/* the first one's is id */
	struct d9p_segid	 id;
};

static int
on_segment(void *ctx, struct d9m_model *m, uint64_t events,
    const struct d9p_segid *id)
{
	struct first *f = ctx;

	(void)events;
	if (f->n++ == 0 && id != NULL) {
		f->have = 1;
		f->id = *id;
	}
	d9m_model_free(&m);
	return 0;
}

static struct first
split_first(const char *path)
{
	struct first f = { 0, 0, { 0 } };
	struct d9p_read_opts ro = { 0 };
	struct d9p_read_stats st;

	d9x_split_read(path, -1, on_segment, &f, &ro, NULL, &st);
	return f;
}

static int
same_id(const struct d9p_segid *a, const struct d9p_segid *b)
{
	return a->hash == b->hash && a->len == b->len &&
	    strcmp(a->boot, b->boot) == 0;
}

/* The first segment of the bytes (in the file at path) named by
 * --export: the same from the file and from a pipe, and the file's own
 * name when it has one. (Not the other way: a value cut to KEEP_MAX in
 * its first 64 KiB leaves a segment of a stream without one.) */
static void
same_names(const char *path, const uint8_t *data, size_t size)
{
	struct first a = split_first(path), b;
	struct d9p_segid want;
	int in = stdin_from(data, size);

	b = split_first("-");
	stdin_back(in);
	if (a.have != b.have || (a.have && !same_id(&a.id, &b.id))) {
		fprintf(stderr, "fuzz_ways: the file's and the pipe's first "
		    "segment are named apart (%d %d)\n", a.have, b.have);
		abort();
	}
	if (a.have && (d9p_segid_of(path, &want) < 0 ||
	    !same_id(&a.id, &want))) {
		fprintf(stderr, "fuzz_ways: the first segment is not named as "
		    "the file is: %llu bytes (hash %llx, boot '%s'), the "
		    "file's %llu (%llx, '%s')\n", (unsigned long long)a.id.len,
		    (unsigned long long)a.id.hash, a.id.boot,
		    (unsigned long long)want.len,
		    (unsigned long long)want.hash, want.boot);
		abort();
	}
}

/* Abort when way's --json is not the file's. */
static void
same(const char *way, const char *file, const char *other)
{
	char what[64];

	if (strcmp(file, other) == 0)
		return;
	snprintf(what, sizeof what, "fuzz_ways: the file's and %s --json",
	    way);
	t_say_diff(what, "file", file, "other", other);
	abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/fuzz_ways-XXXXXX";
	struct d9m_model *f, *p, *e;
	struct d9m_lanes *el;
	char *jf, *jp, *je, *tmp;

	fz_put(path, data, size);
	f = t_read(path);
	p = load_pipe(data, size);
	if ((f == NULL) != (p == NULL)) {
		fprintf(stderr, "fuzz_ways: %s read nothing, the other did\n",
		    f == NULL ? "the file" : "the pipe");
		abort();
	}
	if (f != NULL) {
		jf = t_json(f, path);
		tmp = t_json(p, path);
		jp = t_renamed(tmp, "stdin", path);
		free(tmp);
		same("the pipe's", jf, jp);
		e = load_entry(f, &el);
		je = t_json(e, path);
		same("the index entry's", jf, je);
		free(jf);
		free(jp);
		free(je);
		d9m_lanes_free(&el);
		d9m_model_free(&e);
	}
	same_names(path, data, size);
	d9m_model_free(&f);
	d9m_model_free(&p);
	unlink(path);
	return 0;
}
