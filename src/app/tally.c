/* tally.c: see tally.h. A glibc cookie stream over write(2). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "app/tally.h"

static ssize_t
tally_write(void *cookie, const char *buf, size_t n)
{
	struct d9a_tally *t = cookie;
	size_t done = 0;
	ssize_t k;

	while (t->err == 0 && done < n) {
		if ((k = write(t->fd, buf + done, n - done)) > 0)
			done += (size_t)k;
		else if (k == 0)
			t->err = EIO;
		else if (errno != EINTR)
			t->err = errno;
	}
	t->bytes += done;
	if (t->tick != NULL && t->bytes >= t->next) {
		t->next = t->bytes + D9A_TALLY_EVERY;
		t->tick(t->ctx, t->bytes);
	}
	/* glibc takes a short count as an error: the stream's is set */
	return done == n ? (ssize_t)n : done > 0 ? (ssize_t)done : -1;
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
