/* tally.c: see tally.h. A glibc cookie stream over write(2). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "app/tally.h"
#include "base/io.h"

static ssize_t
tally_write(void *cookie, const char *buf, size_t n)
{
	struct d9a_tally *t = cookie;

	if (t->err != 0 || d9_write_all(t->fd, buf, n) < 0) {
		if (t->err == 0)
			t->err = errno;
		return -1;	/* the stream's error is set */
	}
	t->bytes += n;
	if (t->tick != NULL && t->bytes >= t->next) {
		t->next = t->bytes + D9A_TALLY_EVERY;
		t->tick(t->ctx, t->bytes);
	}
	return (ssize_t)n;
}

FILE *
d9a_tally_open(struct d9a_tally *t, int fd,
    void (*tick)(void *ctx, uint64_t bytes), void *ctx)
{
	cookie_io_functions_t io = { .write = tally_write };
	FILE *f;

	memset(t, 0, sizeof *t);
	t->fd = fd;
	t->tick = tick;
	t->ctx = ctx;
	t->next = D9A_TALLY_EVERY;
	if ((f = fopencookie(t, "w", io)) != NULL)
		setvbuf(f, NULL, _IOFBF, (size_t)1 << 16);
	return f;
}

void
d9a_tally_ticks(struct d9a_tally *t, void (*tick)(void *ctx, uint64_t bytes),
    void *ctx)
{
	t->tick = tick;
	t->ctx = ctx;
}
