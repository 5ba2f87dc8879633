/*
 * d9shift.c: a copy of a dial9 trace moved in time (shift.h), for the
 * directory benchmark and its test.
 *
 *   d9shift IN OUT SHIFT_NS   write OUT, a gzip copy of the trace IN
 *                             (raw or gzip, any number of members) with
 *                             every absolute time moved by SHIFT_NS
 *   d9shift --range IN        print the first and last event times of
 *                             IN in ns (monotonic clock), then how
 *                             many events IN holds (frames of every
 *                             kind, span and sample events included)
 *
 * OUT is written under a temporary name and renamed when complete, so a
 * directory never holds half a copy. Exit status: 0 ok, 1 bad input or
 * a write error, 2 bad usage.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/text.h"
#include "shift.h"

#define MAX_RAW		(1ull << 30)	/* decoded bytes of one input */
#define CHUNK		(1u << 20)

static void
say(const char *path, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* "d9shift: PATH: message" with the path and message escaped. */
static void
say(const char *path, const char *fmt, ...)
{
	char msg[512], name[256], line[800];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	d9_text_safe(name, sizeof name, path, strlen(path));
	snprintf(line, sizeof line, "%s: %s", name, msg);
	d9_text_put_line(stderr, "d9shift: ", line);
}

/* The decoded bytes of path (gzip members inflated, raw bytes as they
 * are), at most MAX_RAW. */
static uint8_t *
slurp(const char *path, size_t *n)
{
	gzFile g = gzopen(path, "rb");
	uint8_t *p = NULL, *q;
	size_t cap = 0;
	int r = 0;

	*n = 0;
	if (g == NULL) {
		say(path, "%s", strerror(errno ? errno : ENOMEM));
		return NULL;
	}
	for (;;) {
		if (cap - *n < CHUNK) {
			if (cap >= MAX_RAW) {
				say(path, "byte %zu: more than %llu MiB "
				    "decoded", *n, MAX_RAW >> 20);
				r = -2;
				break;
			}
			cap = cap ? cap * 2 : 16 * CHUNK;
			if ((q = realloc(p, cap)) == NULL) {
				say(path, "out of memory");
				r = -2;
				break;
			}
			p = q;
		}
		if ((r = gzread(g, p + *n, CHUNK)) <= 0)
			break;
		*n += (size_t)r;
	}
	if (r == -1) {
		int zerr;
		const char *m = gzerror(g, &zerr);

		say(path, "byte %zu: %s", *n, m);
	}
	gzclose(g);
	if (r != 0) {
		free(p);
		return NULL;
	}
	return p;
}

static int
gz_out(void *ctx, const uint8_t *p, size_t n)
{
	while (n > 0) {
		unsigned k = n > CHUNK ? CHUNK : (unsigned)n;

		if (gzwrite(ctx, p, k) != (int)k)
			return -1;
		p += k;
		n -= k;
	}
	return 0;
}

static int
write_copy(const char *in, const uint8_t *p, size_t n, const char *out,
    int64_t shift)
{
	size_t len = strlen(out) + 8;
	char *tmp = malloc(len);
	gzFile g;
	struct d9b_shift_stats st;
	struct d9_err e;
	int rc;

	if (tmp == NULL)
		return -1;
	snprintf(tmp, len, "%s.part", out);
	if ((g = gzopen(tmp, "wb")) == NULL) {
		say(tmp, "%s", strerror(errno ? errno : ENOMEM));
		free(tmp);
		return -1;
	}
	gzbuffer(g, 1u << 17);
	rc = d9b_shift(p, n, shift, &(struct d9b_shift_out){ g, gz_out }, &st,
	    &e);
	if (rc < 0 && e.code != D9_ERR_IO)
		say(in, "byte %" PRIu64 ": %s", e.off, e.msg);
	if (gzclose(g) != Z_OK || (rc < 0 && e.code == D9_ERR_IO)) {
		say(tmp, "write error");
		rc = -1;
	}
	if (rc == 0 && rename(tmp, out) < 0) {
		say(out, "%s", strerror(errno));
		rc = -1;
	}
	if (rc < 0)
		remove(tmp);
	free(tmp);
	return rc;
}

static int
discard(void *ctx, const uint8_t *p, size_t n)
{
	(void)ctx;
	(void)p;
	(void)n;
	return 0;
}

static int
print_range(const char *in, const uint8_t *p, size_t n)
{
	struct d9b_shift_stats st;
	struct d9_err e;

	if (d9b_shift(p, n, 0, &(struct d9b_shift_out){ NULL, discard }, &st,
	    &e) < 0) {
		say(in, "byte %" PRIu64 ": %s", e.off, e.msg);
		return -1;
	}
	if (st.first > st.last) {
		say(in, "no timestamped event");
		return -1;
	}
	printf("%" PRIu64 " %" PRIu64 " %" PRIu64 "\n", st.first, st.last,
	    st.events);
	return 0;
}

static int
usage(void)
{
	fprintf(stderr, "usage: d9shift IN OUT SHIFT_NS\n"
	    "       d9shift --range IN\n");
	return 2;
}

int
main(int argc, char **argv)
{
	int range = argc == 3 && strcmp(argv[1], "--range") == 0;
	long long shift = 0;
	uint8_t *p;
	size_t n;
	char *end;
	int rc;

	if (!range && argc != 4)
		return usage();
	if (!range) {
		errno = 0;
		shift = strtoll(argv[3], &end, 10);
		if (errno != 0 || end == argv[3] || *end != '\0')
			return usage();
	}
	if ((p = slurp(argv[range ? 2 : 1], &n)) == NULL)
		return 1;
	rc = range ? print_range(argv[2], p, n) :
	    write_copy(argv[1], p, n, argv[2], (int64_t)shift);
	free(p);
	return rc < 0 ? 1 : 0;
}
