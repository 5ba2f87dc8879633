/* tally.c: see tally.h. A glibc cookie stream over the other one. */
#include <stdio.h>
#include <string.h>

#include "app/tally.h"

static ssize_t
tally_write(void *cookie, const char *buf, size_t n)
{
	struct d9a_tally *t = cookie;
	size_t put = fwrite(buf, 1, n, t->to);

	t->bytes += put;
	if (t->tick != NULL && t->bytes >= t->next) {
		t->next = t->bytes + D9A_TALLY_EVERY;
		t->tick(t->ctx, t->bytes);
	}
	/* glibc takes a short count as an error: the stream's is set */
	return put == n ? (ssize_t)n : put > 0 ? (ssize_t)put : -1;
}

FILE *
d9a_tally_open(struct d9a_tally *t, FILE *to,
    void (*tick)(void *ctx, uint64_t bytes), void *ctx)
{
	cookie_io_functions_t io = { .write = tally_write };
	FILE *f;

	memset(t, 0, sizeof *t);
	t->to = to;
	t->tick = tick;
	t->ctx = ctx;
	t->next = D9A_TALLY_EVERY;
	if ((f = fopencookie(t, "w", io)) != NULL)
		setvbuf(f, NULL, _IOFBF, (size_t)1 << 16);
	return f;
}
