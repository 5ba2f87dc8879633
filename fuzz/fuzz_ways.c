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
 * messages name "stdin" where the file's name the path). A difference
 * aborts, with where they part; so does a crash, an access out of
 * bounds or a hang. fuzz_follow.c checks the fourth way, --follow.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/core/model.h"
#include "model/queries/lanes.h"
#include "render.h"
#include "store/image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define D9F_KEY	0x5eed		/* the entry's key: any, the same both ways */

/* The bytes read as "-" from a pipe on fd 0 (put back after). */
static struct d9m_model *
load_pipe(const uint8_t *p, size_t n)
{
	struct d9m_model *m;
	int fds[2], in = dup(0);

	if (in < 0 || pipe(fds) != 0)
		abort();
	/* the whole input fits: written before it is read, on one thread */
	if (fcntl(fds[1], F_SETPIPE_SZ, (int)(n + 4096)) < (int)n ||
	    write(fds[1], p, n) != (ssize_t)n)
		abort();
	close(fds[1]);
	if (dup2(fds[0], 0) < 0)
		abort();
	close(fds[0]);
	m = t_read("-");
	if (dup2(in, 0) < 0)
		abort();
	close(in);
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
	int fd = mkstemp(path);

	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	close(fd);
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
	d9m_model_free(&f);
	d9m_model_free(&p);
	unlink(path);
	return 0;
}
