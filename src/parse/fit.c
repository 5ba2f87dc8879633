/* fit.c: see fit.h. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <zstd.h>

#include "base/wire.h"
#include "parse/fit.h"
#include "parse/prefetch.h"

#define HEAD		18	/* a zstd frame header's most */

static uint64_t
le32(const uint8_t *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
	    (uint64_t)p[3] << 24;
}

/* The decoded bytes the container of fd (size bytes) states. */
static uint64_t
stated(int fd, uint64_t size)
{
	uint8_t h[HEAD], t[4];
	ssize_t got = pread(fd, h, sizeof h, 0);
	unsigned long long c;

	if (got >= 2 && h[0] == D9_GZIP_MAGIC0 && h[1] == D9_GZIP_MAGIC1) {
		/* ISIZE: the last member's bytes mod 2^32; a file of many
		 * members, or of more than 4 GiB, says less than it holds */
		if (size < 18 || pread(fd, t, 4, (off_t)size - 4) != 4)
			return size;
		return le32(t) > size ? le32(t) : size * 4;
	}
	if (got >= 4 && le32(h) == D9_ZSTD_MAGIC) {
		c = ZSTD_getFrameContentSize(h, (size_t)got);
		return c == ZSTD_CONTENTSIZE_UNKNOWN ||
		    c == ZSTD_CONTENTSIZE_ERROR || c < size ? size * 4 :
		    (uint64_t)c;
	}
	return size;		/* raw, or not a trace: what it is */
}

uint64_t
d9p_fit_most(uint64_t size)
{
	if (size > UINT64_MAX / (4 * D9P_FIT_RATIO))
		return UINT64_MAX / 2;
	return size * D9P_FIT_RATIO + size * D9P_FIT_RATIO / 3;
}

uint64_t
d9p_fit_stated(int fd, uint64_t size)
{
	uint64_t most = d9p_fit_most(size), d;

	if (most == UINT64_MAX / 2)
		return most;
	d = stated(fd, size);
	return d > most ? most : d;
}

uint64_t
d9p_fit_need(const char *path, uint64_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	uint64_t d, most = d9p_fit_most(size);

	if (fd < 0)
		return 0;
	d = d9p_fit_stated(fd, size);
	close(fd);
	return d + d / 3 > most ? most : d + d / 3;
}

/* Newest first: later start, then later place. */
static int
cmp_newest(const void *a, const void *b, void *ctx)
{
	const struct d9p_fit *v = ctx;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;

	if (v[i].began_ns != v[j].began_ns)
		return v[i].began_ns > v[j].began_ns ? -1 : 1;
	return i > j ? -1 : i < j;
}

uint64_t
d9p_fit_base(const struct d9p_fit *v, size_t n)
{
	uint64_t most = 0, ahead;

	for (size_t i = 0; i < n; i++)
		most = v[i].need > most ? v[i].need : most;
	/* D9P_PF_AHEAD files at most, each decompressed (3/4 of a need)
	 * beside its compressed bytes */
	ahead = most > D9P_PF_BUDGET ? D9P_PF_BUDGET : most / 4 * 3 *
	    D9P_PF_AHEAD;
	return D9P_FIT_FIXED + (ahead > D9P_PF_BUDGET ? D9P_PF_BUDGET : ahead);
}

size_t
d9p_fit_pick(struct d9p_fit *v, size_t n, uint64_t budget, uint64_t *kept)
{
	size_t *ord, dropped = 0;
	uint64_t base = d9p_fit_base(v, n), sum = base;
	int full = 0;

	*kept = 0;
	for (size_t i = 0; i < n; i++) {
		v[i].drop = 0;
		sum = sum + v[i].need < sum ? UINT64_MAX : sum + v[i].need;
	}
	if (sum <= budget || n == 0 || (ord = malloc(n * sizeof *ord)) ==
	    NULL) {
		*kept = sum - base;
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		ord[i] = i;
	qsort_r(ord, n, sizeof *ord, cmp_newest, v);
	sum = base;
	for (size_t k = 0; k < n; k++) {
		struct d9p_fit *f = &v[ord[k]];

		if (k > 0 && (full || f->need > budget || sum > budget -
		    f->need)) {
			full = 1;
			f->drop = 1;
			dropped++;
			continue;
		}
		sum = sum + f->need < sum ? UINT64_MAX : sum + f->need;
		*kept += f->need;
	}
	free(ord);
	return dropped;
}
